"""Context Capsule compilation: retrieval, candidates, selection under one budget, the
canonical payload and its id.

1. Retrieval is the hybrid pipeline over the requested scope, with the index snapshot
   fingerprint taken before and after it (a sync in between is an error, not a mixed capsule).
2. Candidates are whole-line spans of the retrieved documents' canonical mirrors: paragraphs
   (fenced code kept whole) merged up to ``BLOCK_CHARS``, each with its ``passageHash``.
   Only spans that mention a facet, or hold the result's snippet line, are candidates.
3. Selection drops exact duplicates (``duplicate``) and spans overlapping an earlier one of the
   same document (``overlap``), then greedily takes the span whose section answers the goal
   best (``selection._priority``: uncovered facets it adds, facets its heading path names,
   facets its whole section covers, how much of its heading is the goal's words, new
   sections and documents first; tables of contents and release notes last). Once every
   facet is covered it keeps taking spans from sections that answer on their own, so a
   larger budget buys more distinct evidence; others are ``redundant_coverage``. A document
   may not fill more than 3/5 of the spendable bytes when several compete
   (``document_share_cap``). Every step re-serialises the complete canonical payload and
   keeps the span only if both budgets still hold, after shedding the capsule's own detail
   (``payload.SHED_LEVELS``: the omission items, then the passages' descriptive fields) and,
   for the first passage or one adding a facet, cutting it to the whole lines that fit
   (``global_budget`` otherwise).
4. The payload's own numbers (used tokens and bytes) and its id are fixed last: used bytes are
   exact; used tokens count the id and the two numbers at their worst case, so the count of the
   final bytes is never above what the capsule says it used.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from gno_core.errors import ContextError, GnoError
from gno_core.evidence.answering import SectionSignals, is_navigation, section_signals
from gno_core.evidence.canonical import content_id
from gno_core.evidence.facets import covers, derive_facets, facet_words, stems_of, word_forms
from gno_core.evidence.frame import (
    budget_of,
    capsule_frame,
    query_request,
    retrieval_query,
    with_estimator,
)
from gno_core.evidence.sections import Section, parse_sections
from gno_core.evidence.selection import Candidate, Omitted, capsule_id, evidence_id, select
from gno_core.evidence.spans import blocks, headings, relevant_chunks
from gno_core.identity import parse_ref
from gno_core.retrieval.vector import content_words
from gno_core.text.words import words_of

if TYPE_CHECKING:
    from gno_core.contracts.evidence_requests import ContextRequest
    from gno_core.contracts.search import SearchResults
    from gno_core.domain import StoredDocument
    from gno_core.index_handle import IndexHandle
    from gno_core.ports import SemanticModels, TokenCounter
    from gno_core.retrieval.modes import Retrieval

# The names other modules and tests import from here.
__all__ = ["CapsuleCompiler", "ContextError", "capsule_id", "evidence_id"]

MIRROR_CACHE = 256


class CapsuleCompiler:
    """Compiles capsules over one index (``Gno.context``)."""

    def __init__(
        self,
        handle: IndexHandle,
        retrieval: Retrieval,
        models: SemanticModels,
        counter: TokenCounter | None,
    ) -> None:
        self.handle = handle
        self.retrieval = retrieval
        self.models = models
        self.counter = counter
        # Mirrors are content-addressed, so their lines and headings never go stale.
        self._structure: dict[str, tuple[list[str], list[str | None], list[Section]]] = {}

    # -- public ------------------------------------------------------------------------------

    def compile(self, request: ContextRequest) -> dict[str, Any]:
        """The canonical capsule as a JSON-ready dict (no ``None`` anywhere)."""
        budget = with_estimator(budget_of(request), self.tokenizer_fingerprint)
        collections = self._collections(request)
        if request.uri_prefix is not None and not request.uri_prefix.startswith("gno://"):
            raise ContextError("invalid_uri", "uriPrefix must be a gno:// URI prefix")
        facets = derive_facets(request.goal)
        if not facets:
            raise ContextError("invalid_goal", "The goal has no words to gather evidence for")
        hybrid_request = query_request(request)
        before = self.snapshot()
        try:
            results = self.retrieval.hybrid(hybrid_request, tuple(collections) or None)
        except GnoError as exc:
            if exc.code == "NOT_FOUND":
                raise ContextError("invalid_filter", exc.message) from exc
            if exc.code == "VALIDATION":
                raise ContextError("invalid_input", exc.message) from exc
            raise ContextError("retrieval_failed", f"Retrieval failed: {exc.message}") from exc
        candidates, omitted = self._candidates(request, results, facets)
        policies = self._egress_policies()
        for cand in candidates:
            if policies is not None:
                # A collection gno holds no policy for is local_only (fail closed).
                cand.egress = policies.get(cand.doc.collection, "local_only")
        after = self.snapshot()
        if after != before:
            raise ContextError(
                "retrieval_failed",
                "The index changed while the capsule was compiled; compile it again",
            )
        frame = capsule_frame(
            request,
            results,
            facets,
            (self.handle.name, collections),
            before,
            budget,
            config_fingerprint=self.config_fingerprint(collections),
            models=self.models,
            counter=self.counter,
            egress_policy=policies is not None,
        )
        words = frozenset(content_words(retrieval_query(request)))
        wanted = {f: facet_words(f) for f in facets}
        stems = stems_of(list(wanted.values()))

        def shrink(cand: Candidate, lines: int) -> Candidate:
            text = "\n".join(cand.text.split("\n")[:lines])
            present = word_forms(words_of(text), stems)
            return replace(
                cand,
                end=cand.start + lines - 1,
                text=text,
                facets=frozenset(f for f, fw in wanted.items() if covers(fw, present)),
                relevance=len(words & present),
                floor=None,
            )

        return select(frame, candidates, omitted, facets, budget, self._count, shrink)

    def _egress_policies(self) -> dict[str, str] | None:
        """The effective egress policy of every configured collection, or None when the
        policy store cannot be read (the evidence then says ``unavailable``)."""
        from gno_core.egress_control.capability import EgressControl

        try:
            return {s.collection: s.policy for s in EgressControl(self.handle).sources()}
        except GnoError:
            return None

    def snapshot(self) -> str:
        """The index snapshot fingerprint: every active document's path and mirror hash, so
        any content change (and nothing else) moves it."""
        docs = self.handle.index.documents.list_documents()
        return content_id([[d.collection, d.rel_path, d.mirror_hash] for d in docs])

    def config_fingerprint(self, collections: list[str]) -> str:
        config = self.handle.load_config()
        scoped = [
            c.model_dump(mode="json")
            for c in config.collections
            if not collections or c.name in collections
        ]
        return content_id({"collections": scoped, "chunking": config.chunking.model_dump()})

    @property
    def tokenizer_fingerprint(self) -> str | None:
        return self.counter.fingerprint if self.counter is not None else None

    # -- steps -------------------------------------------------------------------------------

    def _count(self, text: str) -> int:
        if self.counter is None:
            # Every token of every tokenizer covers at least one byte: a safe upper bound.
            return len(text.encode("utf-8"))
        return self.counter.count(text)

    def _collections(self, request: ContextRequest) -> list[str]:
        config = self.handle.load_config()
        names: list[str] = []
        for raw in request.collections:
            found = config.collection(raw)
            if found is None:
                known = [c.name for c in config.collections]
                raise ContextError(
                    "invalid_filter",
                    f"Collection not found: {raw} {config.known_collections()}",
                    collection=raw,
                    available=known,
                )
            names.append(found.name)
        return sorted(dict.fromkeys(names))

    def _candidates(
        self, request: ContextRequest, results: SearchResults, facets: tuple[str, ...]
    ) -> tuple[list[Candidate], list[Omitted]]:
        store = self.handle.index.documents
        docs: list[tuple[int, str, StoredDocument, int | None]] = []
        omitted: list[Omitted] = []
        for rank, hit in enumerate(results.results, 1):
            if request.uri_prefix is not None and not hit.uri.startswith(request.uri_prefix):
                omitted.append(Omitted("filtered_by_scope", uri=hit.uri, rank=rank))
                continue
            ref = parse_ref(hit.uri)
            assert ref.collection is not None and ref.rel_path is not None
            doc = store.get_document(ref.collection, ref.rel_path)
            if doc is None:
                omitted.append(Omitted("invalid_coordinates", uri=hit.uri, rank=rank))
                continue
            docs.append((rank, hit.uri, doc, hit.line))
        chunks_of = store.chunks_for([d.mirror_hash for _, _, d, _ in docs])
        words = frozenset(content_words(retrieval_query(request)))
        wanted = {f: facet_words(f) for f in facets}
        stems = stems_of(list(wanted.values()))
        out: list[Candidate] = []
        for rank, uri, doc, line in docs:
            structure = self._mirror(doc.mirror_hash)
            chunks = chunks_of.get(doc.mirror_hash, ())
            if structure is None or not chunks:
                omitted.append(Omitted("invalid_coordinates", uri=uri, rank=rank))
                continue
            lines, headings, sections = structure
            if any(c.end_line > len(lines) or c.start_line < 1 for c in chunks):
                omitted.append(Omitted("invalid_coordinates", uri=uri, rank=rank))
                continue
            signals: dict[int, SectionSignals] = {}
            for start, end in blocks(lines, relevant_chunks(chunks, words, line)):
                text = "\n".join(lines[start - 1 : end])
                present = word_forms(words_of(text), stems)
                covered = frozenset(f for f, fw in wanted.items() if covers(fw, present))
                holds_anchor = line is not None and start <= line <= end
                if not covered and not holds_anchor:
                    continue
                around = [s for s in sections if s.line <= start <= s.end_line]
                inner = around[-1] if around else None
                at = inner.line if inner is not None else 0
                if at not in signals:  # one section's signals serve all its blocks
                    signals[at] = section_signals(
                        uri,
                        doc.rel_path,
                        doc.meta.title,
                        lines,
                        inner,
                        tuple(s.title for s in around),
                        wanted,
                        stems,
                    )
                out.append(
                    Candidate(
                        doc=doc,
                        uri=uri,
                        rank=rank,
                        start=start,
                        end=end,
                        text=text,
                        heading=headings[start - 1],
                        facets=covered,
                        relevance=len(words & present),
                        section=signals[at],
                        navigation=is_navigation(lines[start - 1 : end], headings[start - 1]),
                    )
                )
        return out, omitted

    def _mirror(self, mirror_hash: str) -> tuple[list[str], list[str | None], list[Section]] | None:
        found = self._structure.get(mirror_hash)
        if found is None:
            markdown = self.handle.index.documents.markdown(mirror_hash)
            if markdown is None:
                return None
            lines = markdown.split("\n")
            if len(self._structure) >= MIRROR_CACHE:
                self._structure.pop(next(iter(self._structure)))
            found = (lines, headings(lines), parse_sections(lines))
            self._structure[mirror_hash] = found
        return found
