"""Shared fixtures: where the external corpora live (``../shared/data`` beside the checkout)."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO_ROOT.parent / "shared" / "data"
#: ``tests/package`` runs only against an installed wheel, in its own session (``nox -s package``).
collect_ignore = ["package"]


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The read-only external corpora; tests that need them skip clearly when absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"shared corpora not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(autouse=True)
def lowered_priority(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """``gno embed`` / ``gno index`` run in-process by the CLI tests would lower the test
    worker's CPU priority for the rest of the session: the calls are recorded instead
    (``tests/unit/test_cli_priority.py`` runs the real one in a child process)."""
    calls: list[int] = []
    monkeypatch.setattr("gno_cli.priority.lower_priority", calls.append)
    return calls
