"""The job manager: one job at a time, progress, cancellation at the next safe point, and the
1 h / 100 retention."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from gno_core.errors import CancelledError, JobConflictError, NotFoundError
from gno_core.jobs import JobContext, JobManager


def test_one_job_at_a_time_and_its_result() -> None:
    jobs = JobManager()
    release, reported = threading.Event(), threading.Event()

    def body(ctx: JobContext) -> dict[str, Any]:
        ctx.report("sync", 1, 2, "a.md")
        reported.set()
        release.wait(5)
        return {"ok": True}

    first = jobs.start("sync", body, ["sync"])
    with pytest.raises(JobConflictError):
        jobs.start("embed", body)
    assert reported.wait(5)
    running = jobs.status(first)
    assert running.status == "running" and running.progress is not None
    assert (running.progress.phase, running.progress.done, running.progress.total) == (
        "sync",
        1,
        2,
    )
    assert jobs.listing().active is not None
    release.set()
    done = jobs.wait(first, 5)
    assert done.status == "completed" and done.result == {"ok": True}
    assert done.typed_result == {"kind": "sync", "value": {"ok": True}}
    assert done.completed_at is not None
    second = jobs.start("embed", lambda ctx: {})
    assert jobs.wait(second, 5).status == "completed"
    assert [j.job_id for j in jobs.listing().recent] == [second, first]


def test_cancel_stops_at_the_next_check() -> None:
    jobs = JobManager()
    steps: list[int] = []

    def body(ctx: JobContext) -> dict[str, Any]:
        for step in range(1000):
            if ctx.cancelled():
                raise CancelledError(f"stopped after {step}")
            steps.append(step)
            time.sleep(0.01)
        return {}

    job = jobs.start("index", body)
    time.sleep(0.05)
    jobs.cancel(job)
    status = jobs.wait(job, 5)
    assert status.status == "cancelled" and status.error_code == "CANCELLED"
    assert len(steps) < 1000


def test_failures_are_recorded_with_their_code() -> None:
    jobs = JobManager()

    def boom(ctx: JobContext) -> dict[str, Any]:
        raise NotFoundError("Collection not found: x")

    status = jobs.wait(jobs.start("sync", boom), 5)
    assert (status.status, status.error_code) == ("failed", "NOT_FOUND")
    with pytest.raises(NotFoundError):
        jobs.status("job-unknown")


def test_retention_by_age_and_count() -> None:
    clock = [1000.0]
    jobs = JobManager(now=lambda: clock[0], retention_seconds=3600, max_kept=3)
    ids = [jobs.wait(jobs.start("sync", lambda ctx: {}), 5).job_id for _ in range(5)]
    assert [j.job_id for j in jobs.listing(10).recent] == ids[:1:-1]
    clock[0] += 3601
    assert jobs.listing(10).recent == []
    with pytest.raises(NotFoundError):
        jobs.status(ids[-1])


def test_shutdown_cancels_the_running_job() -> None:
    jobs = JobManager()

    def body(ctx: JobContext) -> dict[str, Any]:
        while not ctx.cancelled():
            time.sleep(0.005)
        raise CancelledError("shutdown")

    job = jobs.start("embed", body)
    jobs.shutdown(timeout=5)
    assert jobs.status(job).status == "cancelled"
