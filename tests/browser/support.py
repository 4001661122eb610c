"""Browser-test plumbing: Debian's Chromium driven by Playwright (never a browser Playwright
downloads), a ``gno serve`` of a real index in a subprocess, and a page that records what a
test must never see: a console error, an uncaught page error, a dialog, or a request to
anything but the server on 127.0.0.1 (such a request is also refused before it leaves)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest

REPO = Path(__file__).resolve().parents[2]
GNO = [sys.executable, "-m", "gno_cli.main"]
#: Flags for a headless Chromium in a container (no sandbox as root, no GPU, small /dev/shm).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]


def chromium_path() -> str:
    """Debian's Chromium (``scripts/test_packages.sh`` installs it); its absence fails the
    browser tests rather than skipping them."""
    found = os.environ.get("GNO_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(found).is_file():
        pytest.fail(
            "Chromium not found: run scripts/test_packages.sh (apt-get install chromium) "
            "or set GNO_CHROMIUM"
        )
    return found


def gno(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GNO, *argv], check=False, env=env, cwd=REPO, capture_output=True, text=True, timeout=120
    )


def index_env(home: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
        "GNO_EMBED_MODEL": "none",
        "PYTHONPATH": str(REPO),
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    return env


def indexed(home: Path, folders: dict[str, Path]) -> dict[str, str]:
    """An index under ``home`` of ``folders`` (collection name -> folder), updated."""
    env = index_env(home)
    for name, folder in folders.items():
        added = gno(env, "collection", "add", str(folder), "--name", name)
        assert added.returncode == 0, added.stderr
    updated = gno(env, "update")
    assert updated.returncode == 0, updated.stderr
    return env


@contextmanager
def serving(env: dict[str, str], *flags: str) -> Iterator[str]:
    """``gno serve`` on a free loopback port (detached, stopped afterwards); yields its base
    URL."""
    started = gno(env, "serve", "--port", "0", "--detach", "--json", *flags)
    assert started.returncode == 0, started.stderr
    port = json.loads(started.stdout)["port"]
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        stopped = gno(env, "serve", "--stop")
        if stopped.returncode != 0:
            pid_file = Path(env["GNO_DATA_DIR"]) / "serve.pid"
            with suppress(OSError, ValueError, KeyError):
                os.kill(json.loads(pid_file.read_text())["pid"], signal.SIGKILL)


@dataclass
class Watched:
    """What a browser context saw that it should not have."""

    base: str
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)

    def clean(self) -> None:
        assert self.console_errors == [], self.console_errors
        assert self.page_errors == [], self.page_errors
        assert self.dialogs == [], self.dialogs
        assert self.outside == [], self.outside


def watch(context: Any, base: str) -> Watched:
    """Record (and refuse) every request that is not to ``base``; record console errors, page
    errors and dialogs of every page the context opens."""
    seen = Watched(base)
    host = urlsplit(base).netloc

    def route(handle: Any) -> None:
        url = handle.request.url
        parts = urlsplit(url)
        if parts.scheme in ("http", "https") and parts.netloc == host:
            handle.continue_()
        else:
            seen.outside.append(url)
            handle.abort()

    def on_page(page: Any) -> None:
        page.on(
            "console",
            lambda msg: seen.console_errors.append(msg.text) if msg.type == "error" else None,
        )
        page.on("pageerror", lambda exc: seen.page_errors.append(str(exc)))

        def on_dialog(dialog: Any) -> None:
            seen.dialogs.append(dialog.message)
            dialog.dismiss()

        page.on("dialog", on_dialog)

    context.route("**/*", route)
    context.on("page", on_page)
    return seen
