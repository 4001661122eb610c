"""The CLI turns pydantic's plugins off without importing their lookup (``gno_cli.main``)."""

from __future__ import annotations

import subprocess
import sys


def _run(code: str, **env: str) -> str:
    import os

    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={k: v for k, v in os.environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"} | env,
    )
    return out.stdout.strip()


_BUILD = (
    "import sys\n"
    "from gno_cli.main import _plugins_off\n"
    "_plugins_off()\n"
    "from pydantic import BaseModel\n"
    "class A(BaseModel):\n"
    "    x: int\n"
    "assert A.model_validate({'x': '3'}).x == 3\n"
    "print('importlib.metadata' in sys.modules)\n"
)


def test_models_build_and_validate_without_the_plugin_lookup() -> None:
    assert _run(_BUILD) == "False"


def test_plugins_named_by_the_caller_keep_pydantic_s_own_lookup() -> None:
    assert _run(_BUILD, PYDANTIC_DISABLE_PLUGINS="some_plugin") == "True"


def test_pydantic_still_asks_its_loader_for_get_plugins_only() -> None:
    # The stand-in offers what pydantic imports from the real loader; if pydantic starts
    # importing another name from it, this fails before any user sees an ImportError.
    import inspect

    from pydantic.plugin import _schema_validator

    source = inspect.getsource(_schema_validator)
    assert "from ._loader import get_plugins\n" in source
    assert source.count("_loader") == 1
