"""Embedding runs through the facade (in-memory fakes): only missing or stale chunks are
embedded, batch by batch, failures are counted, and status reports the real backlog."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_core.errors import ModelUnavailableError
from gno_core.indexing.embedding import EmbedProgress, passage_text
from gno_core.ports.vectors import PendingChunk
from tests.schema_check import assert_valid
from tests.semantic_support import CORPUS, FlakyEmbedder, HashEmbedder, make_env


def test_embed_then_nothing_is_left(tmp_path: Path) -> None:
    env = make_env(tmp_path, CORPUS, embedder=HashEmbedder(), collections=("notes", "work"))
    env.gno.sync()
    status = env.gno.status()
    assert (status.total_chunks, status.embedding_backlog) == (5, 5)
    seen: list[EmbedProgress] = []
    result = env.gno.embed(batch_size=2, progress=seen.append)
    assert (result.embedded, result.errors, result.pending) == (5, 0, 0)
    assert result.search_available and result.dimensions == 64
    assert [p.done for p in seen] == [2, 4, 5] and seen[-1].total == 5
    assert_valid("embed-result", result.wire())
    again = env.gno.embed()
    assert (again.embedded, again.pending) == (0, 0)
    status = env.gno.status()
    assert status.embedding_backlog == 0
    assert [c.embedded_count for c in status.collections] == [4, 1]
    assert status.capabilities.vector and status.capabilities.hybrid
    assert env.gno.peek().backlog is not None and env.gno.peek().backlog.pending == 0


def test_only_new_or_changed_chunks_are_embedded(tmp_path: Path) -> None:
    embedder = HashEmbedder()
    env = make_env(tmp_path, CORPUS, embedder=embedder, collections=("notes", "work"))
    env.gno.sync()
    env.gno.embed()
    env.write("cats.md", "# Cats\n\nCats sleep most of the day.\n")
    env.write("new.md", "# New\n\nA brand new note.\n")
    env.gno.sync()
    assert env.gno.status().embedding_backlog == 2
    calls = embedder.calls
    assert env.gno.embed().embedded == 2
    assert embedder.calls == calls + 1


def test_a_new_model_finds_every_chunk_pending_and_never_mixes_spaces(tmp_path: Path) -> None:
    env = make_env(tmp_path, CORPUS, embedder=HashEmbedder(), collections=("notes", "work"))
    env.gno.sync()
    env.gno.embed()
    other = make_env(
        tmp_path,
        {},
        embedder=HashEmbedder(32, model_id="other/model"),
        collections=("notes", "work"),
    )
    other.gno.handle.provider = env.stores  # the same index, another embedder
    assert other.gno.status().embedding_backlog == 5
    assert other.gno.embed(["notes"]).embedded == 4
    assert env.gno.status().embedding_backlog == 0


def test_force_re_embeds_and_collections_scope_the_run(tmp_path: Path) -> None:
    env = make_env(tmp_path, CORPUS, embedder=HashEmbedder(), collections=("notes", "work"))
    env.gno.sync()
    assert env.gno.embed(["work"]).embedded == 1
    assert env.gno.status().embedding_backlog == 4
    dry = env.gno.embed(dry_run=True)
    assert (dry.embedded, dry.pending, dry.dry_run) == (0, 4, True)
    env.gno.embed()
    forced = env.gno.embed(["notes"], force=True)
    assert (forced.embedded, forced.forced, forced.collections) == (4, True, ["notes"])


def test_failed_batches_are_counted_and_stay_pending(tmp_path: Path) -> None:
    files = {**CORPUS, "bad.md": "# Bad\n\nPOISON in this note.\n"}
    env = make_env(tmp_path, files, embedder=FlakyEmbedder(), collections=("notes", "work"))
    env.gno.sync()
    result = env.gno.embed(batch_size=1)
    assert (result.embedded, result.errors, result.pending) == (5, 1, 1)
    assert result.failures[0].code == "RUNTIME" and result.failures[0].chunks == 1
    assert_valid("embed-result", result.wire())


def test_without_a_model_embed_fails_and_index_skips_it(tmp_path: Path) -> None:
    env = make_env(tmp_path, CORPUS, collections=("notes", "work"))
    with pytest.raises(ModelUnavailableError):
        env.gno.embed()
    result = env.gno.index()
    assert result.embed_skipped and result.embed_result is None
    assert result.sync_result.total_added == 5
    assert_valid("index-result", result.wire())
    assert env.gno.status().embedding_backlog == 5


def test_index_syncs_then_embeds(tmp_path: Path) -> None:
    env = make_env(tmp_path, CORPUS, embedder=HashEmbedder(), collections=("notes", "work"))
    result = env.gno.index()
    assert not result.embed_skipped and result.embed_result is not None
    assert result.embed_result.embedded == 5
    assert_valid("index-result", result.wire())
    assert env.gno.index(embed=False).embed_skip_reason == "--no-embed"


def test_passage_text_skips_frontmatter_and_a_repeated_title() -> None:
    embedder = HashEmbedder()
    head = PendingChunk("m", 0, "---\ntags: [a]\n---\n# Cats\n\nbody", 1, "Cats")
    assert passage_text(embedder, head) == "# Cats\n\nbody"
    later = PendingChunk("m", 1, "more body", 9, "Cats")
    assert passage_text(embedder, later) == "Cats\nmore body"
    untitled = PendingChunk("m", 2, "text", 12, None)
    assert passage_text(embedder, untitled) == "text"
