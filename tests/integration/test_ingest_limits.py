"""Hostile trees never hang, crash or starve ``gno update``: each case runs a real sync in a child
process and bounds its exit code, reported failure codes, wall time and peak RSS."""

from __future__ import annotations

import os
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.integration.cli_helpers import run_gno
from tests.integration.resource_helpers import measure_gno

#: Generous ceilings: a healthy sync of these trees takes ~1 s and ~70 MB.
MAX_SECONDS = 20.0
MAX_PEAK_MB = 300.0


def alias_bomb() -> str:
    """Nine levels of nine aliases: 9^9 strings once expanded, 600 bytes on disk."""
    lines = ["a: &a [" + ", ".join(['"lol"'] * 9) + "]"]
    previous = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ", ".join([f"*{previous}"] * 9) + "]")
        previous = name
    lines.append("tags: *i")
    return "---\n" + "\n".join(lines) + "\n---\n# Bomb\n\nbody\n"


def _env(root: Path) -> dict[str, str]:
    return {
        **os.environ,
        "GNO_CONFIG_DIR": str(root / "config"),
        "GNO_DATA_DIR": str(root / "data"),
        "GNO_CACHE_DIR": str(root / "cache"),
    }


def _fifo(notes: Path) -> None:
    os.mkfifo(notes / "pipe.md")


def _socket(notes: Path) -> None:
    # AF_UNIX paths are limited to ~107 bytes: bind through a short relative path.
    cwd = os.getcwd()
    os.chdir(notes)
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.bind("sock.md")
        sock.close()
    finally:
        os.chdir(cwd)


def _write(name: str, text: str) -> Callable[[Path], None]:
    return lambda notes: (notes / name).write_text(text, encoding="utf-8")


def _sparse(name: str, size: int) -> Callable[[Path], None]:
    def make(notes: Path) -> None:
        with open(notes / name, "wb") as fh:
            fh.truncate(size)

    return make


CASES: dict[str, tuple[Callable[[Path], None], dict[str, str]]] = {
    "alias-bomb": (_write("bomb.md", alias_bomb()), {"bomb.md": "FRONTMATTER"}),
    "deep-flow": (
        _write("flow.md", "---\na: " + "[" * 20_000 + "]" * 20_000 + "\n---\nbody\n"),
        {"flow.md": "FRONTMATTER"},
    ),
    "deep-block": (
        _write(
            "block.md",
            "---\n" + "".join("  " * i + f"k{i}:\n" for i in range(2_000)) + "---\nbody\n",
        ),
        {"block.md": "FRONTMATTER"},
    ),
    "compact-block": (
        _write("compact.md", "---\na:\n" + "- " * 20_000 + "x\n---\nbody\n"),
        {"compact.md": "FRONTMATTER"},
    ),
    "huge-frontmatter": (
        _write("big.md", "---\n" + "".join(f"k{i}: v\n" for i in range(40_000)) + "---\nb\n"),
        {"big.md": "FRONTMATTER"},
    ),
    "huge-line": (_write("line.md", "x" * (5 * 1024 * 1024) + "\n"), {}),
    "too-large": (_sparse("big.md", 11 * 1024 * 1024), {"big.md": "TOO_LARGE"}),
    "fifo": (_fifo, {}),
    "socket": (_socket, {}),
}


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CASES))
def test_hostile_tree_sync_is_bounded(tmp_path: Path, case: str) -> None:
    make, expected_failures = CASES[case]
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "plain.md").write_text("# Plain\n\nAn ordinary note.\n", encoding="utf-8")
    make(notes)
    env = _env(tmp_path)
    add = run_gno(env, "collection", "add", str(notes), "--name", "notes", timeout=60)
    assert add.returncode == 0, add.stderr

    run = measure_gno(env, "update", "--json", timeout=MAX_SECONDS * 2)

    assert run.code == 0, run.err
    assert run.seconds < MAX_SECONDS, f"{case}: {run.seconds:.1f}s"
    assert run.peak_mb < MAX_PEAK_MB, f"{case}: peak RSS {run.peak_mb:.0f} MB"
    (result,) = run.json()["collections"]
    failures = {f["relPath"]: f["code"] for f in result["failures"]}
    assert failures == expected_failures
    assert result["failed"] == len(expected_failures)
    assert result["added"] == (2 if case == "huge-line" else 1)  # plain.md (+ line.md)


@pytest.mark.slow
def test_alias_bomb_reports_the_bound(tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "bomb.md").write_text(alias_bomb(), encoding="utf-8")
    env = _env(tmp_path)
    assert run_gno(env, "collection", "add", str(notes), timeout=60).returncode == 0

    run = measure_gno(env, "update", "--json", timeout=MAX_SECONDS * 2)

    assert run.code == 0, run.err
    (failure,) = run.json()["collections"][0]["failures"]
    assert failure["code"] == "FRONTMATTER"
    assert "expands to more than" in failure["message"]
    status = run_gno(env, "status", "--json", timeout=60)
    assert status.returncode == 0, status.stderr
    assert '"FRONTMATTER"' in status.stdout
