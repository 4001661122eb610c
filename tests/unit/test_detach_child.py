"""The command line of a detached server's child: ``-P`` keeps the start folder off its
``sys.path`` (an installed gno started beside another ``gno_cli`` still runs itself; the
package suite holds that end to end), and a gno run from a checkout by ``python -m`` hands that
checkout to its child explicitly so that both run the same code."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import gno_cli
from gno_cli.commands import serve

ROOT = Path(gno_cli.__file__).resolve().parents[1]


def test_the_child_never_imports_from_its_start_folder() -> None:
    class Args:
        index = config = mcp_tool_profile = mcp_token_file = host = None
        port = 0
        resident_cmd = "serve"
        mcp_enable_write = watch = False
        mcp_allowed_host = mcp_allowed_origin = None

    class Ctx:
        args = Args()
        quiet = False

    argv = serve._child_argv(Ctx(), Path("/x/serve.pid"), Path("/x/serve.log"))  # type: ignore[arg-type]
    assert argv[:4] == [sys.executable, "-P", "-m", "gno_cli.main"]


def test_a_checkout_run_from_its_folder_is_handed_to_the_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    monkeypatch.setattr(sys, "path", [str(ROOT), *sys.path[1:]])
    assert serve._child_env()["PYTHONPATH"] == os.pathsep.join([str(ROOT), "/elsewhere"])
    monkeypatch.setattr(sys, "path", ["/usr/local/bin", *sys.path[1:]])
    assert serve._child_env()["PYTHONPATH"] == "/elsewhere"
    monkeypatch.delenv("PYTHONPATH")
    assert "PYTHONPATH" not in serve._child_env()
