"""Fixtures of the packaged gateway conformance suite (``nox -s package``): an index built by
the installed ``gno`` over ``foam-docs`` (``../shared/data``, beside the checkout) or, when the
shared corpora are absent, the four notes of ``corpus/``."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pkg_support import SOURCE, VENV, gno

HERE = Path(__file__).resolve().parent


def pytest_configure(config: pytest.Config) -> None:
    """Refuse to run at all unless the code under test is the wheel installed in ``VENV``."""
    import gno_core

    where = Path(gno_core.__file__).resolve()
    if not where.is_relative_to(VENV):
        raise pytest.UsageError(f"gno_core comes from {where}, not the package venv {VENV}")
    for entry in sys.path:
        if entry and Path(entry).resolve() in (SOURCE, SOURCE / "tests"):
            raise pytest.UsageError(f"the source tree is on sys.path ({entry})")


def corpus_dir() -> Path:
    foam = SOURCE.parent / "shared" / "data" / "foam-docs"
    return foam if foam.is_dir() else HERE / "corpus"


def isolated_env(home: Path) -> dict[str, str]:
    """The environment of every ``gno`` run: its own config, data and cache folders, nothing
    that could bring the source tree back (``PYTHONPATH``) or open the write gate."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("GNO_", "PYTHON")) or k == "PYTHONHASHSEED"
    }
    env.update(
        GNO_CONFIG_DIR=str(home / "config"),
        GNO_DATA_DIR=str(home / "data"),
        GNO_CACHE_DIR=str(home / "cache"),
    )
    return env


@pytest.fixture(scope="session")
def corpus() -> Path:
    return corpus_dir()


@pytest.fixture(scope="session")
def gno_env(corpus: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """An index of the corpus, synced and embedded by the installed ``gno``."""
    env = isolated_env(tmp_path_factory.mktemp("gno-home"))
    added = gno(env, "collection", "add", str(corpus), "--name", "notes")
    assert added.returncode == 0, added.stderr
    # The suite sends hundreds of requests from one peer within a minute; the default limit
    # (120 a minute, proven by tests/wire/test_http_abuse.py) would answer some with 429.
    config = Path(env["GNO_CONFIG_DIR"]) / "index.yml"
    text = config.read_text(encoding="utf-8")
    assert text.count("  rateLimitPerMinute: 120\n") == 1, text
    config.write_text(text.replace("rateLimitPerMinute: 120", "rateLimitPerMinute: 100000"))
    indexed = gno(env, "index")
    assert indexed.returncode == 0, indexed.stderr
    assert "0 pending" in indexed.stdout, indexed.stdout
    yield env
    pid_file = Path(env["GNO_DATA_DIR"]) / "serve.pid"
    assert not pid_file.exists(), "a test left a resident server running"
