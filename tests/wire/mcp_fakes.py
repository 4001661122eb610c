"""``FakeGno``: the real in-memory facade plus what only a fake can do, and a stdio entry that
serves it.

Run as a script (``python tests/wire/mcp_fakes.py [--tool-profile core] [--enable-write]``) it
is an MCP stdio server over the real ``Gno`` on the in-memory notes of ``real_facade``.
``GNO_FAKE_CALL_LOG`` names a file that gets one line per facade call (so tests can prove a
cancelled call never ran); a search for ``slow`` sleeps ``GNO_FAKE_SLOW_SECONDS`` (default 1.5)
first (an audit of the path ``slow/`` waits as long for its cancellation), one for ``noisy``
writes to stdout (which stdio must keep off the protocol stream).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gno_adapters.bootstrap import Adapters, build
from gno_core.contracts import SearchResults
from gno_core.contracts.requests import SearchRequest
from gno_core.facade import Gno
from tests.wire import real_facade


class FakeGno:
    """Delegates every call to a real ``Gno``; adds only slowness, stdout noise, a call log and
    the failures named in ``failing`` (facade method name -> exception to raise)."""

    def __init__(
        self, inner: Gno | None = None, *, failing: Mapping[str, Exception] | None = None
    ) -> None:
        self._inner = inner if inner is not None else build(real_facade.adapters())
        self._failing = dict(failing or {})
        self._log = os.environ.get("GNO_FAKE_CALL_LOG")

    @staticmethod
    def factory(
        made: Adapters | None = None, *, failing: Mapping[str, Exception] | None = None
    ) -> Callable[[], FakeGno]:
        """A facade factory of fakes over one adapter set (a fresh synced one by default)."""
        real = real_facade.factory(made)
        return lambda: FakeGno(real(), failing=failing)

    def _record(self, what: str) -> None:
        if self._log:
            with open(self._log, "a", encoding="utf-8") as fh:
                fh.write(what + "\n")

    def search(self, request: SearchRequest) -> SearchResults:
        self._record(f"search {request.query}")
        if request.query == "slow":
            time.sleep(float(os.environ.get("GNO_FAKE_SLOW_SECONDS", "1.5")))
        if request.query == "noisy":
            print("noise from print()")
            os.write(1, b"noise from fd 1\n")
        return self._call("search", request)

    def audit(self, request: Any, cancelled: Callable[[], bool] | None = None) -> Any:
        self._record("audit")
        if request.path == "slow/" and cancelled is not None:
            deadline = time.monotonic() + float(os.environ.get("GNO_FAKE_SLOW_SECONDS", "1.5"))
            while not cancelled() and time.monotonic() < deadline:
                time.sleep(0.01)
        return self._call("audit", request, cancelled=cancelled)

    def _call(self, name: str, *args: Any, **kwargs: Any) -> Any:
        if name in self._failing:
            raise self._failing[name]
        return getattr(self._inner, name)(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._inner, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            self._record(name)
            return self._call(name, *args, **kwargs)

        return call


def main(argv: list[str]) -> int:
    from gno_adapters.mcp.stdio import serve_stdio

    profile = argv[argv.index("--tool-profile") + 1] if "--tool-profile" in argv else "full"
    write = "--enable-write" in argv or os.environ.get("GNO_MCP_ENABLE_WRITE") == "1"
    # The factory runs on the worker at the first call: the notes are synced then, not before
    # the server answers ``initialize``.
    return serve_stdio(FakeGno, profile=profile, enable_write=write)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
