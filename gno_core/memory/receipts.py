"""Recall receipts and context fencing.

A recall answers with a content-free receipt: who asked (caller, session), when, which facts
(docids) and the content hashes of the returned texts (``spanHashes``), sealed by a digest.
An agent that hands the receipt back to ``remember`` cannot store as new what it was just
shown: a text whose hash is in ``spanHashes`` is ``MEMORY_FENCED_REPLAY``. Declared origins
inside gno (``gno://``) are ``MEMORY_FENCED_DERIVED``. A paraphrase carries neither mark and is
not detectable: fencing stops replays, not rewording.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from gno_core.errors import memory_error

__all__ = ["Receipt", "fence"]


@dataclass(frozen=True, slots=True)
class Receipt:
    caller: str
    session: str
    issued_at: str
    memory_ids: tuple[str, ...]
    span_hashes: tuple[str, ...]

    @classmethod
    def issue(
        cls,
        caller: str,
        session: str,
        issued_at: str,
        memory_ids: Iterable[str],
        span_hashes: Iterable[str],
    ) -> Receipt:
        """A receipt with its lists in a stable form: ids in recall order, hashes sorted."""
        return cls(caller, session, issued_at, tuple(memory_ids), tuple(sorted(set(span_hashes))))

    @property
    def digest(self) -> str:
        """SHA-256 of the receipt's fields as canonical JSON (sorted keys, no spaces)."""
        body = {
            "caller": self.caller,
            "session": self.session,
            "issuedAt": self.issued_at,
            "memoryIds": list(self.memory_ids),
            "spanHashes": list(self.span_hashes),
        }
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(canonical.encode("utf-8")).hexdigest()

    @classmethod
    def from_wire(cls, data: Mapping[str, Any]) -> Receipt:
        """The receipt an agent presents (camelCase); missing lists are empty."""

        def strings(key: str) -> tuple[str, ...]:
            value = data.get(key) or ()
            return tuple(v for v in value if isinstance(v, str))

        return cls(
            caller=str(data.get("caller") or ""),
            session=str(data.get("session") or ""),
            issued_at=str(data.get("issuedAt") or ""),
            memory_ids=strings("memoryIds"),
            span_hashes=strings("spanHashes"),
        )


def fence(text_hash: str, receipt: Receipt | None, derived_from: Sequence[str] = ()) -> None:
    """Refuse a fact that replays recalled text or declares an origin inside gno. The receipt's
    hashes are honoured whatever its digest says: an altered receipt can only fence more."""
    gno_origins = [o for o in derived_from if o.strip().lower().startswith("gno://")]
    if gno_origins:
        raise memory_error(
            "MEMORY_FENCED_DERIVED",
            "A fact derived from gno content is not a new fact: remember what you learned "
            "elsewhere, or supersede the fact you recalled",
            origins=gno_origins,
        )
    if receipt is not None and text_hash in receipt.span_hashes:
        raise memory_error(
            "MEMORY_FENCED_REPLAY",
            "This text was returned by a recall (its hash is in the receipt): it is already stored",
            contentHash=text_hash,
        )
