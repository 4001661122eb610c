"""``status.chunking`` (issue 23): the configured policy, the one the cached layouts were made
with, and what is pending; reading status never chunks again, the next sync does."""

from __future__ import annotations

from dataclasses import replace

from gno_adapters.bootstrap import build, in_memory
from gno_core.config import ChunkingConfig, CollectionConfig, GnoConfig
from gno_core.domain import SyncBatch
from tests.contract.store_support import make_doc
from tests.schema_check import assert_valid

LONG = "# Long\n\n" + "\n\n".join(f"Paragraph {i} has several plain words." for i in range(60))
NOTES = {"a.md": "# A\n\nalpha\n", "b.md": "# B\n\nalpha\n", "long.md": LONG + "\n"}
DEFAULT = {"maxTokens": 800, "overlapPercent": 15.0}
SMALL = {"maxTokens": 50, "overlapPercent": 10.0}


def expected(
    configured: object, applied: object, state: str, documents: int = 0, mirrors: int = 0
) -> dict[str, object]:
    """The ``status.chunking`` wire object these tests expect."""
    return {
        "configured": configured,
        "applied": applied,
        "state": state,
        "pendingDocuments": documents,
        "pendingMirrors": mirrors,
    }


def configure(adapters: object, chunking: ChunkingConfig) -> None:
    adapters.config.save(  # type: ignore[attr-defined]
        GnoConfig(collections=[CollectionConfig(name="notes", path="/notes")], chunking=chunking)
    )


def chunking_of(gno: object) -> dict[str, object]:
    status = gno.status()  # type: ignore[attr-defined]
    assert_valid("status", status.wire())
    wire: dict[str, object] = status.wire()["chunking"]
    return wire


def test_empty_then_current_then_pending_after_a_policy_change_until_the_next_sync() -> None:
    adapters = in_memory(NOTES)
    with build(adapters) as gno:
        assert chunking_of(gno) == expected(DEFAULT, None, "empty")
        gno.sync()
        before = gno.status().total_chunks
        assert chunking_of(gno) == expected(DEFAULT, DEFAULT, "current")
    configure(adapters, ChunkingConfig(max_tokens=50, overlap_percent=10))
    with build(adapters) as gno:
        pending = expected(SMALL, DEFAULT, "pending", 3, 3)
        assert chunking_of(gno) == pending
        assert chunking_of(gno) == pending  # reading status chunks nothing again
        assert gno.status().total_chunks == before
        result = gno.sync()  # the files did not change; their policy did
        assert result.total_updated == 3
        assert gno.status().total_chunks > before
        assert chunking_of(gno) == expected(SMALL, SMALL, "current")
        assert gno.sync().total_updated == 0


def test_unrecorded_layouts_are_legacy_default_and_a_mix_has_no_applied_policy() -> None:
    adapters = in_memory({})
    configure(adapters, ChunkingConfig())
    ledger = adapters.provider.open().ledger
    ledger.apply_batch(SyncBatch("notes", upserts=(make_doc("old.md", "old"),)))
    with build(adapters) as gno:
        assert chunking_of(gno) == expected(DEFAULT, DEFAULT, "legacy-default")
    newer = replace(make_doc("new.md", "new"), chunking="50:10.0")
    ledger.apply_batch(SyncBatch("notes", upserts=(newer,)))
    with build(adapters) as gno:
        assert chunking_of(gno) == expected(DEFAULT, None, "mixed", 1, 1)


def test_sync_reports_the_mirrors_a_policy_change_chunked_again() -> None:
    """The spec's sync results carry ``rechunkedMirrors`` when a policy change updates cached
    layouts: the files chunked again only for the policy, not those whose text changed."""
    adapters = in_memory(NOTES)
    with build(adapters) as gno:
        first = gno.sync().wire()
        assert "rechunkedMirrors" not in first
        assert "rechunkedMirrors" not in first["collections"][0]
    configure(adapters, ChunkingConfig(max_tokens=50, overlap_percent=10))
    adapters.tree.write("/notes/a.md", "# A\n\nalpha changed\n")  # type: ignore[attr-defined]
    with build(adapters) as gno:
        result = gno.sync().wire()
        assert_valid("sync-result", result)
        assert result["totalUpdated"] == 3
        assert result["rechunkedMirrors"] == 2  # b.md and long.md; a.md's text changed
        assert result["collections"][0]["rechunkedMirrors"] == 2
        assert "rechunkedMirrors" not in gno.sync().wire()
