"""``remember``: store one fact in a memory collection, or supersede one. Nothing is deleted.

In order:
1. The text (1-4096 bytes once normalised, no control character or lone surrogate: what a fact
   file cannot store is ``MEMORY_TEXT_INVALID``), the memory collection, 1-8 scopes, the caller's
   identity and the decision (none, ``add`` or ``supersede`` with the predecessor's URI and
   content hash) are checked (``MEMORY_*`` codes).
2. Fencing: text a recall just returned (its hash is in the presented receipt) is
   ``MEMORY_FENCED_REPLAY``; a declared ``gno://`` origin is ``MEMORY_FENCED_DERIVED``.
3. The same text already current in a shared scope is ``existing``: nothing is written.
4. Without a decision the caller gets ``candidates``: the current facts in scope that BM25
   finds for the text (16 at most, any word), with their similarity (cosine of vectors when
   the embedder and their vectors are there, token Jaccard otherwise) and a match label.
   Nothing is written; the caller decides.
5. With a decision, under the write lease (120 s, then ``MEMORY_WRITE_LEASE_BUSY``): the
   duplicate check runs again, a supersede checks that the predecessor is a current fact of
   the same collection sharing a scope with the new one, with the given hash and no successor
   (else ``MEMORY_PREDECESSOR_*`` or ``MEMORY_SUPERSEDE_CONFLICT``: the loser of a race), the
   fact file is rendered and read back as ingest reads it (it must state the same record, else
   ``MEMORY_TEXT_INVALID`` and nothing is written), created exclusively and synced before the
   lease is released, so the fact is searchable when the call returns.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace

from gno_core.config import CollectionConfig
from gno_core.contracts.memory import (
    FactView,
    MemoryCandidate,
    MemoryMatching,
    MemorySync,
    RememberResult,
)
from gno_core.contracts.memory_requests import RememberRequest
from gno_core.defaults import MEMORY_WRITE_WAIT_SECONDS
from gno_core.domain import SearchFilters, StoredDocument, SyncBatch
from gno_core.errors import DuplicateError, GnoError, LockedError, ValidationError, memory_error
from gno_core.fact_files import (
    content_hash,
    fact_path,
    fact_record_id,
    normalize_scopes,
    read_fact,
    render_fact,
    require_fact_text,
)
from gno_core.facts import FactRecord, InvalidFact, MemoryIdentity
from gno_core.identity import make_uri, parse_uri
from gno_core.index_handle import IndexHandle
from gno_core.indexing.ingest import build_document
from gno_core.links.resolve import resolve_pending
from gno_core.memory.matching import CANDIDATE_POOL, MatchMode, jaccard, label, threshold
from gno_core.memory.recall import fact_fields, memory_collection, semantic_unavailable
from gno_core.memory.receipts import Receipt, fence
from gno_core.ports import Cancelled, Embedder, FrontmatterParser, NoteFiles
from gno_core.ports.embedder import Vector, dot
from gno_core.ports.lease import LeaseHolder
from gno_core.ports.memory import StoredFact
from gno_core.retrieval.query import parse_query, plain_text
from gno_core.text.canonical import canonicalize
from gno_core.text.dates import iso_from_ns
from gno_core.text.frontmatter import split_frontmatter

__all__ = ["MemoryWriter"]
_DECISIONS = ("add", "supersede")


@dataclass(frozen=True, slots=True)
class _Checked:
    text: str
    digest: str
    collection: CollectionConfig
    scopes: tuple[str, ...]


class MemoryWriter:
    def __init__(
        self,
        handle: IndexHandle,
        notes: NoteFiles,
        parser: FrontmatterParser,
        embedder: Callable[[], Embedder | None],
    ) -> None:
        self.handle = handle
        self._notes = notes
        self._parser = parser
        self._embedder = embedder

    def remember(
        self,
        request: RememberRequest,
        identity: MemoryIdentity,
        *,
        lease_wait: float = MEMORY_WRITE_WAIT_SECONDS,
        cancelled: Cancelled | None = None,
    ) -> RememberResult:
        checked = self._check(request, identity)
        mode, semantic_unavailable = self._matching_mode()
        matching = MemoryMatching(
            mode=mode, threshold=threshold(mode), semantic_unavailable=semantic_unavailable
        )
        existing = self._existing(checked)
        if existing is not None:
            return RememberResult(outcome="existing", record=existing, matching=matching)
        if request.decision is None:
            candidates = self._candidates(checked, mode)
            return RememberResult(outcome="candidates", candidates=candidates, matching=matching)
        try:
            with self.handle.writing(lease_wait, cancelled, purpose="remember"):
                return self._write(checked, request, identity, matching)
        except LockedError as exc:
            holder = exc.details.get("holder")
            who = LeaseHolder(**holder).describe() if isinstance(holder, dict) else "another writer"
            raise memory_error(
                "MEMORY_WRITE_LEASE_BUSY",
                f"The index was held by {who} for {lease_wait:g} s; try again",
                **({"holder": holder} if holder is not None else {}),
            ) from exc

    def _check(self, request: RememberRequest, identity: MemoryIdentity) -> _Checked:
        text = require_fact_text(request.text)
        config = self.handle.load_config()
        name = memory_collection(config, request.collection)
        collection = next(c for c in config.collections if c.name == name)
        scopes = normalize_scopes(request.scopes)
        if not identity.caller.strip() or not identity.session.strip():
            raise memory_error("MEMORY_IDENTITY_REQUIRED", "A fact needs a caller and a session")
        if request.decision is not None and request.decision not in _DECISIONS:
            raise memory_error(
                "MEMORY_DECISION_INVALID",
                f"decision is add or supersede, not {request.decision!r}",
            )
        if request.decision == "supersede" and not (
            request.predecessor_uri and request.predecessor_hash
        ):
            raise memory_error(
                "MEMORY_PREDECESSOR_REQUIRED",
                "supersede needs predecessorUri and predecessorHash (from gno_recall)",
            )
        digest = content_hash(text)
        receipt = None
        if request.receipt is not None:
            receipt = Receipt.from_wire(request.receipt.model_dump(by_alias=True))
        fence(digest, receipt, request.derived_from or ())
        return _Checked(text, digest, collection, scopes)

    def _matching_mode(self) -> tuple[MatchMode, str | None]:
        reason = semantic_unavailable(self.handle.index, self._embedder())
        return ("lexical", reason) if reason is not None else ("semantic", None)

    def _existing(self, checked: _Checked) -> FactView | None:
        memory = self.handle.index.memory
        for fact in memory.facts_with_hash(checked.collection.name, checked.digest):
            if not fact.superseded and set(fact.record.scopes) & set(checked.scopes):
                return self._view(fact)
        return None

    def _candidates(self, checked: _Checked, mode: MatchMode) -> list[MemoryCandidate]:
        index = self.handle.index
        filters = SearchFilters(
            collections=(checked.collection.name,), memory_scopes=checked.scopes
        )
        hits = index.lexical.search(parse_query(plain_text(checked.text)), filters, CANDIDATE_POOL)
        found = index.memory.facts([(h.document.collection, h.document.rel_path) for h in hits])
        vector_of: dict[str, float] = {}
        if mode == "semantic":  # lexical mode scores by word overlap: no embedding to make
            vector_of = self._vector_similarity([h.document for h in hits], checked)
        out = []
        for hit in hits:
            fact = found.get((hit.document.collection, hit.document.rel_path))
            if fact is None or fact.superseded:
                continue
            same = fact.record.content_hash == checked.digest
            if hit.document.mirror_hash in vector_of:
                similarity = vector_of[hit.document.mirror_hash]
            else:
                similarity = jaccard(checked.text, fact.record.text)
            similarity = 1.0 if same else max(0.0, min(1.0, similarity))
            view = self._view(fact)
            out.append(
                MemoryCandidate(
                    **view.model_dump(),
                    similarity=round(similarity, 6),
                    match=label(similarity, mode, same_hash=same),
                )
            )
        out.sort(key=lambda c: (-c.similarity, c.uri))
        return out

    def _vector_similarity(
        self, hits_docs: list[StoredDocument], checked: _Checked
    ) -> dict[str, float]:
        """Cosine of the offered text with each candidate's best chunk (mirror -> cosine)."""
        embedder = self._embedder()
        if embedder is None or not hits_docs:
            return {}
        vectors = self.handle.index.vectors
        (query,) = embedder.embed_batch([embedder.profile.document(checked.text, None)])
        out: dict[str, float] = {}
        for doc in hits_docs:
            stored = vectors.chunk_vectors(doc.mirror_hash, embedder.fingerprint)
            if stored:
                out[doc.mirror_hash] = max(_cosine(query, v) for _, v in stored)
        return out

    def _write(
        self,
        checked: _Checked,
        request: RememberRequest,
        identity: MemoryIdentity,
        matching: MemoryMatching,
    ) -> RememberResult:
        existing = self._existing(checked)  # again, now that no other writer can add it
        if existing is not None:
            return RememberResult(outcome="existing", record=existing, matching=matching)
        supersedes: tuple[str, ...] = ()
        if request.decision == "supersede":
            supersedes = (self._predecessor(checked, request),)
        collection = checked.collection
        created = iso_from_ns(self.handle.clock.now_ns())
        source_text = request.source.strip() if request.source else None
        record = FactRecord(
            record_id="",
            text=checked.text,
            scopes=checked.scopes,
            caller=identity.caller,
            session=identity.session,
            created_at=created,
            content_hash=checked.digest,
            source=source_text or None,
            supersedes=supersedes,
        )
        record = replace(record, record_id=fact_record_id(record))
        rel_path = fact_path(created, record.record_id)
        data = self._rendered(record, rel_path)
        try:
            source = self._notes.create(collection.path, rel_path, data, replace=False)
        except DuplicateError as exc:  # the same caller stored the same text this second
            raise memory_error(
                "MEMORY_SUPERSEDE_CONFLICT", f"A fact file already exists at {rel_path}"
            ) from exc
        try:
            config = self.handle.load_config()
            doc = build_document(collection, source, data, self._parser, config.chunking)
            index = self.handle.index
            index.ledger.apply_batch(SyncBatch(collection.name, upserts=(doc,)))
            resolve_pending(index.links)
            stored = index.memory.facts([(collection.name, rel_path)])[(collection.name, rel_path)]
        except (GnoError, KeyError) as exc:
            message = exc.message if isinstance(exc, GnoError) else "the record was not stored"
            raise memory_error(
                "MEMORY_SYNC_FAILED",
                f"Wrote {source.abs_path} but could not index it: {message}. Run `gno update`",
                path=source.abs_path,
            ) from exc
        return RememberResult(
            outcome="superseded" if supersedes else "added",
            record=self._view(stored),
            abs_path=source.abs_path,
            sync=MemorySync(status="completed"),
            matching=matching,
        )

    def _rendered(self, record: FactRecord, rel_path: str) -> bytes:
        """The bytes of ``record``'s file, once they read back (as ingest reads them) as the
        same record; ``MEMORY_TEXT_INVALID`` otherwise, before anything is written."""
        text = render_fact(record)
        try:
            data = text.encode("utf-8")
            yaml, body = split_frontmatter(canonicalize(text))
            front = dict(self._parser.parse(yaml)) if yaml is not None else None
            back = read_fact(front, body, rel_path)
        except (GnoError, UnicodeError) as exc:
            back = InvalidFact("MEMORY_FRONTMATTER_INVALID", str(exc))
        if back != record:
            problem = back.message if isinstance(back, InvalidFact) else "it reads back changed"
            raise memory_error(
                "MEMORY_TEXT_INVALID",
                f"This fact cannot be stored as a fact file: {problem}",
                field="record",
            )
        return data

    def _predecessor(self, checked: _Checked, request: RememberRequest) -> str:
        uri = request.predecessor_uri or ""
        try:
            ref = parse_uri(uri)
        except ValidationError as exc:
            raise memory_error(
                "MEMORY_PREDECESSOR_NOT_FOUND", f"Not a fact URI: {uri}", predecessorUri=uri
            ) from exc
        key = (ref.collection or "", ref.rel_path or "")
        memory = self.handle.index.memory
        fact = memory.facts([key]).get(key) if key[0] == checked.collection.name else None
        if fact is None or not set(fact.record.scopes) & set(checked.scopes):
            # A fact of another scope is not there for this caller: superseding it would empty
            # a recall the caller cannot see.
            raise memory_error(
                "MEMORY_PREDECESSOR_NOT_FOUND",
                f"No fact at {uri} in {checked.collection.name} in scope "
                f"{', '.join(checked.scopes)}",
                predecessorUri=uri,
            )
        if fact.record.content_hash != request.predecessor_hash:
            raise memory_error(
                "MEMORY_PREDECESSOR_HASH_MISMATCH",
                "The predecessor changed since it was recalled: recall it again",
                predecessorUri=uri,
                contentHash=fact.record.content_hash,
            )
        if fact.superseded or memory.successors(*key):
            raise memory_error(
                "MEMORY_SUPERSEDE_CONFLICT",
                f"{uri} was already superseded: recall the current fact and supersede that",
                predecessorUri=uri,
            )
        return make_uri(key[0], key[1], self.handle.name)

    def _view(self, fact: StoredFact) -> FactView:
        doc = self.handle.index.documents.get_document(fact.collection, fact.rel_path)
        record = fact.record
        if doc is None:  # the fact was read from this document a moment ago
            raise memory_error("MEMORY_QUERY_FAILED", f"{fact.rel_path} is no longer indexed")
        return FactView(**fact_fields(record, doc, self.handle.uri(doc)))


def _cosine(a: Vector, b: Vector) -> float:
    na, nb = math.sqrt(dot(a, a)), math.sqrt(dot(b, b))
    return dot(a, b) / (na * nb) if na and nb else 0.0
