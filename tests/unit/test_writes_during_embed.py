"""Writes never wait on embedding: an embedding pass takes the write lease only to read a batch
and to commit its vectors, so a capture, a collection change or a rename started during a long
embed finishes within its own work; vectors computed from a chunk text that a concurrent write
changed are discarded, not stored as valid for the new text."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_adapters.inmemory.embedder import HashEmbedder
from gno_core.config import ChunkingConfig, CollectionConfig
from gno_core.contracts.embedding import EmbedResult
from gno_core.contracts.memory_requests import RememberRequest
from gno_core.contracts.write_requests import CaptureRequest
from gno_core.domain import SourceFile, SyncBatch
from gno_core.errors import GnoError, LockedError
from gno_core.facade import Gno
from gno_core.facts import MemoryIdentity
from gno_core.indexing.embedding import passage_text
from gno_core.indexing.ingest import build_document
from gno_core.ports.embedder import Vector
from gno_core.ports.lease import LeaseHolder
from tests.semantic_support import make_env

BATCHES = 20
BATCH_SECONDS = 0.15


class SlowEmbedder(HashEmbedder):
    """Each batch takes ``BATCH_SECONDS``, as a real model's would on a busy machine."""

    def __init__(self) -> None:
        super().__init__()
        self.started = threading.Event()

    def embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        self.started.set()
        time.sleep(BATCH_SECONDS)
        return super().embed_batch(texts)


@pytest.fixture
def slow() -> Iterator[tuple[Gno, SlowEmbedder]]:
    import dataclasses

    embedder = SlowEmbedder()
    notes = {f"n{i:02}.md": f"# Note {i}\n\nbody words {i}\n" for i in range(BATCHES * 2)}
    made = dataclasses.replace(in_memory(notes), embedder=embedder)
    with build(made) as gno:
        gno.sync()
        yield gno, embedder


def _embed_meanwhile(gno: Gno, embedder: SlowEmbedder) -> tuple[threading.Thread, list[object]]:
    out: list[object] = []

    def run() -> None:
        try:
            out.append(gno.embed(batch_size=2))
        except Exception as exc:  # the assertion below names it
            out.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert embedder.started.wait(5)
    return thread, out


def test_a_capture_during_a_long_embed_finishes_at_once(slow: tuple[Gno, SlowEmbedder]) -> None:
    gno, embedder = slow
    thread, out = _embed_meanwhile(gno, embedder)
    took = []
    for i in range(3):
        started = time.monotonic()
        receipt = gno.capture(
            CaptureRequest(collection="notes", title=f"Captured {i}", content=f"fresh fact {i}"),
            lease_wait=2,
        )
        took.append(time.monotonic() - started)
        assert receipt.sync.status == "completed"
    assert thread.is_alive(), "the embed should still be running: the test proves nothing"
    assert max(took) < 1.0, took
    thread.join(30)
    result = out[0]
    assert isinstance(result, EmbedResult), result
    # The pass also embedded what was captured while it ran (a second sweep finds it).
    assert (result.errors, result.pending) == (0, 0)
    assert result.embedded == BATCHES * 2 + 3


def test_collection_changes_during_a_long_embed_finish_at_once(
    slow: tuple[Gno, SlowEmbedder],
) -> None:
    gno, embedder = slow
    thread, out = _embed_meanwhile(gno, embedder)
    started = time.monotonic()
    gno.add_collection(CollectionConfig(name="more", path="/more"))
    gno.rename_collection("more", "most")
    gno.remove_collection("most")
    assert time.monotonic() - started < 1.0
    assert thread.is_alive()
    thread.join(30)
    assert isinstance(out[0], EmbedResult), out[0]


def test_the_embed_still_holds_the_lease_for_each_commit(slow: tuple[Gno, SlowEmbedder]) -> None:
    """Between batches the lease is free; a writer holding it stops the embed's next commit,
    which waits for it (and says ``LOCKED`` after its own wait, never writes without it)."""
    gno, embedder = slow
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with gno.handle.writing(1):
            held.set()
            release.wait(10)

    threading.Thread(target=hold, daemon=True).start()
    assert held.wait(5)
    try:
        with pytest.raises(LockedError):
            gno.embed(batch_size=2, lease_wait=0.1)
    finally:
        release.set()
    assert not embedder.started.is_set()


def test_vectors_of_a_chunk_rewritten_meanwhile_are_discarded(tmp_path: Path) -> None:
    """A concurrent write that re-chunks a mirror (same content, new chunking) between the
    read of a batch and its commit: the vector computed from the old text is not stored as
    the new chunk's; the new text is embedded instead."""
    long = "# Long\n\n" + "\n\n".join(f"Paragraph {i} says {'word ' * 30}" for i in range(12))
    embedder = HashEmbedder()
    env = make_env(tmp_path, {"long.md": long}, embedder=embedder)
    env.gno.sync()
    index = env.gno.handle.index
    [before] = index.vectors.pending_chunks(embedder.fingerprint, 100)
    calls = []
    real = embedder.embed_batch

    def rechunk_then_embed(texts: Sequence[str]) -> list[Vector]:
        if not calls:
            calls.append(1)
            collection = env.gno.handle.collection("notes")
            data = (env.root / "notes" / "long.md").read_bytes()
            source = SourceFile("long.md", str(env.root / "notes" / "long.md"), len(data), 1)
            doc = build_document(
                collection, source, data, YamlFrontmatterParser(), ChunkingConfig(max_tokens=40)
            )
            assert doc.mirror_hash == before.mirror_hash and len(doc.chunks) > 1
            with env.gno.handle.writing(5):
                index.ledger.apply_batch(SyncBatch("notes", upserts=(doc,)))
        return real(texts)

    embedder.embed_batch = rechunk_then_embed  # type: ignore[method-assign]
    result = env.gno.embed(batch_size=100)
    assert result.pending == 0
    chunks = index.vectors.pending_chunks("some-other-space", 100)
    assert len(chunks) > 1
    stored = dict(index.vectors.chunk_vectors(before.mirror_hash, embedder.fingerprint))
    for chunk in chunks:
        [expected] = real([passage_text(embedder, chunk)])
        assert stored[chunk.seq] == pytest.approx(expected), chunk.seq


def _memory(embedder: SlowEmbedder) -> Gno:
    import dataclasses

    notes = {f"n{i:02}.md": f"# Note {i}\n\nbody words {i}\n" for i in range(BATCHES * 2)}
    made = dataclasses.replace(in_memory(notes), embedder=embedder)
    config = made.config.load()
    first = config.collections[0].model_copy(update={"memory_managed": True})
    made.config.save(config.model_copy(update={"collections": [first]}))
    gno = build(made)
    gno.sync()
    return gno


ME = MemoryIdentity(caller="cli:test", session="s-1")


def test_a_remember_during_a_long_embed_finishes_at_once() -> None:
    embedder = SlowEmbedder()
    with _memory(embedder) as gno:
        thread, out = _embed_meanwhile(gno, embedder)
        started = time.monotonic()
        result = gno.remember(
            RememberRequest(
                text="The standup is at 9:00", collection="notes", scopes=["team"], decision="add"
            ),
            ME,
            lease_wait=2,
        )
        took = time.monotonic() - started
        assert result.outcome == "added"
        assert thread.is_alive()
        assert took < 1.0
        thread.join(30)
        assert isinstance(out[0], EmbedResult), out[0]


def test_a_busy_lease_names_its_holder_to_remember() -> None:
    with _memory(SlowEmbedder()) as gno:
        held, release = threading.Event(), threading.Event()

        def hold() -> None:
            with gno.handle.writing(5, purpose="embed"):
                held.set()
                release.wait(10)

        threading.Thread(target=hold, daemon=True).start()
        assert held.wait(5)
        told: list[LeaseHolder | None] = []
        gno.handle.on_wait = told.append
        try:
            with pytest.raises(GnoError) as info:
                gno.remember(
                    RememberRequest(
                        text="The standup is at 9:00",
                        collection="notes",
                        scopes=["team"],
                        decision="add",
                    ),
                    ME,
                    lease_wait=0.2,
                )
        finally:
            release.set()
        assert info.value.code == "MEMORY_WRITE_LEASE_BUSY"
        assert f"pid {os.getpid()} (embed, since" in info.value.message
        assert info.value.details["holder"]["purpose"] == "embed"
        assert [h.purpose if h else None for h in told] == ["embed"]
