"""``Jobs``: the server process's job manager (``gno_core.jobs``) with the facade factory its
jobs open their own facade from (a job runs on its own thread and outlives the request, so it
never borrows the caller's facade or connection)."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from gno_core.surface import Facade, FacadeFactory

if TYPE_CHECKING:
    from gno_core.jobs import JobContext, JobManager

__all__ = ["Jobs"]

JobWork = Callable[[Facade, "JobContext"], dict[str, Any]]


class Jobs:
    """The manager is built on first use: a server answers ``initialize`` before the contract
    models (which job statuses are) load."""

    def __init__(self, factory: FacadeFactory) -> None:
        self._factory = factory
        #: This server process's id in job statuses and capture receipts (``serverInstanceId``).
        self.server_instance_id = f"gno-{secrets.token_hex(6)}"
        self._manager: JobManager | None = None
        self._lock = threading.Lock()

    @property
    def manager(self) -> JobManager:
        with self._lock:
            if self._manager is None:
                from gno_core.jobs import JobManager

                self._manager = JobManager(server_instance_id=self.server_instance_id)
            return self._manager

    def start(self, job_type: str, work: JobWork, phases: list[str] | None = None) -> str:
        def body(ctx: JobContext) -> dict[str, Any]:
            facade = self._factory()
            try:
                return work(facade, ctx)
            finally:
                close = getattr(facade, "close", None)
                if callable(close):
                    close()

        return self.manager.start(job_type, body, phases)

    def close(self) -> None:
        with self._lock:
            manager = self._manager
        if manager is not None:
            manager.shutdown()
