"""Collection, folder, sync and job tools on the wire over the real facade: dangerous roots are
refused, a new collection is indexed by a job, ``gno_index`` reports its phases and progress
and its cancellation stops it within one batch, removal keeps the indexed data."""

from __future__ import annotations

import dataclasses
import time
from typing import Any

import pytest

from gno_adapters.bootstrap import Adapters, in_memory
from gno_adapters.inmemory.embedder import HashEmbedder
from gno_adapters.inmemory.notes import HOME
from gno_adapters.inmemory.tree import InMemorySourceTree
from tests.wire.real_facade import Peer, factory
from tests.wire.test_mcp_writes import call, error_code


class SlowEmbedder(HashEmbedder):
    """Each batch takes a while, so a test can cancel a job between two of them."""

    def __init__(self) -> None:
        super().__init__()
        self.batches = 0

    def embed_batch(self, texts: list[str]) -> list[Any]:
        self.batches += 1
        time.sleep(0.05)
        return super().embed_batch(texts)


def made_with(notes: int = 3, embedder: HashEmbedder | None = None) -> Adapters:
    made = in_memory({f"n{i}.md": f"# Note {i}\n\nbody words {i}\n" for i in range(notes)})
    if embedder is not None:
        made = dataclasses.replace(made, embedder=embedder)
    tree = made.tree
    assert isinstance(tree, InMemorySourceTree)
    tree.mkdir(HOME + "/.ssh")
    tree.write("/more/first.md", "# First\n\nPlatypus eggs are leathery.\n")
    return made


def peer_over(made: Adapters) -> Peer:
    peer = Peer(enable_write=True, facade=factory(made))
    peer.initialize()
    return peer


def wait_job(peer: Peer, job_id: str) -> dict[str, Any]:
    peer.handlers.jobs.manager.wait(job_id, 10)
    status: dict[str, Any] = call(peer, "gno_job_status", jobId=job_id)["structuredContent"]
    return status


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/", "INVALID_PATH"),
        ("~", "INVALID_PATH"),
        ("~/.ssh", "INVALID_PATH"),
        ("/missing", "PATH_NOT_FOUND"),
        ("relative/dir", "VALIDATION"),
    ],
)
def test_dangerous_or_missing_roots_are_refused(path: str, code: str) -> None:
    peer = peer_over(made_with())
    assert error_code(call(peer, "gno_add_collection", path=path)) == code
    assert call(peer, "gno_list_jobs")["structuredContent"] == {"recent": []}


def test_add_collection_indexes_it_in_a_job_then_remove_keeps_data() -> None:
    peer = peer_over(made_with())
    added = call(peer, "gno_add_collection", path="/more")["structuredContent"]
    assert (added["collection"], added["status"]) == ("more", "started")
    status = wait_job(peer, added["jobId"])
    assert (status["type"], status["status"]) == ("add", "completed")
    hits = call(peer, "gno_search", query="platypus")["structuredContent"]["results"]
    assert [h["uri"] for h in hits] == ["gno://more/first.md"]
    assert error_code(call(peer, "gno_add_collection", path="/more")) == "DUPLICATE"
    removed = call(peer, "gno_remove_collection", collection="more")["structuredContent"]
    assert removed == {
        "collection": "more",
        "path": "/more",
        "removed": True,
        "documentsRetained": True,
    }
    assert call(peer, "gno_search", query="platypus")["structuredContent"]["results"] == []


def test_create_folder_then_capture_into_it() -> None:
    peer = peer_over(made_with())
    made = call(peer, "gno_create_folder", collection="notes", name="projects", parentPath="work")
    assert made["structuredContent"]["relPath"] == "work/projects"
    assert made["structuredContent"]["created"] is True
    assert error_code(call(peer, "gno_create_folder", collection="notes", name="../x")) == (
        "INVALID_PATH"
    )
    captured = call(
        peer, "gno_capture", collection="notes", content="inside", folderPath="work/projects"
    )
    assert captured["structuredContent"]["relPath"].startswith("work/projects/capture-")


def test_sync_answers_when_done() -> None:
    made = made_with()
    peer = peer_over(made)
    tree = made.tree
    assert isinstance(tree, InMemorySourceTree)
    assert call(peer, "gno_sync")["structuredContent"]["result"]["totalAdded"] == 3
    tree.write("/notes/late.md", "# Late\n\nwombat\n")
    synced = call(peer, "gno_sync", collection="notes")["structuredContent"]
    assert synced["status"] == "completed" and synced["result"]["totalAdded"] == 1
    assert call(peer, "gno_search", query="wombat")["structuredContent"]["results"]
    assert error_code(call(peer, "gno_sync", gitPull=True)) == "VALIDATION"


def test_index_job_progress_and_cancellation_within_one_batch() -> None:
    embedder = SlowEmbedder()
    peer = peer_over(made_with(notes=300, embedder=embedder))
    started = call(peer, "gno_index")["structuredContent"]
    assert started["phases"] == ["sync", "embed"] and started["collections"] == ["notes"]
    assert error_code(call(peer, "gno_embed")) == "JOB_CONFLICT"
    job_id = started["jobId"]
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        status = call(peer, "gno_job_status", jobId=job_id)["structuredContent"]
        if status.get("progress", {}).get("phase") == "embed":
            break
        time.sleep(0.01)
    assert status["status"] == "running" and status["progress"]["phase"] == "embed"
    batches_at_cancel = embedder.batches
    peer.handlers.jobs.manager.cancel(job_id)
    final = wait_job(peer, job_id)
    assert (final["status"], final["errorCode"]) == ("cancelled", "CANCELLED")
    assert embedder.batches <= batches_at_cancel + 1, "stopped within one batch"
    backlog = call(peer, "gno_status")["structuredContent"]["embeddingBacklog"]
    assert backlog > 0
    listing = call(peer, "gno_list_jobs")["structuredContent"]
    assert "active" not in listing and listing["recent"][0]["jobId"] == job_id
    again = call(peer, "gno_embed")["structuredContent"]
    assert wait_job(peer, again["jobId"])["status"] == "completed"
    assert call(peer, "gno_status")["structuredContent"]["embeddingBacklog"] == 0


def test_clear_embeddings_and_unknown_jobs() -> None:
    peer = peer_over(made_with())
    job = call(peer, "gno_index")["structuredContent"]["jobId"]
    assert wait_job(peer, job)["status"] == "completed"
    stale = call(peer, "gno_clear_collection_embeddings", collection="notes")
    assert stale["structuredContent"]["deleted"] == 0
    cleared = call(peer, "gno_clear_collection_embeddings", collection="notes", mode="all")
    assert cleared["structuredContent"]["deleted"] > 0
    assert call(peer, "gno_status")["structuredContent"]["embeddingBacklog"] > 0
    assert error_code(call(peer, "gno_job_status", jobId="job-404")) == "NOT_FOUND"


def test_a_cancelled_sync_call_stops_before_the_next_file() -> None:
    from gno_adapters.mcp.context import Connection, RequestContext
    from gno_adapters.mcp.facade_holder import FacadeHolder
    from gno_adapters.mcp.tools.common import ToolCall
    from gno_adapters.mcp.tools.writes import SYNC
    from gno_core.errors import CancelledError

    made = made_with(notes=50)
    connection = Connection.pinned_by_first_request("test")
    ctx = RequestContext(request_id=7, method="tools/call", params={}, connection=connection)
    ctx.cancelled.set()
    with pytest.raises(CancelledError) as stopped:
        SYNC.handler(ToolCall(ctx, {}, FacadeHolder(factory(made))))
    assert stopped.value.details["done"] == 0
    peer = peer_over(made)
    assert call(peer, "gno_sync")["structuredContent"]["result"]["totalAdded"] == 50


def test_job_tools_are_read_tools_served_without_the_write_gate() -> None:
    """The spec counts gno_job_status and gno_list_jobs among the read tools (issue 23): they
    only read job state, so a server without --enable-write lists and answers them."""
    peer = Peer(facade=factory(made_with()))
    peer.initialize()
    names = [t["name"] for t in peer.request("tools/list")["result"]["tools"]]
    assert names[names.index("gno_job_status") :][:2] == ["gno_job_status", "gno_list_jobs"]
    assert "gno_index" not in names
    assert call(peer, "gno_list_jobs")["structuredContent"] == {"recent": []}
    assert error_code(call(peer, "gno_job_status", jobId="job-404")) == "NOT_FOUND"


def test_a_locked_tool_names_the_holder(monkeypatch: pytest.MonkeyPatch) -> None:
    """``LOCKED`` over MCP says who holds the lease (pid, what, since), not only that someone
    does."""
    import os
    import threading

    from gno_adapters.mcp.tools import writes

    monkeypatch.setattr(writes, "TOOL_WRITE_WAIT_SECONDS", 0.2)
    made = made_with()
    peer = peer_over(made)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with made.lease.hold(5):
            held.set()
            release.wait(10)

    threading.Thread(target=hold, daemon=True).start()
    assert held.wait(5)
    try:
        result = call(peer, "gno_sync")
    finally:
        release.set()
    assert error_code(result) == "LOCKED"
    text = result["content"][0]["text"]
    assert f"pid {os.getpid()}" in text and "since" in text, text


def test_a_capture_receipt_names_the_server_instance_its_jobs_report() -> None:
    """capture-receipt@1.0's ``serverInstanceId`` (issue 23: spec shapes): the same id the
    server's job statuses carry, the same on every capture of one server."""
    peer = peer_over(made_with())
    first = call(peer, "gno_capture", collection="notes", content="# One\n\nfirst\n")
    second = call(peer, "gno_capture", collection="notes", content="# Two\n\nsecond\n")
    job = call(peer, "gno_embed")["structuredContent"]["jobId"]
    status = wait_job(peer, job)
    instance = first["structuredContent"]["serverInstanceId"]
    assert instance == second["structuredContent"]["serverInstanceId"]
    assert instance == status["serverInstanceId"]
    other = peer_over(made_with())
    third = call(other, "gno_capture", collection="notes", content="# Three\n\nthird\n")
    assert third["structuredContent"]["serverInstanceId"] != instance
