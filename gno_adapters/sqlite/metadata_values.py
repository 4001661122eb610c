"""The value table of typed metadata (``metadata_values``) and a predicate as probes into it.

For each key of a valid document's map, rows ``(doc, key, kind, atom)``:

- a scalar: kind ``s`` (string), ``n`` (number) or ``b`` (boolean, atom 1/0), atom the value;
- an array: one row per distinct member, kind ``S``, ``N`` or ``B`` (a valid array holds one
  type); an empty array: kind ``A``, atom 0.

A document whose metadata is invalid or not yet extracted, and a valid one with an empty map
(most of them), have no row: whether a document is valid is read from ``documents`` when a
predicate needs it (``not``, ``exists: false``).

The ledger writes a new document's rows with it, in the same transaction
(``write_metadata_values``); a trigger replaces them whenever an update changes a document's
``metadata`` or ``metadata_state``; a deleted document's rows go with it through the foreign
key. Migration 15 built them from the stored maps. (Migration 14 also kept a marker row on
every valid document and an ``AFTER INSERT`` trigger; such a trigger costs every insert into
``documents`` about 20 us even when it never fires (a statement journal, as we read it): a
38k-page sync took about 13 % more CPU. An update trigger costs nothing measurable.)

``values_sql`` turns a predicate into one condition on a document id made only of primary-key
probes into this table (no read of ``documents``), so keyword search can check it inside the
full-text scan before any BM25 score is computed. Its semantics are those of ``metadata_sql``
and of the direct evaluator (``gno_core.metadata.evaluate``): a property test holds all three
to the same answers.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from gno_core.metadata.extract import VALID, scalar_kind

if TYPE_CHECKING:
    import apsw

    from gno_core.contracts.metadata import MetadataPredicate, Node
    from gno_core.metadata.extract import DocumentMetadata

__all__ = [
    "ValuesSql",
    "create_metadata_values",
    "rebuild_metadata_values",
    "values_sql",
    "write_metadata_values",
]

_SCALARS = "('text', 'integer', 'real', 'true', 'false')"
_KIND = (
    "CASE {t} WHEN 'text' THEN '{s}' WHEN 'true' THEN '{b}' WHEN 'false' THEN '{b}' ELSE '{n}' END"
)


def _values(source: str) -> str:
    """The value rows of the documents ``source`` yields as ``d(id, metadata)``."""
    scalar = _KIND.format(t="j.type", s="s", n="n", b="b")
    member = _KIND.format(t="e.type", s="S", n="N", b="B")
    return (
        f"SELECT d.id, j.key, {scalar}, j.atom FROM {source}, json_each(d.metadata) j "
        f"WHERE j.type IN {_SCALARS} "
        f"UNION ALL SELECT d.id, j.key, {member}, e.atom FROM {source}, json_each(d.metadata) j, "
        f"json_each(j.value) e WHERE j.type = 'array' AND e.type IN {_SCALARS} "
        f"UNION ALL SELECT d.id, j.key, 'A', 0 FROM {source}, json_each(d.metadata) j "
        "WHERE j.type = 'array' AND json_array_length(j.value) = 0"
    )


_INSERT = "INSERT OR IGNORE INTO metadata_values(doc_id, key, kind, atom) "
_TRIGGERS = ("documents_metadata_insert", "documents_metadata_update")


def create_metadata_values(conn: apsw.Connection) -> None:
    """Migration 14 as it was applied: the table, a ``*`` marker row on every valid document,
    and triggers keeping them (migration 15 replaces the rows and the triggers)."""
    valid = "(SELECT id, metadata FROM documents WHERE metadata_state = 'valid') d"
    new = "(SELECT NEW.id AS id, NEW.metadata AS metadata WHERE NEW.metadata_state = 'valid') d"
    conn.execute(
        "CREATE TABLE metadata_values ("
        " doc_id INTEGER NOT NULL REFERENCES documents(id) ON DELETE CASCADE,"
        " key TEXT NOT NULL, kind TEXT NOT NULL, atom NOT NULL,"
        " PRIMARY KEY (doc_id, key, kind, atom)) WITHOUT ROWID;"
        "CREATE TRIGGER documents_metadata_insert AFTER INSERT ON documents "
        f"WHEN NEW.metadata_state = 'valid' BEGIN {_marked(new)}; END;"
        "CREATE TRIGGER documents_metadata_update AFTER UPDATE OF metadata, metadata_state "
        "ON documents WHEN OLD.metadata IS NOT NEW.metadata "
        "OR OLD.metadata_state IS NOT NEW.metadata_state BEGIN "
        "DELETE FROM metadata_values WHERE doc_id = OLD.id; "
        f"{_marked(new)}; END;"
    )
    conn.execute(_marked(valid))


def _marked(source: str) -> str:
    """Migration 14's rows: a ``*`` marker and the values of each valid document."""
    return f"{_INSERT}SELECT d.id, '', '*', 0 FROM {source} UNION ALL {_values(source)}"


def _rows(source: str) -> str:
    """The rows of the valid, non-empty maps ``source`` yields as ``d(id, metadata, state)``."""
    valued = f"(SELECT * FROM {source} WHERE d.state = 'valid' AND d.metadata != '{{}}') d"
    return f"{_INSERT}{_values(valued)}"


def rebuild_metadata_values(conn: apsw.Connection) -> None:
    """Migration 15: this module's rows, from the stored maps, and its one trigger."""
    for name in _TRIGGERS:
        conn.execute(f"DROP TRIGGER IF EXISTS {name}")
    conn.execute("DELETE FROM metadata_values")
    conn.execute(_rows("(SELECT id, metadata, metadata_state AS state FROM documents) d"))
    new = "(SELECT NEW.id AS id, NEW.metadata AS metadata, NEW.metadata_state AS state) d"
    conn.execute(
        "CREATE TRIGGER documents_metadata_update AFTER UPDATE OF metadata, metadata_state "
        "ON documents WHEN OLD.metadata IS NOT NEW.metadata "
        "OR OLD.metadata_state IS NOT NEW.metadata_state BEGIN "
        "DELETE FROM metadata_values WHERE doc_id = OLD.id; "
        f"{_rows(new)}; END;"
    )


def write_metadata_values(conn: apsw.Connection, doc_id: int, metadata: DocumentMetadata) -> None:
    """The rows of a new document (those ``_rows`` builds from its stored map)."""
    if metadata.state != VALID or not metadata.values:
        return
    rows: list[tuple[int, str, str, object]] = []
    for key, value in metadata.values.items():
        if not isinstance(value, tuple):
            rows.append((doc_id, key, _letter(value), _atom(value)))
            continue
        if not value:
            rows.append((doc_id, key, "A", 0))
        rows.extend((doc_id, key, _letter(m).upper(), _atom(m)) for m in value)
    conn.executemany(f"{_INSERT}VALUES (?, ?, ?, ?)", rows)


def _letter(value: object) -> str:
    kind = scalar_kind(value)
    assert kind is not None
    return _LETTER[kind]


class ValuesSql(NamedTuple):
    where: str  # on the document id expression
    params: tuple[object, ...]
    #: the predicate can match a document without rows: the caller must also check that the
    #: document's metadata is valid (``documents.metadata_state``)
    valid_only: bool


def values_sql(predicate: MetadataPredicate, doc: str) -> ValuesSql:
    """The condition on the document id expression ``doc``, its parameters, and whether the
    document must also be checked valid. Every leaf but ``exists: false`` is true only over
    rows of the document, which only valid documents have: without ``not`` (or ``exists:
    false``) the predicate cannot match another one."""
    params: list[object] = []
    body = _node(predicate.root, doc, params)
    return ValuesSql(body, tuple(params), _needs_marker(predicate.root))


def _needs_marker(node: Node) -> bool:
    from gno_core.contracts.metadata import Exists, Group, Not

    if isinstance(node, Group):
        return any(_needs_marker(child) for child in node.predicates)
    return isinstance(node, Not) or (isinstance(node, Exists) and not node.value)


def _probe(doc: str, key: str, kinds: str, params: list[object], atom: str = "") -> str:
    """A row of ``doc`` for ``key`` of one of ``kinds`` (letters), its atom passing ``atom``."""
    params.append(key)
    if kinds:
        kind = (
            f" AND v.kind = '{kinds}'"
            if len(kinds) == 1
            else f" AND v.kind IN ({', '.join(map(repr, kinds))})"
        )
    else:
        kind = ""
    return (
        f"EXISTS (SELECT 1 FROM metadata_values v WHERE v.doc_id = {doc} AND v.key = ?{kind}"
        f"{' AND v.atom ' + atom if atom else ''})"
    )


_LETTER = {"string": "s", "number": "n", "boolean": "b"}
_ORDER = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


def _node(node: Node, doc: str, params: list[object]) -> str:
    from gno_core.contracts.metadata import Compare, Exists, Group, Member, Not, Order

    if isinstance(node, Group):
        joiner = " AND " if node.op == "and" else " OR "
        return "(" + joiner.join(_node(child, doc, params) for child in node.predicates) + ")"
    if isinstance(node, Not):
        return f"(NOT {_node(node.predicate, doc, params)})"
    if isinstance(node, Exists):
        present = _probe(doc, node.key, "", params)
        return present if node.value else f"(NOT {present})"
    if isinstance(node, Compare):
        kind = scalar_kind(node.value)
        assert kind is not None
        probe = _probe(doc, node.key, _LETTER[kind], params, "= ?" if node.op == "eq" else "!= ?")
        params.append(_atom(node.value))
        return probe
    if isinstance(node, Order):
        probe = _probe(doc, node.key, "n", params, f"{_ORDER[node.op]} ?")
        params.append(node.value)
        return probe
    assert isinstance(node, Member)
    kind = scalar_kind(node.values[0])
    assert kind is not None
    scalar, member = _LETTER[kind], _LETTER[kind].upper()
    values = list(dict.fromkeys(_atom(v) for v in node.values))
    marks = "IN (" + ", ".join("?" * len(values)) + ")"
    if node.op == "all":  # an array of the kind holding every value
        probes = []
        for value in values:
            probes.append(_probe(doc, node.key, member, params, "= ?"))
            params.append(value)
        return "(" + " AND ".join(probes) + ")"
    # nin: present and comparable (a scalar or an array of the kind, or an empty array),
    # holding none of the values
    comparable = _probe(doc, node.key, scalar + member + "A", params) if node.op == "nin" else ""
    hit = _probe(doc, node.key, scalar + member, params, marks)
    params.extend(values)
    return f"({comparable} AND NOT {hit})" if comparable else hit


def _atom(value: object) -> object:
    """A scalar as stored in ``atom``: booleans are 1/0 (their kind tells them from numbers)."""
    if isinstance(value, bool):
        return int(value)
    return value
