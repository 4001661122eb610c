"""The link writes ``SyncLedger`` makes in its batches over an open SQLite index: a batch's
links (each new one pending), a document's names, and the pending marks of the links whose
candidate targets changed."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from operator import itemgetter
from typing import Any

import apsw

from gno_adapters.sqlite.link_rows import BATCH, LINK_FIELDS, link_values
from gno_core.domain import ExtractedLink, NameKey

__all__ = [
    "mark_keys_pending",
    "mark_links_of_pending",
    "mark_names_pending",
    "replace_document_names",
    "write_links",
]

#: ``json.dumps(keys, ensure_ascii=False)`` without building an encoder per link.
_KEYS_JSON = json.JSONEncoder(ensure_ascii=False)
#: ``(link_id, key)`` rows of ``link_keys`` by their key.
_by_key = itemgetter(1)


def _keys_json(keys: tuple[str, ...], encode: Any = _KEYS_JSON.encode) -> str:
    """``json.dumps(list(keys), ensure_ascii=False)``; written by hand when no key needs an
    escape (a quote, a backslash, a control character): once per link of a sync."""
    plain = "".join(keys)
    if '"' in plain or "\\" in plain or not plain.isprintable():
        return str(encode(list(keys)))
    return '["' + '", "'.join(keys) + '"]' if keys else "[]"


def _initial_state(link: ExtractedLink) -> str:
    if link.external:
        return "external"
    return "pending" if link.keys else "unresolved"


def write_links(
    conn: apsw.Connection, documents: Sequence[tuple[int, Sequence[ExtractedLink], bool]]
) -> None:
    """Replace the links of the ``(doc_id, links, new)`` documents of one batch (``new``: a
    row just inserted, which has none); every new link waits for resolution. Written with a
    few statements for the whole batch: the link ids are given, not read back (the next ids
    after the largest, inside the batch's write transaction)."""
    latest: dict[int, tuple[Sequence[ExtractedLink], bool]] = {}
    for doc_id, links, new in documents:
        # A document written twice in one batch keeps its last links.
        latest[doc_id] = (links, new and doc_id not in latest)
    old = [(doc_id,) for doc_id, (_, new) in latest.items() if not new]
    if old:
        conn.executemany("DELETE FROM doc_links WHERE doc_id = ?", old)
    if not any(links for links, _ in latest.values()):
        return
    row = conn.execute("SELECT MAX(id) FROM doc_links").fetchone()
    next_id = int(row[0] or 0) + 1 if row else 1
    rows: list[tuple[object, ...]] = []
    keys: list[tuple[int, str]] = []
    for doc_id, (links, _) in latest.items():
        for k in links:
            rows.append((next_id, doc_id, *link_values(k), _keys_json(k.keys), _initial_state(k)))
            keys.extend((next_id, key) for key in dict.fromkeys(k.keys))
            next_id += 1
    conn.executemany(
        f"INSERT INTO doc_links(id, doc_id, {', '.join(LINK_FIELDS)}, keys, state) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
    )
    # In key order: the inserts into the key-ordered index ``link_keys_key`` (about two keys
    # per link, spread over the whole name space) then walk it forward instead of jumping
    # about it once per key.
    keys.sort(key=_by_key)
    conn.executemany("INSERT INTO link_keys(link_id, key) VALUES (?, ?)", keys)


def replace_document_names(
    conn: apsw.Connection,
    doc_id: int,
    names: Sequence[NameKey],
    was_active: bool,
    marks: set[str],
    *,
    new: bool = False,
) -> None:
    """Store the names of a document; when they differ from what an active document had (or
    the document was not active), its old and new names are added to ``marks``: the keys whose
    links the caller marks pending (``mark_keys_pending``, once per batch). ``new``: a row just
    inserted, which has no names yet (two statements fewer per note of a first sync)."""
    old: set[tuple[str, str]] = set()
    if not new:
        old = {
            (kind, key)
            for kind, key in conn.execute(
                "SELECT kind, key FROM doc_names WHERE doc_id = ?", (doc_id,)
            )
        }
    given = {(n.kind, n.key) for n in names}
    if old != given:
        if old:
            conn.execute("DELETE FROM doc_names WHERE doc_id = ?", (doc_id,))
        conn.executemany(
            "INSERT OR IGNORE INTO doc_names(doc_id, kind, key) VALUES (?, ?, ?)",
            [(doc_id, kind, key) for kind, key in given],
        )
    if old != given or not was_active:
        marks.update(key for _, key in old | given)


def mark_keys_pending(conn: apsw.Connection, keys: Iterable[str]) -> None:
    """Mark pending the settled links that carry any of ``keys``."""
    wanted = sorted(set(keys))
    for start in range(0, len(wanted), BATCH):
        batch = wanted[start : start + BATCH]
        marks = ",".join("?" * len(batch))
        # Links already pending (every link during a first sync) are left out by their id in
        # the small partial index ``doc_links_pending`` rather than by reading their rows
        # from the table, which a large vault's page cache does not hold.
        conn.execute(
            "UPDATE doc_links SET state = 'pending' WHERE state NOT IN ('pending', 'external') "
            f"AND id IN (SELECT k.link_id FROM link_keys k WHERE k.key IN ({marks}) "
            "AND NOT EXISTS (SELECT 1 FROM doc_links p INDEXED BY doc_links_pending "
            "WHERE p.state = 'pending' AND p.id = k.link_id))",
            tuple(batch),
        )


def mark_names_pending(conn: apsw.Connection, doc_id: int) -> None:
    """A document appeared or went: the links that could name it are resolved again."""
    mark_keys_pending(
        conn, [r[0] for r in conn.execute("SELECT key FROM doc_names WHERE doc_id = ?", (doc_id,))]
    )


def mark_links_of_pending(conn: apsw.Connection, doc_id: int) -> None:
    """The links written in a document are resolved again (it came back after removal)."""
    conn.execute(
        "UPDATE doc_links SET state = 'pending' WHERE doc_id = ? AND state NOT IN "
        "('pending', 'external') AND keys != '[]'",
        (doc_id,),
    )
