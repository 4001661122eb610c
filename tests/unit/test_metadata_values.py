"""The SQLite value table of typed metadata (``metadata_values``): its rows follow every write to
``documents`` in the same transaction (insert, change, invalid, deletion, deactivation and
reactivation), migrations 0014-0015 build them from the maps an existing index stores (no
re-sync), and keyword search answers a typed filter from it inside the full-text scan, whatever the
filter's selectivity, without the query that scores and joins every match."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gno_adapters.sqlite import lexical
from gno_adapters.sqlite.migrations import MIGRATIONS, migrate
from gno_core.contracts.metadata import MetadataPredicate
from gno_core.domain import IndexedDocument, SearchFilters, SourceState, SyncBatch
from gno_core.metadata.extract import INVALID, PENDING, VALID, DocumentMetadata
from gno_core.ports.index import Index
from gno_core.retrieval.query import parse_query
from tests.contract.store_support import apsw_index, conn_of, make_doc, put

GOLD = MetadataPredicate.model_validate({"op": "eq", "key": "tier", "value": "gold"})
_KINDS = {"string": "s", "number": "n", "boolean": "b"}


def doc(rel_path: str, metadata: DocumentMetadata, body: str = "kettle notes") -> IndexedDocument:
    return replace(make_doc(rel_path, body), metadata=metadata)


def valid(**values: Any) -> DocumentMetadata:
    return DocumentMetadata(
        VALID, {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
    )


def expected_rows(docs: dict[str, DocumentMetadata]) -> set[tuple[str, str, str, object]]:
    """The rows the table must hold, computed from the maps in Python (rel_path for doc_id)."""
    from gno_core.metadata.extract import scalar_kind

    rows: set[tuple[str, str, str, object]] = set()
    for path, meta in docs.items():
        if meta.state != VALID:
            continue
        for key, value in meta.values.items():
            if isinstance(value, tuple):
                if not value:
                    rows.add((path, key, "A", 0))
                for member in value:
                    kind = _KINDS[str(scalar_kind(member))].upper()
                    rows.add((path, key, kind, int(member) if isinstance(member, bool) else member))
            else:
                kind = _KINDS[str(scalar_kind(value))]
                rows.add((path, key, kind, int(value) if isinstance(value, bool) else value))
    return rows


def stored_rows(index: Index) -> set[tuple[str, str, str, object]]:
    return set(
        conn_of(index).execute(
            "SELECT d.rel_path, v.key, v.kind, v.atom FROM metadata_values v "
            "LEFT JOIN documents d ON d.id = v.doc_id"
        )
    )


def gold(index: Index, limit: int = 10) -> list[str]:
    hits = index.lexical.search(parse_query("kettle"), SearchFilters(metadata=GOLD), limit)
    return [h.document.rel_path for h in hits]


MAPS = {
    "gold.md": valid(tier="gold", score=0.9, n=1, flag=True, owners=["ana", "li"], none=[]),
    "silver.md": valid(tier="silver", flags=[True, False], nums=[1, 2.5]),
    "empty.md": valid(),
    "bad.md": DocumentMetadata(INVALID, {}, "null value"),
    "old.md": DocumentMetadata(PENDING),
}


def test_the_rows_follow_every_write_to_documents(tmp_path: Path) -> None:
    with apsw_index(str(tmp_path / "i.sqlite")) as index:
        maps = dict(MAPS)
        put(index, *(doc(p, m) for p, m in maps.items()))
        assert stored_rows(index) == expected_rows(maps)
        assert gold(index) == ["gold.md"]
        # a changed map replaces the rows; invalid and pending drop them; valid again adds them
        # (as does an update written by other SQL than the ledger's)
        maps |= {"gold.md": valid(tier="silver"), "silver.md": valid(tier="gold")}
        maps |= {"empty.md": DocumentMetadata(INVALID, {}, "x"), "old.md": valid(tier="gold")}
        put(index, *(doc(p, maps[p]) for p in ("gold.md", "silver.md", "empty.md", "old.md")))
        assert stored_rows(index) == expected_rows(maps)
        assert sorted(gold(index)) == ["old.md", "silver.md"]
        conn_of(index).execute(
            "UPDATE documents SET metadata = ? WHERE rel_path = 'empty.md'", ('{"tier":"x"}',)
        )
        conn_of(index).execute(
            "UPDATE documents SET metadata_state = 'valid' WHERE rel_path = 'empty.md'"
        )
        maps["empty.md"] = valid(tier="x")
        assert stored_rows(index) == expected_rows(maps)
        # deactivated documents keep their rows (not searched: no full-text row), and a
        # reactivated one is found again without being rewritten
        index.ledger.apply_batch(SyncBatch("notes", deactivate=("silver.md",)))
        assert stored_rows(index) == expected_rows(maps)
        assert gold(index) == ["old.md"]
        silver = doc("silver.md", maps["silver.md"])
        state = SourceState("silver.md", silver.source_hash, 1, 2, True, silver.ingest_version)
        index.ledger.apply_batch(SyncBatch("notes", touched=(state,)))
        assert sorted(gold(index)) == ["old.md", "silver.md"]
        # a document deleted from the table takes its rows with it (renaming a collection onto
        # a name whose documents are all inactive deletes them)
        put(index, replace(doc("x.md", valid(tier="gold")), collection="other"))
        index.ledger.apply_batch(SyncBatch("other", deactivate=("x.md",)))
        index.ledger.rename_collection("notes", "other")
        assert stored_rows(index) == expected_rows(maps)


def test_a_failed_batch_leaves_no_rows(tmp_path: Path) -> None:
    with apsw_index(str(tmp_path / "i.sqlite")) as index:
        put(index, doc("a.md", valid(tier="silver")))
        before = stored_rows(index)
        broken = replace(doc("b.md", valid(tier="gold")), collection="notes", chunks=None)
        with pytest.raises(Exception):  # noqa: B017 - any failure mid-batch
            put(index, doc("a.md", valid(tier="gold")), broken)  # type: ignore[arg-type]
        assert stored_rows(index) == before
        assert gold(index) == []


def test_the_migrations_build_the_rows_of_an_existing_index(tmp_path: Path) -> None:
    first = next(m.version for m in MIGRATIONS if m.name.endswith("_metadata_values"))
    sparse = next(m.version for m in MIGRATIONS if m.name.endswith("_metadata_values_sparse"))
    with apsw_index(str(tmp_path / "i.sqlite")) as index:
        put(index, *(doc(p, m) for p, m in MAPS.items()))
        conn = conn_of(index)
        # back to the index as the version before left it: no table, no triggers
        conn.execute(
            "DROP TRIGGER documents_metadata_update; DROP TABLE metadata_values;"
            "DELETE FROM schema_migrations WHERE version >= ?;"
            "UPDATE schema_meta SET value = ? WHERE key = 'schema_version'",
            (first, str(first - 1)),
        )
        # the first layout (as migration 14 applied it): a marker on each valid document, kept
        # by triggers on ``documents``
        assert migrate(conn, MIGRATIONS[:first]) == first
        markers = {r for r in stored_rows(index) if r[1] == ""}
        assert markers == {(p, "", "*", 0) for p, m in MAPS.items() if m.state == VALID}
        assert migrate(conn, MIGRATIONS[:sparse]) == sparse
        assert _document_triggers(index) == ["documents_metadata_update"]
        # the rows come from the stored maps, and the search reads them (no re-sync)
        assert stored_rows(index) == expected_rows(MAPS)
        assert gold(index) == ["gold.md"]
        not_gold = MetadataPredicate.model_validate({"op": "not", "predicate": GOLD.model_dump()})
        hits = index.lexical.search(parse_query("kettle"), SearchFilters(metadata=not_gold), 10)
        assert sorted(h.document.rel_path for h in hits) == ["empty.md", "silver.md"]
        # and the triggers keep them from then on
        put(index, doc("gold.md", valid(tier="bronze")), doc("bad.md", valid()))
        assert stored_rows(index) == expected_rows(
            MAPS | {"gold.md": valid(tier="bronze"), "bad.md": valid()}
        )
        assert gold(index) == []


def _document_triggers(index: Index) -> list[str]:
    return [
        r[0]
        for r in conn_of(index).execute(
            "SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'documents'"
        )
    ]


def test_writing_a_document_costs_the_value_table_little(tmp_path: Path) -> None:
    # No insert trigger on ``documents``: one, even one that never fires, costs each insert
    # about 20 us (a 38k-page sync took about 13 % more CPU). And a valid document without
    # metadata (most of them) has no row.
    with apsw_index(str(tmp_path / "i.sqlite")) as index:
        assert _document_triggers(index) == ["documents_metadata_update"]
        put(index, *(doc(f"d{i}.md", valid()) for i in range(20)))
        assert stored_rows(index) == set()


def test_a_selective_filter_is_answered_without_scoring_every_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 300 matches; the 3 gold ones rank last (one word among many). Checking a window of the
    # best matches against the filter cannot fill the page, so the filter must be applied
    # inside the full-text scan, not by the query that scores and joins all 300.
    crowd = [doc(f"c{i:03}.md", valid(tier="silver"), "kettle kettle kettle") for i in range(300)]
    tail = "kettle " + "other words " * 40
    targets = [doc(f"t{i}.md", valid(tier="gold"), tail) for i in range(3)]
    with apsw_index(str(tmp_path / "i.sqlite")) as index:
        put(index, *crowd, *targets)

        def full_query(*args: object) -> str:
            raise AssertionError("the full query ran")

        monkeypatch.setattr(lexical, "search_sql", full_query)
        assert sorted(gold(index)) == ["t0.md", "t1.md", "t2.md"]
