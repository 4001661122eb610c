"""Facade calls off the event loop: SQLite (APSW) is synchronous.

Reads run on a small pool of worker threads, each with its own facade (and so its own index
connection: WAL lets readers run side by side). Calls that write run on one dedicated thread,
one at a time. ``FacadePool`` is also the MCP handlers' ``Facades``: a tool handler's
``call.facade`` is the facade of the thread it runs on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from gno_core.surface import Facade, FacadeFactory

log = logging.getLogger("gno.http")
T = TypeVar("T")


class FacadePool:
    def __init__(self, factory: FacadeFactory, *, readers: int = 4) -> None:
        self._factory = factory
        self._local = threading.local()
        self._built: list[Facade] = []
        self._lock = threading.Lock()
        self.readers = ThreadPoolExecutor(readers, thread_name_prefix="gno-http-read")
        self.writer = ThreadPoolExecutor(1, thread_name_prefix="gno-http-write")

    def get(self) -> Facade:
        """This thread's facade, built on first use (a failed build is retried next call)."""
        facade: Facade | None = getattr(self._local, "facade", None)
        if facade is None:
            facade = self._factory()
            self._local.facade = facade
            with self._lock:
                self._built.append(facade)
        return facade

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.writer if write else self.readers, fn)

    async def warm_up(self, count: int) -> None:
        """Open the facades of ``count`` reader threads before the first request needs them."""
        barrier = threading.Barrier(count, timeout=5)

        def build() -> None:
            with contextlib.suppress(threading.BrokenBarrierError):
                barrier.wait()  # holds each thread so that every task lands on its own
            self.get()

        results = await asyncio.gather(
            *(self.run(build) for _ in range(count)), return_exceptions=True
        )
        for result in results:
            if isinstance(result, BaseException):
                log.warning("facade warm-up failed: %s", result)

    def close(self) -> None:
        """Stop the threads (waiting for running calls) and close every facade."""
        self.readers.shutdown(wait=True, cancel_futures=True)
        self.writer.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            built, self._built = self._built, []
        for facade in built:
            close = getattr(facade, "close", None)
            if callable(close):
                try:
                    close()
                except Exception:
                    log.warning("closing a facade failed", exc_info=True)
