"""The job manager: long writes (indexing a new collection, embedding, a full index) run on
their own thread after the caller got a job id, one at a time per server process.

- A second job while one runs is ``JOB_CONFLICT``; finished jobs are kept for an hour, at most
  100 of them, in memory only (a job id from before a restart is ``NOT_FOUND``).
- A job reports its phase and progress as it goes; ``cancel`` (or ``shutdown``) sets its
  cancellation flag, which the sync and embed runs check before each file and each batch, so it
  stops within one batch and keeps what it committed.
- A job outlives the request and the transport session that started it: only ``cancel`` and
  ``shutdown`` stop it.
"""

from __future__ import annotations

import itertools
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from gno_core.contracts.writes import JobList, JobProgress, JobStatus
from gno_core.errors import CancelledError, GnoError, JobConflictError, NotFoundError

__all__ = ["JobContext", "JobManager"]

RETENTION_SECONDS = 3600.0
MAX_KEPT = 100
MAX_ERROR_CHARS = 2000


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


@dataclass
class _Job:
    id: str
    type: str
    phases: list[str] | None
    started: float
    seq: int
    cancel: threading.Event = field(default_factory=threading.Event)
    state: str = "running"
    finished: float | None = None
    phase: str | None = None
    done: int = 0
    total: int = 0
    detail: str | None = None
    result: dict[str, Any] | None = None
    error: str | None = None
    error_code: str | None = None
    thread: threading.Thread | None = None


class JobContext:
    """What a running job sees: whether to stop, and where to report progress."""

    def __init__(self, job: _Job, lock: threading.Lock) -> None:
        self._job = job
        self._lock = lock

    @property
    def job_id(self) -> str:
        return self._job.id

    def cancelled(self) -> bool:
        return self._job.cancel.is_set()

    def report(self, phase: str | None, done: int, total: int, detail: str | None = None) -> None:
        with self._lock:
            self._job.phase, self._job.done, self._job.total = phase, done, total
            self._job.detail = detail


#: A job body: does the work (checking ``ctx.cancelled`` at safe points), returns its result.
JobBody = Callable[[JobContext], dict[str, Any]]


class JobManager:
    def __init__(
        self,
        *,
        server_instance_id: str | None = None,
        now: Callable[[], float] = time.time,
        retention_seconds: float = RETENTION_SECONDS,
        max_kept: int = MAX_KEPT,
    ) -> None:
        self.server_instance_id = server_instance_id
        self._now = now
        self._retention = retention_seconds
        self._max_kept = max_kept
        self._jobs: dict[str, _Job] = {}
        self._lock = threading.Lock()
        self._seq = itertools.count(1)

    def start(self, job_type: str, body: JobBody, phases: list[str] | None = None) -> str:
        """Start ``body`` on a new thread and return its job id; ``JOB_CONFLICT`` while another
        job runs."""
        with self._lock:
            self._prune()
            running = self._running()
            if running is not None:
                raise JobConflictError(
                    f"Job {running.id} ({running.type}) is still running; poll it with "
                    "gno_job_status and retry when it has finished",
                    details={"jobId": running.id, "type": running.type},
                )
            seq = next(self._seq)
            job_id = f"job-{seq}-{secrets.token_hex(4)}"
            job = _Job(job_id, job_type, phases, self._now(), seq)
            self._jobs[job_id] = job
            job.thread = threading.Thread(
                target=self._run, args=(job, body), name=f"gno-{job_id}", daemon=True
            )
            job.thread.start()
        return job_id

    def _run(self, job: _Job, body: JobBody) -> None:
        state, result, error, code = "completed", None, None, None
        try:
            result = body(JobContext(job, self._lock))
        except CancelledError as exc:
            state, error, code = "cancelled", exc.message, exc.code
        except GnoError as exc:
            state, error, code = "failed", exc.message, exc.code
        except Exception as exc:  # a job thread has no caller to raise to: record it
            state, error, code = "failed", f"{type(exc).__name__}: {exc}", "RUNTIME"
        with self._lock:
            job.state, job.result, job.finished = state, result, self._now()
            job.error = error[:MAX_ERROR_CHARS] if error else None
            job.error_code = code

    def _running(self) -> _Job | None:
        return next((j for j in self._jobs.values() if j.state == "running"), None)

    def _prune(self) -> None:
        now = self._now()
        done = [j for j in self._jobs.values() if j.finished is not None]
        for job in done:
            if job.finished is not None and now - job.finished > self._retention:
                del self._jobs[job.id]
        done = sorted(
            (j for j in self._jobs.values() if j.finished is not None),
            key=lambda j: (j.finished or 0.0, j.seq),
        )
        for job in done[: max(0, len(done) - self._max_kept)]:
            del self._jobs[job.id]

    def _status(self, job: _Job) -> JobStatus:
        progress = None
        if job.phase is not None or job.total:
            progress = JobProgress(
                phase=job.phase, done=job.done, total=job.total, detail=job.detail
            )
        return JobStatus(
            job_id=job.id,
            type=job.type,
            status=job.state,
            started_at=_iso(job.started),
            completed_at=_iso(job.finished) if job.finished is not None else None,
            phases=job.phases,
            progress=progress,
            result=job.result,
            typed_result=(
                {"kind": job.type, "value": job.result} if job.result is not None else None
            ),
            error=job.error,
            error_code=job.error_code,
            server_instance_id=self.server_instance_id,
        )

    def status(self, job_id: str) -> JobStatus:
        with self._lock:
            self._prune()
            job = self._jobs.get(job_id)
            if job is None:
                raise NotFoundError(
                    f"Job not found: {job_id[:128]} (jobs are kept for an hour and lost on "
                    "restart)",
                    details={"jobId": job_id[:128]},
                )
            return self._status(job)

    def listing(self, limit: int = 10) -> JobList:
        with self._lock:
            self._prune()
            running = self._running()
            recent = sorted(
                (j for j in self._jobs.values() if j is not running),
                key=lambda j: (j.started, j.seq),
                reverse=True,
            )[:limit]
            return JobList(
                active=self._status(running) if running else None,
                recent=[self._status(j) for j in recent],
            )

    def cancel(self, job_id: str) -> JobStatus:
        """Ask the job to stop at its next safe point; its status says when it has."""
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            return self.status(job_id)
        job.cancel.set()
        return self.status(job_id)

    def wait(self, job_id: str, timeout: float | None = None) -> JobStatus:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is not None and job.thread is not None:
            job.thread.join(timeout)
        return self.status(job_id)

    def shutdown(self, timeout: float = 5.0) -> None:
        """Cancel the running job and give it ``timeout`` seconds to reach a safe point."""
        with self._lock:
            running = self._running()
        if running is None:
            return
        running.cancel.set()
        if running.thread is not None:
            running.thread.join(timeout)
