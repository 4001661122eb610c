"""``ApswMemory``: the ``MemoryStore`` port over an open SQLite index, and what the ledger and
the search filters use to keep and read the ``memory_*`` tables (migration 0006)."""

from __future__ import annotations

import json
from collections.abc import Sequence

import apsw

from gno_adapters.sqlite.rows import Rows
from gno_core.facts import FactRecord, InvalidFact
from gno_core.identity import parse_uri
from gno_core.ports.memory import DocKey, FactDiagnostic, StoredFact, ignored_supersedes

__all__ = ["ApswMemory", "memory_filter_sql", "replace_document_fact"]

#: Successor ``s.successor`` shares a scope with the fact of document ``{p}``.
_SHARED_SCOPE = (
    "EXISTS (SELECT 1 FROM memory_scopes a JOIN memory_scopes b ON b.scope = a.scope "
    "AND b.doc_id = {p} WHERE a.doc_id = s.successor)"
)
#: A fact is superseded when an active document of its own collection holds a valid fact
#: naming it and sharing one of its scopes (any other ``supersedes`` entry is ignored).
_SUPERSEDED = (
    "EXISTS (SELECT 1 FROM memory_supersedes s JOIN memory_facts sf ON sf.doc_id = s.successor "
    "JOIN documents sd ON sd.id = s.successor WHERE s.collection = {d}.collection "
    "AND s.rel_path = {d}.rel_path AND sd.collection = s.collection AND sd.active = 1 "
    "AND sf.invalid_code IS NULL AND " + _SHARED_SCOPE.format(p="{d}.id") + ")"
)
#: The ``supersedes`` entries of valid facts that supersede nothing: another collection's path,
#: or a valid fact of this collection that shares no scope with the one naming it.
_IGNORED = (
    "SELECT sd.collection, sd.rel_path, s.collection, s.rel_path FROM memory_supersedes s "
    "JOIN memory_facts sf ON sf.doc_id = s.successor JOIN documents sd ON sd.id = s.successor "
    "WHERE sd.active = 1 AND sf.invalid_code IS NULL AND sd.collection IN ({marks}) AND "
    "(s.collection <> sd.collection OR EXISTS (SELECT 1 FROM documents pd JOIN memory_facts pf "
    "ON pf.doc_id = pd.id WHERE pd.collection = s.collection AND pd.rel_path = s.rel_path "
    "AND pd.active = 1 AND pf.invalid_code IS NULL AND NOT "
    + _SHARED_SCOPE.format(p="pd.id")
    + "))"
)
_COLUMNS = (
    "d.collection, d.rel_path, f.record_id, f.fact_text, f.scopes, f.caller, f.session, "
    "f.created_at, f.content_hash, f.source, f.supersedes, " + _SUPERSEDED.format(d="d")
)


def replace_document_fact(
    conn: apsw.Connection, doc_id: int, fact: FactRecord | InvalidFact | None
) -> None:
    """Store what document ``doc_id`` states as a fact (nothing when ``fact`` is None)."""
    conn.execute("DELETE FROM memory_facts WHERE doc_id = ?", (doc_id,))
    if fact is None:
        return
    if isinstance(fact, InvalidFact):
        conn.execute(
            "INSERT INTO memory_facts(doc_id, invalid_code, invalid_message) VALUES (?, ?, ?)",
            (doc_id, fact.code, fact.message),
        )
        return
    conn.execute(
        "INSERT INTO memory_facts(doc_id, record_id, fact_text, caller, session, created_at, "
        "content_hash, source, scopes, supersedes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            doc_id,
            fact.record_id,
            fact.text,
            fact.caller,
            fact.session,
            fact.created_at,
            fact.content_hash,
            fact.source,
            json.dumps(list(fact.scopes)),
            json.dumps(list(fact.supersedes)),
        ),
    )
    conn.executemany(
        "INSERT INTO memory_scopes(scope, doc_id) VALUES (?, ?)",
        [(scope, doc_id) for scope in fact.scopes],
    )
    predecessors = {_key(uri) for uri in fact.supersedes}
    conn.executemany(
        "INSERT INTO memory_supersedes(collection, rel_path, successor) VALUES (?, ?, ?)",
        [(c, r, doc_id) for c, r in sorted(predecessors)],
    )


def _key(uri: str) -> DocKey:
    ref = parse_uri(uri)  # validated when the record was read
    return (ref.collection or "", ref.rel_path or "")


def memory_filter_sql(scopes: Sequence[str], alias: str = "d") -> tuple[str, tuple[object, ...]]:
    """The condition for "a valid, current fact sharing a scope with ``scopes``" on
    ``documents AS alias``, and its parameters."""
    if not scopes:
        return "0", ()
    marks = ", ".join("?" * len(scopes))
    condition = (
        f"EXISTS (SELECT 1 FROM memory_scopes ms JOIN memory_facts mf ON mf.doc_id = ms.doc_id "
        f"WHERE ms.doc_id = {alias}.id AND ms.scope IN ({marks}) AND mf.invalid_code IS NULL) "
        f"AND NOT " + _SUPERSEDED.format(d=alias)
    )
    return condition, tuple(scopes)


class ApswMemory:
    def __init__(self, rows: Rows) -> None:
        self._db = rows

    def facts(self, keys: Sequence[DocKey]) -> dict[DocKey, StoredFact]:
        if not keys:
            return {}
        # The keys arrive as one JSON parameter; CROSS JOIN keeps them the outer loop, so each
        # looks its document up by the (collection, rel_path) index.
        wanted = json.dumps([list(key) for key in dict.fromkeys(keys)])
        rows = self._db.rows(
            "reading facts",
            f"WITH k(c, r) AS (SELECT value ->> 0, value ->> 1 FROM json_each(?)) "
            f"SELECT {_COLUMNS} FROM k CROSS JOIN documents d ON d.collection = k.c "
            "AND d.rel_path = k.r JOIN memory_facts f ON f.doc_id = d.id "
            "WHERE d.active = 1 AND f.invalid_code IS NULL",
            (wanted,),
        )
        return {(f.collection, f.rel_path): f for f in map(_fact, rows)}

    def facts_with_hash(self, collection: str, content_hash: str) -> list[StoredFact]:
        return self._select(
            "finding a fact by its hash",
            "d.collection = ? AND f.content_hash = ? ORDER BY f.created_at, d.rel_path",
            (collection, content_hash),
        )

    def successors(self, collection: str, rel_path: str) -> list[DocKey]:
        rows = self._db.rows(
            "finding successors",
            "SELECT d.collection, d.rel_path FROM memory_supersedes s "
            "JOIN memory_facts f ON f.doc_id = s.successor JOIN documents d ON d.id = s.successor "
            "JOIN documents p ON p.collection = s.collection AND p.rel_path = s.rel_path "
            "AND p.active = 1 WHERE s.collection = ? AND s.rel_path = ? AND d.active = 1 "
            "AND d.collection = s.collection AND f.invalid_code IS NULL AND "
            + _SHARED_SCOPE.format(p="p.id")
            + " ORDER BY d.collection, d.rel_path",
            (collection, rel_path),
        )
        return [(str(c), str(r)) for c, r in rows]

    def diagnostics(self, collections: Sequence[str], limit: int) -> list[FactDiagnostic]:
        if not collections:
            return []
        marks = ", ".join("?" * len(collections))
        rows = self._db.rows(
            "listing invalid facts",
            "SELECT d.collection, d.rel_path, f.invalid_code, f.invalid_message "
            "FROM memory_facts f JOIN documents d ON d.id = f.doc_id WHERE d.active = 1 "
            f"AND f.invalid_code IS NOT NULL AND d.collection IN ({marks}) "
            "ORDER BY d.collection, d.rel_path LIMIT ?",
            (*collections, max(0, limit)),
        )
        found = [
            FactDiagnostic(str(c), str(r), InvalidFact(str(code), str(message or "")))
            for c, r, code, message in rows
        ]
        ignored = self._db.rows(
            "listing ignored supersedes",
            _IGNORED.format(marks=marks) + " ORDER BY sd.collection, sd.rel_path, s.collection, "
            "s.rel_path LIMIT ?",
            (*collections, max(0, limit)),
        )
        found += [
            FactDiagnostic(str(c), str(r), ignored_supersedes(str(pc), str(pr)))
            for c, r, pc, pr in ignored
        ]
        found.sort(key=lambda d: (d.collection, d.rel_path))
        return found[: max(0, limit)]

    def count_facts(self, collections: Sequence[str]) -> tuple[int, int, int]:
        if not collections:
            return (0, 0, 0)
        marks = ", ".join("?" * len(collections))
        row = self._db.rows(
            "counting facts",
            "SELECT COALESCE(SUM(f.invalid_code IS NULL AND NOT superseded), 0), "
            "COALESCE(SUM(f.invalid_code IS NULL AND superseded), 0), "
            "COALESCE(SUM(f.invalid_code IS NOT NULL), 0) FROM (SELECT d.collection, "
            f"d.rel_path, {_SUPERSEDED.format(d='d')} AS superseded, mf.invalid_code "
            "FROM memory_facts mf JOIN documents d ON d.id = mf.doc_id WHERE d.active = 1 "
            f"AND d.collection IN ({marks})) AS f",
            tuple(collections),
        )[0]
        return (int(row[0]), int(row[1]), int(row[2]))

    def _select(self, action: str, where: str, params: tuple[object, ...]) -> list[StoredFact]:
        rows = self._db.rows(
            action,
            f"SELECT {_COLUMNS} FROM memory_facts f JOIN documents d ON d.id = f.doc_id "
            f"WHERE d.active = 1 AND f.invalid_code IS NULL AND {where}",
            params,
        )
        return [_fact(row) for row in rows]


def _fact(row: tuple[object, ...]) -> StoredFact:
    collection, rel_path, rid, text, scopes, caller, session, created, digest, source = row[:10]
    supersedes, superseded = row[10], row[11]
    record = FactRecord(
        record_id=str(rid),
        text=str(text),
        scopes=tuple(json.loads(str(scopes))),
        caller=str(caller),
        session=str(session),
        created_at=str(created),
        content_hash=str(digest),
        source=None if source is None else str(source),
        supersedes=tuple(json.loads(str(supersedes))),
    )
    return StoredFact(str(collection), str(rel_path), record, bool(superseded))
