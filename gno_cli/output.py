"""Output helpers: JSON contracts on stdout, human text, and progress on stderr."""

from __future__ import annotations

import json
import sys
import time
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from gno_core.contracts import WireModel


def emit_json(payload: WireModel | dict[str, Any] | list[Any], out: TextIO | None = None) -> None:
    data = payload if isinstance(payload, dict | list) else payload.wire()
    stream = out or sys.stdout
    stream.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


def note_trace(trace_id: str | None) -> None:
    """``Trace: <id>`` on stderr when the command was traced (stdout stays as scripts parse
    it); nothing when tracing is off."""
    if trace_id is not None:
        import sys

        print(f"Trace: {trace_id}", file=sys.stderr)


def emit(text: str, out: TextIO | None = None) -> None:
    (out or sys.stdout).write(text if text.endswith("\n") else text + "\n")


def number_lines(content: str, start: int) -> str:
    lines = content.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    width = len(str(start + len(lines) - 1)) if lines else 1
    return "".join(f"{start + i:>{width}}: {line}\n" for i, line in enumerate(lines))


class Progress:
    """Progress lines on stderr: rewritten in place on a terminal, throttled otherwise."""

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stderr
        self._enabled = enabled
        self._tty = self._stream.isatty()
        self._last = time.monotonic()  # short runs print nothing
        self._dirty = False

    def update(self, text: str) -> None:
        if not self._enabled:
            return
        now = time.monotonic()
        if now - self._last < (0.1 if self._tty else 2.0):
            return
        self._last = now
        if self._tty:
            self._stream.write("\r\x1b[K" + text[:120])
            self._dirty = True
        else:
            self._stream.write(text + "\n")
        self._stream.flush()

    def done(self) -> None:
        if self._dirty:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._dirty = False
