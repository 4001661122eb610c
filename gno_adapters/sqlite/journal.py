"""``ApswJournal``: the change journal's reads over an open SQLite index, and ``append``, which
the ledger calls inside the transaction of each index change (entries and retention committed
with the change, never apart from it)."""

from __future__ import annotations

from collections.abc import Sequence

import apsw

from gno_adapters.sqlite.rows import Rows
from gno_core.journal.entries import RETENTION, JournalEntry, PendingEntry, Retention
from gno_core.ports.journal import JournalBounds

__all__ = ["ApswJournal", "append"]

_COLUMNS = "seq, kind, collection, observed_ns, payload"


def _state(conn: apsw.Connection) -> dict[str, str]:
    return {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM change_journal_state")}


def append(
    conn: apsw.Connection,
    entries: Sequence[PendingEntry],
    now_ns: int,
    retention: Retention = RETENTION,
) -> None:
    """Write ``entries`` (in order) and apply retention. Call inside a write transaction."""
    if not entries:
        return
    conn.executemany(
        "INSERT INTO change_journal(observed_ns, kind, collection, rel_path, previous_path, "
        "payload, bytes, previous_collection) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                now_ns,
                e.kind,
                e.collection,
                e.rel_path,
                e.previous_path,
                e.payload,
                e.size,
                e.previous_collection,
            )
            for e in entries
        ],
    )
    state = _state(conn)
    count = int(state["entries"]) + len(entries)
    size = int(state["bytes"]) + sum(e.size for e in entries)
    purged = int(state["purged_through"])
    cut = purged
    if count > retention.max_entries or size > retention.max_bytes:
        # The oldest go first until both bounds hold.
        excess_n, excess_b = count - retention.max_entries, size - retention.max_bytes
        n = b = 0
        for seq, nbytes in conn.execute(
            "SELECT seq, bytes FROM change_journal WHERE seq > ? ORDER BY seq", (purged,)
        ):
            if n >= excess_n and b >= excess_b:
                break
            cut, n, b = int(seq), n + 1, b + int(nbytes)
    # Past the age bound: the oldest entry kept says whether any is (one row by its key).
    oldest = now_ns - retention.max_age_ns
    first = conn.execute(
        "SELECT observed_ns FROM change_journal WHERE seq > ? ORDER BY seq LIMIT 1", (cut,)
    ).fetchone()
    if first is not None and int(first[0]) < oldest:
        row = conn.execute(  # rare (once a day at most): a scan of at most the entries kept
            "SELECT MAX(seq) FROM change_journal WHERE observed_ns < ?", (oldest,)
        ).fetchone()
        if row is not None and row[0] is not None:
            cut = max(cut, int(row[0]))
    if cut > purged:
        gone = conn.execute(
            "SELECT COUNT(*), COALESCE(SUM(bytes), 0) FROM change_journal WHERE seq <= ?", (cut,)
        ).fetchone()
        assert gone is not None
        conn.execute("DELETE FROM change_journal WHERE seq <= ?", (cut,))
        count, size = count - int(gone[0]), size - int(gone[1])
    conn.executemany(
        "UPDATE change_journal_state SET value = ? WHERE key = ?",
        [(str(count), "entries"), (str(size), "bytes"), (str(max(cut, purged)), "purged_through")],
    )


def _entry(row: tuple[object, ...]) -> JournalEntry:
    seq, kind, collection, observed_ns, payload = row
    return JournalEntry.from_row(
        int(str(seq)), str(kind), str(collection), int(str(observed_ns)), str(payload)
    )


class ApswJournal:
    """The ``ChangeJournal`` port."""

    def __init__(self, rows: Rows) -> None:
        self._db = rows

    def bounds(self) -> JournalBounds:
        state = dict(
            (str(k), str(v))
            for k, v in self._db.rows(
                "reading the change journal", "SELECT key, value FROM change_journal_state"
            )
        )
        latest = self._db.rows(
            "reading the change journal",
            "SELECT seq FROM sqlite_sequence WHERE name = 'change_journal'",
        )
        return JournalBounds(
            epoch=state["epoch"],
            purged_through=int(state["purged_through"]),
            latest=int(latest[0][0]) if latest else 0,
            retained=int(state["entries"]),
        )

    def entries(
        self,
        *,
        after: int = 0,
        since_ns: int | None = None,
        collection: str | None = None,
        limit: int = 100,
    ) -> list[JournalEntry]:
        where: list[str] = ["seq > ?"]
        params: list[object] = [after]
        if since_ns is not None:
            where.append("observed_ns >= ?")
            params.append(since_ns)
        if collection is not None:
            where.append("collection = ?")
            params.append(collection)
        sql = (
            f"SELECT {_COLUMNS} FROM change_journal WHERE {' AND '.join(where)} "
            "ORDER BY seq LIMIT ?"
        )
        return [
            _entry(r) for r in self._db.rows("reading the change journal", sql, (*params, limit))
        ]

    def latest_for(self, collection: str, rel_path: str) -> JournalEntry | None:
        rows = self._db.rows(
            "reading the change journal",
            f"SELECT {_COLUMNS} FROM change_journal WHERE collection = ? AND rel_path = ? "
            "UNION ALL "
            f"SELECT {_COLUMNS} FROM change_journal WHERE collection = ? AND previous_path = ? "
            "UNION ALL "
            f"SELECT {_COLUMNS} FROM change_journal WHERE previous_collection = ? "
            "AND rel_path = ? "
            "ORDER BY seq DESC LIMIT 1",
            (collection, rel_path, collection, rel_path, collection, rel_path),
        )
        return _entry(rows[0]) if rows else None

    def entry(self, seq: int) -> JournalEntry | None:
        rows = self._db.rows(
            "reading the change journal",
            f"SELECT {_COLUMNS} FROM change_journal WHERE seq = ?",
            (seq,),
        )
        return _entry(rows[0]) if rows else None
