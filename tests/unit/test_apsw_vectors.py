"""The SQLite vector index beyond the port contract: the vec0 accelerator, its query plan, its
rebuild from the stored rows, and the exact fallbacks."""

from __future__ import annotations

from array import array
from pathlib import Path

import pytest

from gno_adapters.sqlite import vectors as sqlite_vectors
from gno_core.domain import SearchFilters, SyncBatch
from gno_core.ports.index import Index
from gno_core.ports.vectors import ChunkVector
from tests.contract.store_support import apsw_index, conn_of, make_doc, put

FP = "c" * 64
TABLE = sqlite_vectors.vec_table_name(FP)


def vec(*xs: float) -> array[float]:
    norm = sum(x * x for x in xs) ** 0.5
    return array("f", (x / norm for x in xs))


def fill(store: Index, n: int = 20) -> list[str]:
    docs = [make_doc(f"{i:02d}.md", f"text number {i}") for i in range(n)]
    put(store, *docs)
    store.vectors.put_vectors(
        FP, "m", [ChunkVector(d.mirror_hash, 0, vec(1, i / n)) for i, d in enumerate(docs)]
    )
    return [d.rel_path for d in docs]


def nearest_paths(store: Index, limit: int = 3, **filters: object) -> list[str]:
    hits = store.vectors.nearest(vec(1, 0), FP, SearchFilters(**filters), limit)  # type: ignore[arg-type]
    return [h.document.rel_path for h in hits]


def table_exists(store: Index) -> bool:
    row = conn_of(store).execute("SELECT 1 FROM sqlite_schema WHERE name = ?", (TABLE,)).fetchone()
    return row is not None


def test_knn_runs_on_the_vec0_index(tmp_path: Path) -> None:
    with apsw_index(str(tmp_path / "i.sqlite")) as store:
        fill(store)
        plan = [
            row[3]
            for row in conn_of(store).execute(
                f"EXPLAIN QUERY PLAN SELECT rowid, distance FROM {TABLE} "
                "WHERE embedding MATCH ? AND k = ?",
                (vec(1, 0).tobytes(), 10),
            )
        ]
    # sqlite-vec's index string starts with its plan kind: 3 is a k-nearest-neighbour query.
    assert plan == [f"SCAN {TABLE} VIRTUAL TABLE INDEX 0:3{{___}}___"]


@pytest.mark.parametrize("collections", [0, 2])
def test_pending_chunks_walk_the_chunk_index_and_look_documents_up_by_mirror(
    tmp_path: Path, collections: int
) -> None:
    with apsw_index(str(tmp_path / "i.sqlite")) as store:
        fill(store)
        names = ("a", "b")[:collections]
        lines = [
            row[3]
            for row in conn_of(store).execute(
                "EXPLAIN QUERY PLAN " + sqlite_vectors.pending_sql(collections),
                (*names, "", -1, FP, *names, 32),
            )
        ]
    assert lines[0] == "SEARCH c USING INDEX sqlite_autoindex_chunks_1 ((mirror_hash,seq)>(?,?))"
    documents = [line for line in lines if line.startswith(("SEARCH d", "SCAN d"))]
    assert documents and all("documents_mirror_hash (mirror_hash=?)" in d for d in documents), lines
    assert not any("ORDER BY" in line for line in lines[:1])


def test_unfiltered_search_uses_knn_and_filtered_search_scans_the_eligible_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    knn, exact = sqlite_vectors.ApswVectors._knn, sqlite_vectors.ApswVectors._exact
    monkeypatch.setattr(
        sqlite_vectors.ApswVectors,
        "_knn",
        lambda self, *a: calls.append("knn") or knn(self, *a),
    )
    monkeypatch.setattr(
        sqlite_vectors.ApswVectors,
        "_exact",
        lambda self, *a: calls.append("exact") or exact(self, *a),
    )
    with apsw_index(str(tmp_path / "i.sqlite")) as store:
        fill(store)
        assert nearest_paths(store) == ["00.md", "01.md", "02.md"]
        assert calls == ["knn"]
        calls.clear()
        assert nearest_paths(store, collections=("notes",)) == ["00.md", "01.md", "02.md"]
        assert calls == ["exact"]
        calls.clear()
        # Every neighbour vec0 returns is inactive: the search falls back to the exact scan.
        store.ledger.apply_batch(
            SyncBatch("notes", deactivate=tuple(f"{i:02d}.md" for i in range(19)))
        )
        assert nearest_paths(store, limit=1) == ["19.md"]


def test_the_filtered_scan_looks_vectors_up_per_eligible_document(tmp_path: Path) -> None:
    """The eligible documents drive the loop and find their vectors through the unique index;
    the planner, left alone, scanned the whole eligible set once per stored vector."""
    with apsw_index(str(tmp_path / "i.sqlite")) as store:
        fill(store)
        conn = conn_of(store)
        seen: list[tuple[str, tuple[object, ...]]] = []

        def trace(_cursor: object, sql: str, bindings: object) -> bool:
            if "vec_distance_cosine" in sql or "content_vectors" in sql:
                seen.append((sql, tuple(bindings or ())))  # type: ignore[arg-type]
            return True

        conn.exec_trace = trace
        try:
            assert nearest_paths(store, collections=("notes",)) == ["00.md", "01.md", "02.md"]
        finally:
            conn.exec_trace = None
        (sql, bindings), *_ = seen
        plan = [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, bindings)]
    scans = [line for line in plan if line.startswith(("SCAN", "SEARCH"))]
    assert "SCAN e" in scans, plan
    vectors = [line for line in scans if line.startswith("SEARCH v")]
    assert vectors and "mirror_hash=?" in vectors[0], plan
    assert scans.index("SCAN e") < scans.index(vectors[0]), plan


def test_the_accelerator_is_rebuilt_from_the_rows_when_missing(tmp_path: Path) -> None:
    with apsw_index(str(tmp_path / "i.sqlite")) as store:
        fill(store)
        conn_of(store).execute(f"DROP TABLE {TABLE}")
        assert nearest_paths(store) == ["00.md", "01.md", "02.md"]
        assert table_exists(store)
        count = conn_of(store).execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0]
        assert count == 20


def test_vectors_written_without_the_extension_reach_vec0_later(tmp_path: Path) -> None:
    path = str(tmp_path / "i.sqlite")
    with apsw_index(path) as store:
        fill(store, 5)
    with apsw_index(path, vector_extension=False) as store:
        assert store.vectors.vector_backend == "exact"
        more = make_doc("new.md", "a new note")
        put(store, more)
        store.vectors.put_vectors(FP, "m", [ChunkVector(more.mirror_hash, 0, vec(1, -0.01))])
        assert nearest_paths(store, limit=2) == ["00.md", "new.md"]
        synced = conn_of(store).execute("SELECT vec_synced FROM vector_spaces").fetchone()[0]
        assert synced == 0
    with apsw_index(path) as store:
        assert nearest_paths(store, limit=2) == ["00.md", "new.md"]
        count = conn_of(store).execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0]
        assert count == 6


def test_deleted_vectors_leave_vec0_through_tombstones(tmp_path: Path) -> None:
    with apsw_index(str(tmp_path / "i.sqlite")) as store:
        fill(store, 5)
        # Replacing a document's content cascades its vector away (no extension needed) ...
        put(store, make_doc("00.md", "different text now", source="v2"))
        tombstones = conn_of(store).execute("SELECT COUNT(*) FROM vector_tombstones").fetchone()[0]
        assert tombstones == 1
        assert nearest_paths(store, limit=1) == ["01.md"]
        # ... and the next vector write replays the tombstone on vec0.
        other = make_doc("x.md", "x")
        put(store, other)
        store.vectors.put_vectors(FP, "m", [ChunkVector(other.mirror_hash, 0, vec(0, 1))])
        assert conn_of(store).execute(f"SELECT COUNT(*) FROM {TABLE}").fetchone()[0] == 5
        assert conn_of(store).execute("SELECT COUNT(*) FROM vector_tombstones").fetchone()[0] == 0


def test_exact_search_without_the_extension_matches_vec0(tmp_path: Path) -> None:
    path = str(tmp_path / "i.sqlite")
    with apsw_index(path) as store:
        fill(store)
        fast = store.vectors.nearest(vec(1, 0.3), FP, SearchFilters(), 5)
    with apsw_index(path, vector_extension=False) as store:
        slow = store.vectors.nearest(vec(1, 0.3), FP, SearchFilters(), 5)
    assert [h.document.rel_path for h in fast] == [h.document.rel_path for h in slow]
    assert [h.distance for h in fast] == pytest.approx([h.distance for h in slow], abs=1e-6)
