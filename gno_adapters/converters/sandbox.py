"""``SandboxedConverters``: the ``DocumentConverter`` port with every conversion in a separate
worker process (``worker.py``) under an address-space limit and a wall-clock limit.

One worker serves file after file (its start-up and library imports are paid once per sync,
not per file); a worker that overruns its time is killed, one that dies is reported as the
file's failure, and either way the next file gets a fresh worker. The index process never
parses a converted format itself.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
import weakref
from dataclasses import asdict
from typing import Any

from gno_adapters.converters.registry import MODULES, available, identity
from gno_adapters.converters.worker import _LEN
from gno_core.errors import IngestError
from gno_core.ports.converters import Converted, ConvertLimits

__all__ = ["SandboxedConverters"]


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait()
    for stream in (proc.stdin, proc.stdout):
        if stream is not None:
            stream.close()


class SandboxedConverters:
    def __init__(self, extensions: frozenset[str] | None = None) -> None:
        self._extensions = (
            extensions
            if extensions is not None
            else frozenset(ext for ext in MODULES if available(ext))
        )
        self._proc: subprocess.Popen[bytes] | None = None
        self._memory = 0
        self._lock = threading.Lock()
        self._finalizer: weakref.finalize[Any, Any] | None = None

    def extensions(self) -> frozenset[str]:
        return self._extensions

    def identity(self, ext: str) -> tuple[str, str]:
        return identity(ext)

    def close(self) -> None:
        with self._lock:
            self._close()

    def _close(self) -> None:
        if self._proc is not None:
            _stop(self._proc)
            self._proc = None
        if self._finalizer is not None:
            self._finalizer.detach()
            self._finalizer = None

    def _worker(self, memory: int) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._proc.poll() is None and self._memory == memory:
            return self._proc
        self._close()
        self._proc = subprocess.Popen(
            [sys.executable, "-P", "-m", "gno_adapters.converters.worker", str(memory)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            # Its own process group: a terminal's Ctrl-C reaches gno, which stops the worker.
            start_new_session=True,
        )
        self._memory = memory
        self._finalizer = weakref.finalize(self, _stop, self._proc)
        return self._proc

    def convert(self, data: bytes, ext: str, rel_path: str, limits: ConvertLimits) -> Converted:
        if ext not in self._extensions:
            raise IngestError("CONVERSION_ERROR", f"No converter for {ext}", rel_path=rel_path)
        with self._lock:
            reply = self._ask(data, ext, rel_path, limits)
        if not reply.get("ok"):
            raise IngestError(str(reply["reason"]), str(reply["message"]), rel_path=rel_path)
        return Converted(
            markdown=str(reply["markdown"]),
            converter_id=str(reply["converter"]),
            converter_version=str(reply["version"]),
            title=reply.get("title"),
            warnings=tuple(str(w) for w in reply.get("warnings", ())),
        )

    def _ask(self, data: bytes, ext: str, rel_path: str, limits: ConvertLimits) -> dict[str, Any]:
        proc = self._worker(limits.memory_bytes)
        assert proc.stdin is not None and proc.stdout is not None
        header = json.dumps({"ext": ext, "limits": asdict(limits)}).encode()
        try:
            proc.stdin.write(_LEN.pack(len(header)) + header + _LEN.pack(len(data)))
            proc.stdin.write(data)
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._died(rel_path)
        deadline = time.monotonic() + limits.seconds
        head = self._read(proc, _LEN.size, deadline)
        if head is None:
            return self._timed_out_or_died(proc, rel_path, limits)
        (size,) = _LEN.unpack(head)
        body = self._read(proc, size, deadline)
        if body is None:
            return self._timed_out_or_died(proc, rel_path, limits)
        reply: dict[str, Any] = json.loads(body)
        return reply

    @staticmethod
    def _read(proc: subprocess.Popen[bytes], size: int, deadline: float) -> bytes | None:
        assert proc.stdout is not None
        fd = proc.stdout.fileno()
        parts: list[bytes] = []
        got = 0
        while got < size:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return None
            chunk = os.read(fd, min(size - got, 1 << 20))
            if not chunk:
                return None
            parts.append(chunk)
            got += len(chunk)
        return b"".join(parts)

    def _timed_out_or_died(
        self, proc: subprocess.Popen[bytes], rel_path: str, limits: ConvertLimits
    ) -> dict[str, Any]:
        if proc.poll() is None:
            self._close()
            return {
                "ok": False,
                "reason": "CONVERSION_TIMEOUT",
                "message": f"Conversion took longer than {limits.seconds:g} s; stopped",
            }
        return self._died(rel_path)

    def _died(self, rel_path: str) -> dict[str, Any]:
        proc = self._proc
        code = proc.wait() if proc is not None else None
        self._close()
        if code is not None and code < 0:
            name = signal.Signals(-code).name if -code in signal.valid_signals() else str(-code)
            what = f"ended by {name}"
        else:
            what = f"exited with status {code}"
        # An address-space limit shows up as an allocation failure that a C library may turn
        # into an abort: the likeliest cause of a dead worker is the file's demand for memory.
        return {
            "ok": False,
            "reason": "CONVERSION_MEMORY"
            if code in (-signal.SIGABRT, -signal.SIGSEGV, -signal.SIGKILL)
            else "CONVERSION_ERROR",
            "message": f"Converter process {what} on this file",
        }
