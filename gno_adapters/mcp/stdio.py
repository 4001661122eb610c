"""The stdio transport: newline-delimited JSON-RPC on stdin/stdout, one connection per process.

stdout carries protocol messages and nothing else: while serving, file descriptor 1 points at
stderr, so a stray ``print`` or a native library's chatter cannot corrupt the stream. The read
loop answers lifecycle and listing requests itself; tool calls and resource reads run in order
on one worker thread (the index connection stays on that thread), so ``ping`` and
``notifications/cancelled`` are read while a call runs. A cancelled call is never answered: if it
had not started it never runs, and if it had, its result is dropped.
"""

from __future__ import annotations

import logging
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from typing import TYPE_CHECKING, BinaryIO

from gno_adapters.mcp.context import Connection
from gno_adapters.mcp.frames import DEFAULT_MAX_FRAME_BYTES, FrameError, decode_frame, json_bytes
from gno_adapters.mcp.jsonrpc import PARSE_ERROR, JSONObject, RpcError, error_response
from gno_adapters.mcp.protocol import Engine
from gno_adapters.mcp.server import GnoHandlers, build_engine, write_enabled_by_env
from gno_core.surface import OPERATIONS, FacadeFactory

if TYPE_CHECKING:
    from gno_core.contracts import ResidentStatus

log = logging.getLogger("gno.mcp")
Job = Callable[[], JSONObject | None]


def serve_stdio(
    facade_factory: FacadeFactory,
    *,
    profile: str = "full",
    enable_write: bool | None = None,
    stdin: BinaryIO | None = None,
    stdout: BinaryIO | None = None,
    capabilities: Iterable[str] = OPERATIONS,
) -> int:
    """Serve MCP on stdio until stdin closes; returns the process exit status.

    ``facade_factory`` (from the caller's composition root) is called once, on the worker, at
    the first tool or resource call; ``capabilities`` names the facade operations it offers.
    ``profile`` is ``core`` or ``full``: an unknown value raises
    ``gno_core.errors.ValidationError`` before anything is read. ``enable_write`` registers the
    write tools; ``None`` reads ``GNO_MCP_ENABLE_WRITE=1`` from the environment.
    ``stdin``/``stdout`` default to the process's own streams, and then fd 1 points at stderr
    while serving.
    """
    if enable_write is None:
        enable_write = write_enabled_by_env(os.environ)
    handlers = GnoHandlers(
        facade_factory,
        profile=profile,
        enable_write=enable_write,
        capabilities=capabilities,
        transport_status=stdio_status,
    )
    engine = build_engine(handlers)
    if stdout is not None:
        return StdioServer(engine, handlers, stdin or sys.stdin.buffer, stdout).run()
    with _protocol_stdout() as out:
        return StdioServer(engine, handlers, stdin or sys.stdin.buffer, out).run()


def stdio_status() -> ResidentStatus:
    """How a stdio server reports itself in ``gno_status``: one client, not resident."""
    from gno_core.contracts import ResidentStatus

    return ResidentStatus(mode="stdio", resident=False)


class StdioServer:
    """One stdio connection: a read loop, a writer, and the worker that runs deferred work."""

    def __init__(
        self,
        engine: Engine,
        handlers: GnoHandlers,
        inp: BinaryIO,
        out: BinaryIO,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
    ):
        self.engine = engine
        self.max_frame_bytes = max_frame_bytes
        self.handlers = handlers
        self.inp = inp
        self.out = out
        self.connection = Connection.pinned_by_first_request("stdio")
        self._jobs: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._write_lock = threading.Lock()
        self._closed = False
        self._warmed = False

    def run(self) -> int:
        worker = threading.Thread(target=self._work, name="gno-mcp-worker", daemon=True)
        worker.start()
        try:
            while raw := self.inp.readline(self.max_frame_bytes + 1):
                if len(raw) > self.max_frame_bytes and not raw.endswith(b"\n"):
                    self._skip_rest_of_line()
                    problem = f"Parse error: frame over {self.max_frame_bytes} bytes"
                    self.send(error_response(None, RpcError(PARSE_ERROR, problem)))
                    continue
                self._receive(raw)
        except KeyboardInterrupt:
            pass
        finally:
            self._jobs.put(None)
            worker.join()
            self.handlers.close()
        return 0

    def _receive(self, raw: bytes) -> None:
        line = raw.strip()
        if not line:
            return
        try:
            message = decode_frame(line, max_bytes=self.max_frame_bytes)
        except FrameError as exc:
            self.send(error_response(exc.request_id, exc.error))
            return
        reply = self.engine.handle(self.connection, message)
        if reply.response is not None:
            self.send(reply.response)
        if reply.work is not None:
            self._jobs.put(reply.work)
        if not self._warmed and self.connection.era is not None:
            self._warmed = True
            self._jobs.put(self._warm_up)

    def _skip_rest_of_line(self) -> None:
        """Discard an oversized frame up to its newline without ever holding it whole."""
        while chunk := self.inp.readline(self.max_frame_bytes):
            if chunk.endswith(b"\n"):
                return

    def _work(self) -> None:
        # Nothing a job does may end this loop: a dead worker would leave every later call
        # unanswered while ping still works.
        while (job := self._jobs.get()) is not None:
            try:
                response = job()
                if response is not None:
                    self.send(response)
            except Exception:
                log.exception("worker job failed")

    def _warm_up(self) -> None:
        try:
            self.handlers.warm_up()
        except Exception:
            log.warning("warm-up failed; the first call will retry", exc_info=True)

    def send(self, message: JSONObject) -> None:
        data = json_bytes(message) + b"\n"
        with self._write_lock:
            if self._closed:
                return
            try:
                self.out.write(data)
                self.out.flush()
            except (BrokenPipeError, ValueError, OSError):
                self._closed = True
                log.warning("stdout closed by the client; dropping further responses")


@contextmanager
def _protocol_stdout() -> Iterator[BinaryIO]:
    """Keep the real stdout for protocol messages and point fd 1 (and ``sys.stdout``) at stderr."""
    sys.stdout.flush()
    protocol_fd = os.dup(1)
    os.dup2(2, 1)
    saved = sys.stdout
    sys.stdout = sys.stderr
    out = os.fdopen(protocol_fd, "wb")
    try:
        yield out
    finally:
        sys.stdout = saved
        with suppress(OSError):
            out.flush()
        os.dup2(protocol_fd, 1)
        out.close()
