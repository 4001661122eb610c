"""Builders and the adapter fixture shared by the DocumentStore and LexicalIndex suites."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.inmemory.store import InMemoryStore
from gno_adapters.sqlite import ApswStore
from gno_core.domain import Chunk, DocumentMeta, IndexedDocument, SearchFilters, SyncBatch
from gno_core.retrieval.query import parse_query

ADAPTERS = ["memory", "apsw"]
Store = InMemoryStore | ApswStore


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def make_doc(
    rel_path: str,
    body: str,
    *,
    collection: str = "notes",
    title: str | None = None,
    mtime_ns: int = 1_700_000_000_000_000_000,
    source: str | None = None,
    **meta: Any,
) -> IndexedDocument:
    """A document whose source hash derives from ``source`` (default: the body)."""
    markdown = body if body.endswith("\n") else body + "\n"
    lines = markdown.count("\n")
    return IndexedDocument(
        collection=collection,
        rel_path=rel_path,
        abs_path=f"/data/{collection}/{rel_path}",
        source_hash=sha(source if source is not None else body),
        source_mime="text/markdown",
        source_ext=".md",
        source_size=len(markdown.encode()),
        source_mtime_ns=mtime_ns,
        mirror_hash=sha(markdown),
        markdown=markdown,
        chunks=(Chunk(0, 0, markdown, 1, max(lines, 1), "en", len(markdown) // 4),),
        meta=DocumentMeta(title=title, **meta),
        converter_id="native/markdown",
        converter_version="1.0.0",
    )


def put(store: Store, *docs: IndexedDocument) -> None:
    """Upsert documents, one batch per collection."""
    for coll in dict.fromkeys(d.collection for d in docs):
        store.apply_batch(SyncBatch(coll, upserts=tuple(d for d in docs if d.collection == coll)))


def paths(store: Store, query: str, limit: int = 10, **filters: Any) -> list[str]:
    """``collection/rel_path`` of the hits, best first."""
    hits = store.search(parse_query(query), SearchFilters(**filters), limit)
    return [f"{h.document.collection}/{h.document.rel_path}" for h in hits]


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture(params=ADAPTERS)
def store(request: pytest.FixtureRequest, tmp_path: Path, clock: FixedClock) -> Iterator[Store]:
    if request.param == "memory":
        with InMemoryStore(clock=clock) as mem:
            yield mem
    else:
        with ApswStore.open(str(tmp_path / "index.sqlite"), clock=clock) as db:
            yield db
