"""Vectors that outlive a mirror: when a document gets a new mirror, its chunks whose embedded
text is unchanged (same ``gno_core.text.embedding_key``) take the old chunks' vectors
over, in every vector space, instead of waiting to be embedded again."""

from __future__ import annotations

import json
from collections.abc import Sequence

import apsw

from gno_core.domain import Chunk
from gno_core.text.embedding_key import embedding_key

__all__ = ["carry_vectors"]


def carry_vectors(
    conn: apsw.Connection,
    old: tuple[str, str | None],
    new: tuple[str, str | None],
    chunks: Sequence[Chunk],
) -> int:
    """Inside a write transaction: give the chunks of mirror ``new`` (``(mirror_hash, title)``)
    the vectors, in every space, of the chunks of mirror ``old`` with the same embedding key
    (``gno_core.text.embedding_key``); the vec0 copies follow (or are marked for a rebuild when the
    extension is not loaded). Returns how many vectors were carried."""
    old_mirror, old_title = old
    new_mirror, new_title = new
    keys = {
        embedding_key(text, int(start), old_title): int(seq)
        for seq, text, start in conn.execute(
            "SELECT seq, text, start_line FROM chunks WHERE mirror_hash = ?", (old_mirror,)
        )
    }
    carried: dict[str, list[int]] = {}
    for chunk in chunks:
        seq = keys.get(embedding_key(chunk.text, chunk.start_line, new_title))
        if seq is None:
            continue
        for row_id, fingerprint in conn.execute(
            "INSERT INTO content_vectors(mirror_hash, seq, fingerprint, embedding, embedded_at) "
            "SELECT ?, ?, fingerprint, embedding, embedded_at FROM content_vectors "
            "WHERE mirror_hash = ? AND seq = ? ON CONFLICT DO NOTHING RETURNING id, fingerprint",
            (new_mirror, chunk.seq, old_mirror, seq),
        ).fetchall():
            carried.setdefault(str(fingerprint), []).append(int(str(row_id)))
    for fingerprint, ids in carried.items():
        row = conn.execute(
            "SELECT vec_table, vec_synced FROM vector_spaces WHERE fingerprint = ?", (fingerprint,)
        ).fetchone()
        if row is None or not row[1]:
            continue
        try:
            conn.execute(
                f"INSERT INTO {row[0]}(rowid, embedding) SELECT id, embedding FROM "
                "content_vectors WHERE id IN (SELECT value FROM json_each(?))",
                (json.dumps(ids),),
            )
        except apsw.SQLError:  # vec0 not loaded here: the next search with it rebuilds
            conn.execute(
                "UPDATE vector_spaces SET vec_synced = 0 WHERE fingerprint = ?", (fingerprint,)
            )
    return sum(len(ids) for ids in carried.values())
