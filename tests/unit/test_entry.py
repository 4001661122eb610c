"""``gno_core.open``: the adapter set is chosen from the ``gno.adapters`` entry points."""

from __future__ import annotations

import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

import gno_core
from gno_core.entry import ADAPTERS_GROUP, select_adapters
from gno_core.errors import (
    AdaptersNotFoundError,
    AmbiguousAdaptersError,
    GnoError,
    NotFoundError,
    ValidationError,
)

OPENED: list[tuple[object, ...]] = []


def fake_sqlite(index: str | None, config_path: str | None, *, env: object = None) -> str:
    OPENED.append(("sqlite", index, config_path, env))
    return "sqlite-facade"


def fake_postgres(index: str | None, config_path: str | None, *, env: object = None) -> str:
    OPENED.append(("postgres", index, config_path, env))
    return "postgres-facade"


NOT_CALLABLE = 42


def point(name: str, target: str) -> EntryPoint:
    return EntryPoint(name=name, value=f"{__name__}:{target}", group=ADAPTERS_GROUP)


SQLITE = point("sqlite", "fake_sqlite")
POSTGRES = point("postgres", "fake_postgres")


def test_the_only_installed_set_is_used_when_none_is_named() -> None:
    assert select_adapters([SQLITE], None) is fake_sqlite


def test_a_set_seen_twice_is_not_ambiguous() -> None:
    assert select_adapters([SQLITE, point("sqlite", "fake_sqlite")], None) is fake_sqlite


def test_a_named_set_is_chosen_among_several() -> None:
    assert select_adapters([SQLITE, POSTGRES], "postgres") is fake_postgres


def test_several_sets_and_no_name_is_a_validation_error() -> None:
    with pytest.raises(AmbiguousAdaptersError) as caught:
        select_adapters([SQLITE, POSTGRES], None)
    error = caught.value
    assert isinstance(error, ValidationError)
    assert error.code == "VALIDATION"
    assert error.details == {"installed": ["postgres", "sqlite"]}
    assert "postgres, sqlite" in error.message
    assert "GNO_ADAPTERS" in error.message


def test_an_unknown_name_is_not_found_and_lists_what_is_installed() -> None:
    with pytest.raises(AdaptersNotFoundError) as caught:
        select_adapters([SQLITE], "postgres")
    error = caught.value
    assert isinstance(error, NotFoundError)
    assert error.code == "NOT_FOUND"
    assert error.details == {"requested": "postgres", "installed": ["sqlite"]}
    assert "postgres" in error.message and "sqlite" in error.message


def test_no_installed_set_is_not_found() -> None:
    with pytest.raises(AdaptersNotFoundError, match="No gno adapter set is installed"):
        select_adapters([], None)


def test_a_target_that_is_not_callable_is_refused() -> None:
    with pytest.raises(AdaptersNotFoundError, match="not callable"):
        select_adapters([point("broken", "NOT_CALLABLE")], None)


def test_open_uses_the_registered_sqlite_set(tmp_path: Path) -> None:
    env = {
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(tmp_path / "cache"),
    }
    from gno_core.facade import Gno

    with gno_core.open("research", env=env) as gno:
        assert isinstance(gno, Gno)
        assert gno.index_name == "research"
        gno.init()
    assert (tmp_path / "data" / "index-research.sqlite").is_file()


def test_open_reports_an_unknown_set_from_the_environment(tmp_path: Path) -> None:
    env = {"GNO_ADAPTERS": "postgres", "GNO_CONFIG_DIR": str(tmp_path)}
    with pytest.raises(GnoError) as caught:
        gno_core.open(env=env)
    assert caught.value.code == "NOT_FOUND"
    assert "postgres" in caught.value.message
    # The argument wins over the variable.
    with gno_core.open(env=env, adapters="sqlite") as gno:
        assert gno.index_name == "default"


def test_open_reads_gno_adapters_from_the_process_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GNO_ADAPTERS", "no-such-set")
    with pytest.raises(AdaptersNotFoundError, match="no-such-set"):
        gno_core.open()


def test_import_gno_core_loads_no_adapter_and_no_pydantic() -> None:
    code = (
        "import sys, gno_core\n"
        "assert callable(gno_core.open)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in "
        "('gno_adapters', 'pydantic', 'importlib.metadata') or m == 'importlib.metadata')\n"
        "print(loaded)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
