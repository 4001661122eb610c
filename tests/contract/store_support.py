"""Builders and the adapter fixture shared by the index port suites (documents, ledger, stats,
lexical, vectors): every suite runs against the in-memory and the SQLite ``Index``."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.inmemory.index import in_memory_index
from gno_adapters.sqlite import open_apsw_index
from gno_core.domain import Chunk, DocumentMeta, IndexedDocument, SearchFilters, SyncBatch
from gno_core.ports.index import Index
from gno_core.retrieval.query import parse_query

ADAPTERS = ["memory", "apsw"]
Store = Index


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
        store.ledger.apply_batch(
            SyncBatch(coll, upserts=tuple(d for d in docs if d.collection == coll))
        )


def paths(store: Store, query: str, limit: int = 10, **filters: Any) -> list[str]:
    """``collection/rel_path`` of the hits, best first."""
    hits = store.lexical.search(parse_query(query), SearchFilters(**filters), limit)
    return [f"{h.document.collection}/{h.document.rel_path}" for h in hits]


@pytest.fixture
def clock() -> FixedClock:
    return FixedClock()


@pytest.fixture(params=ADAPTERS)
def store(request: pytest.FixtureRequest, tmp_path: Path, clock: FixedClock) -> Iterator[Store]:
    if request.param == "memory":
        with in_memory_index(clock) as mem:
            yield mem
    else:
        with open_apsw_index(str(tmp_path / "index.sqlite"), clock) as db:
            yield db


def apsw_index(path: str, clock: FixedClock | None = None, **options: Any) -> Index:
    """The SQLite adapter's ``Index`` at ``path`` (a fixed clock unless one is given)."""
    return open_apsw_index(path, clock or FixedClock(), **options)


def conn_of(index: Index) -> Any:
    """The APSW connection the SQLite ports share, for tests of query plans and crash safety."""
    return index.documents._db.conn  # type: ignore[attr-defined]
