"""Hybrid retrieval (``query``): BM25 and vector legs fused with RRF, then rerank and assembly.

1. Depth: ``fast`` (no expansion, no rerank), balanced (rerank when a model is present),
   ``thorough`` (expansion, rerank over 40 candidates).
2. Legs over the same eligible set (filters apply before every limit): the query's BM25 and
   vector legs (weight 2.0 each), one BM25 leg per ``term`` mode (0.5), one vector leg for the
   ``hyde`` passage (0.7), and the expansion leg when expansion runs (0.5).
3. Reciprocal rank fusion (k = 60) with the top-rank bonus; documents are the unit. Unless
   ``fast``, ``graph: false`` or ``noGraph``, one hop along links from the top five fused
   documents adds a ``graph`` leg (0.8, see ``graph_expansion``) and the legs are fused again.
4. Rerank of the top ``candidateLimit`` candidates by a cross-encoder, blended by position; the
   original BM25 leg's first hit stays first.
5. ``minScore``, the limit, and one snippet per document with its line anchor.

``hits`` ranks plain values (what ``gno query`` prints); ``query`` turns them into the
``search-results@1.0`` contract, whose pydantic classes only load when something asks for it.

Degradation follows the spec: no embedder or no vectors gives ``mode: bm25_only`` with
``vectorsUsed: false``; no reranker (or a failing one) gives ``reranked: false``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from gno_core.errors import GnoError
from gno_core.read_values import SearchFilters, StoredDocument
from gno_core.retrieval import expansion
from gno_core.retrieval import rerank as rr
from gno_core.retrieval.coverage import vector_gap
from gno_core.retrieval.filters import metadata_excluded
from gno_core.retrieval.fusion import (
    RRF_K,
    TOP_RANK_BONUS,
    WEIGHT_BM25,
    WEIGHT_BM25_VARIANT,
    WEIGHT_HYDE,
    WEIGHT_VECTOR,
    Fused,
    Leg,
    fuse,
)
from gno_core.retrieval.query import parse_query, read_query
from gno_core.retrieval.ranked import RankedHit
from gno_core.retrieval.results import (
    HybridHits,
    HybridRun,
    Note,
    ResultBuilder,
    chunk_passage,
    clamp01,
    doc_key,
    hybrid_results,
    receipt,
)
from gno_core.retrieval.snippets import best_passage
from gno_core.retrieval.vector import content_words
from gno_core.text.dates import parse_document_date
from gno_core.text.words import words_of

if TYPE_CHECKING:
    from gno_core.contracts import SearchResults
    from gno_core.ports.embedder import Embedder
    from gno_core.ports.index import Index
    from gno_core.ports.reranker import Reranker
    from gno_core.retrieval import graph_expansion as ge
    from gno_core.retrieval.inputs import QueryAsk

MIN_POOL = 40
VARIANT_MIN_POOL = 20
POST_FILTER_FACTOR = 3


class HybridSearch:
    """``query`` over one index, with an optional embedder and reranker."""

    __slots__ = ("embedder", "index", "now_ns", "reranker", "results")

    def __init__(
        self,
        index: Index,
        embedder: Embedder | None,
        reranker: Reranker | None,
        results: ResultBuilder,
        now_ns: Callable[[], int],
    ) -> None:
        self.index, self.embedder, self.reranker = index, embedder, reranker
        self.results, self.now_ns = results, now_ns

    def query(
        self, request: QueryAsk, filters: SearchFilters, *, recency: bool = False
    ) -> SearchResults:
        """``hits`` as the ``search-results@1.0`` contract."""
        return hybrid_results(request, filters, self.hits(request, filters, recency=recency))

    def hits(self, request: QueryAsk, filters: SearchFilters, *, recency: bool) -> HybridHits:
        """The ranked documents of ``request`` over the eligible set ``filters``."""
        started = self.now_ns()
        run = HybridRun()
        depth = "fast" if request.fast else "thorough" if request.thorough else "balanced"
        window = request.candidate_limit or (
            rr.THOROUGH_WINDOW if depth == "thorough" else rr.DEFAULT_WINDOW
        )
        post_filter = bool(request.exclude) or recency
        pool = max(2 * request.limit, window, MIN_POOL) * (POST_FILTER_FACTOR if post_filter else 1)
        variant_pool = max(request.limit, VARIANT_MIN_POOL)
        want_expand = (
            request.expand if request.expand is not None else depth == "thorough"
        ) and not (request.fast or request.query_modes)
        run.note(
            "depth",
            f"{depth}: candidateLimit {window}, pool {pool}, rerank "
            f"{'requested' if request.rerank and depth != 'fast' else 'off'}, expansion "
            f"{'requested' if want_expand else 'off'}",
        )
        terms = [m.text for m in request.query_modes if m.mode == "term"]
        hyde = next((m.text for m in request.query_modes if m.mode == "hyde"), None)
        intents = [
            request.intent or "",
            *(m.text for m in request.query_modes if m.mode == "intent"),
        ]
        intent = "\n".join(t for t in intents if t) or None

        reading = read_query(request.query)
        lexical_query = reading.query
        for how in reading.notes:
            run.note("query", how)
        bm25_keys = self._bm25_leg(run, "bm25", lexical_query.raw, filters, pool, WEIGHT_BM25)
        for i, text in enumerate(terms, 1):
            self._bm25_leg(run, f"term{i}", text, filters, variant_pool, WEIGHT_BM25_VARIANT)
        vectors_used = self._vector_legs(run, request.query, hyde, filters, pool, variant_pool)
        expanded = False
        if want_expand:
            expanded = self._expansion_leg(run, request.query, bm25_keys, filters, variant_pool)
        else:
            run.note("expansion", "skipped" + (": queryModes given" if request.query_modes else ""))
        fused = self._fuse(run, request.exclude)
        graph = None
        if request.graph and not request.no_graph and depth != "fast":
            graph = self._graph(run, fused, filters, window)
            if graph.leg is not None:
                fused = self._fuse(run, request.exclude)
        else:
            off = "fast" if depth == "fast" else "not requested" if request.graph is None else "off"
            run.note("graph", f"skipped: {off}")
        ceiling = sum(leg.weight / (RRF_K + 1) for leg in run.legs if leg.keys) + TOP_RANK_BONUS
        run.note(
            "fusion",
            f"RRF k={RRF_K}, {len(fused)} unique from "
            + ", ".join(f"{leg.name}({leg.weight:g})" for leg in run.legs),
        )

        scores = [f.score / ceiling for f in fused]
        parts: dict[str, dict[str, float]] = {f.key: {"fusion": f.score} for f in fused}
        reranked = False
        if request.rerank and depth != "fast" and fused:
            blended = self._rerank(run, request.query, intent, fused, window, parts)
            if blended is not None:
                reranked = True
                scores = blended
                if bm25_keys:
                    scores = rr.keep_top_first(fused, scores, bm25_keys[0])
        elif depth == "fast":
            run.note("rerank", "skipped: fast")
        elif not request.rerank:
            run.note("rerank", "skipped: rerank disabled")
        order = sorted(range(len(fused)), key=lambda i: (-scores[i], i))
        if recency:
            order.sort(key=lambda i: -self._doc_time(run.docs[fused[i].key]))

        words = tuple(
            dict.fromkeys(
                [*lexical_query.positive_words(), *(w for t in terms for w in words_of(t))]
            )
        )
        intent_words = content_words(intent) if intent else ()
        chosen: list[tuple[int, float]] = []
        for i in order:
            if len(chosen) >= request.limit:
                break
            score = min(1.0, max(0.0, scores[i]))
            if request.min_score is None or score >= request.min_score:
                chosen.append((i, score))
        # One read for the chunks of every result, not one per result.
        chunks_of = self.index.documents.chunks_for(
            [run.docs[fused[i].key].mirror_hash for i, _ in chosen]
        )
        out: list[RankedHit] = []
        receipts: list[Note] = []
        for i, score in chosen:
            entry = fused[i]
            doc = run.docs[entry.key]
            chunks = chunks_of.get(doc.mirror_hash, ())
            if entry.key in run.lexical:
                passage = best_passage(chunks, words, intent_words)
            else:
                passage = chunk_passage(chunks, run.vector_seq.get(entry.key), words, intent_words)
            uri = self.results.uri(doc)
            out.append(RankedHit(doc, round(clamp01(score), 6), uri, passage))
            if request.explain:
                via = graph.via.get(entry.key) if graph else None
                seed = (via, self.results.uri(run.docs[via.seed])) if via else None
                parts_of = parts[entry.key]
                receipts.append(receipt(len(out), uri, entry, parts_of, score, seed))
        run.timings["total"] = _ms(self.now_ns() - started)
        run.note("timing", ", ".join(f"{k} {v:.1f} ms" for k, v in run.timings.items()))
        return HybridHits(
            hits=out,
            vectors_used=vectors_used,
            expanded=expanded,
            reranked=reranked,
            candidate_limit=window,
            explain=[*run.explain, *receipts] if request.explain else None,
            gap=run.gap,
        )

    # -- legs ----------------------------------------------------------------------------------

    def _fuse(self, run: HybridRun, exclude: list[str]) -> list[Fused]:
        t0 = self.now_ns()
        fused = fuse(run.legs)
        if exclude:
            fused = [f for f in fused if not metadata_excluded(run.docs[f.key], exclude)]
        run.timings["fusion"] = run.timings.get("fusion", 0.0) + _ms(self.now_ns() - t0)
        return fused

    def _graph(
        self, run: HybridRun, fused: list[Fused], filters: SearchFilters, window: int
    ) -> ge.GraphExpansion:
        """One hop along links from the top fused results (``graph_expansion``), from at most
        ``window`` of them (and ``graph_expansion.MAX_CANDIDATES``)."""
        from gno_core.retrieval import graph_expansion as ge

        t0 = self.now_ns()
        keys = [f.key for f in fused]
        cap = min(window, ge.MAX_CANDIDATES)
        graph = ge.expand(self.index.links, self.index.documents, keys, run.docs, filters, cap)
        run.timings["graph"] = _ms(self.now_ns() - t0)
        run.docs.update(graph.added)
        if graph.leg is not None:
            run.legs.append(graph.leg)
        run.note("graph", graph.summary(cap))
        return graph

    def _bm25_leg(
        self,
        run: HybridRun,
        name: str,
        text: str,
        filters: SearchFilters,
        limit: int,
        weight: float,
    ) -> list[str]:
        t0 = self.now_ns()
        hits = self.index.lexical.search(parse_query(text), filters, limit)
        run.timings[name] = _ms(self.now_ns() - t0)
        keys = []
        for hit in hits:
            key = doc_key(hit.document)
            run.docs.setdefault(key, hit.document)
            run.lexical.add(key)
            keys.append(key)
        run.legs.append(Leg(name, weight, keys, primary=name == "bm25"))
        run.note(
            name, f"{len(keys)} hits (limit {limit})" + (f": {text}" if name != "bm25" else "")
        )
        return keys

    def _vector_legs(
        self,
        run: HybridRun,
        query: str,
        hyde: str | None,
        filters: SearchFilters,
        pool: int,
        variant_pool: int,
    ) -> bool:
        embedder = self.embedder
        if embedder is None:
            run.note("vector", "skipped: no embedding model available")
            return False
        fingerprint = embedder.fingerprint
        run.gap = vector_gap(self.index, fingerprint, filters.collections)
        if run.gap is not None:
            run.note("coverage", run.gap.message)
        if not self.index.vectors.has_vectors(fingerprint):
            run.note("vector", f"skipped: no vectors for {embedder.model_id} (run gno embed)")
            return False
        texts = [embedder.profile.query(query)]
        if hyde:
            texts.append(embedder.profile.document(hyde))
        t0 = self.now_ns()
        try:
            vectors = embedder.embed_batch(texts)
        except GnoError as exc:
            run.note("vector", f"skipped: query embedding failed ({exc.code}: {exc.message})")
            return False
        run.timings["embed"] = _ms(self.now_ns() - t0)
        for name, vector, limit, weight in (
            ("vector", vectors[0], pool, WEIGHT_VECTOR),
            ("hyde", vectors[1] if hyde else None, variant_pool, WEIGHT_HYDE),
        ):
            if vector is None:
                continue
            t0 = self.now_ns()
            hits = self.index.vectors.nearest(vector, fingerprint, filters, limit)
            run.timings[name] = _ms(self.now_ns() - t0)
            keys = []
            for hit in hits:
                key = doc_key(hit.document)
                run.docs.setdefault(key, hit.document)
                if name == "vector":
                    run.vector_seq[key] = hit.seq
                else:
                    run.vector_seq.setdefault(key, hit.seq)
                keys.append(key)
            run.legs.append(Leg(name, weight, keys, primary=name == "vector"))
            run.note(
                name,
                f"{len(keys)} hits (limit {limit}, {self.index.vectors.vector_backend}, "
                f"{embedder.model_id})",
            )
        return True

    def _expansion_leg(
        self,
        run: HybridRun,
        query: str,
        bm25_keys: list[str],
        filters: SearchFilters,
        limit: int,
    ) -> bool:
        top = [run.docs[k] for k in bm25_keys[: expansion.FEEDBACK_DOCS]]
        texts = [self.index.documents.markdown(d.mirror_hash) or "" for d in top]
        expanded = expansion.feedback_query(query, texts)
        if expanded is None:
            run.note("expansion", "skipped: not enough feedback from the keyword hits")
            return False
        self._bm25_leg(run, "expansion", expanded, filters, limit, WEIGHT_BM25_VARIANT)
        return True

    def _rerank(
        self,
        run: HybridRun,
        query: str,
        intent: str | None,
        fused: list[Fused],
        window: int,
        parts: dict[str, dict[str, float]],
    ) -> list[float] | None:
        """Blended scores in fused order, or None when no reranker could run."""
        reranker = self.reranker
        if reranker is None:
            run.note("rerank", "skipped: no reranker model available")
            return None
        words = content_words(query)
        intent_words = content_words(intent) if intent else ()
        head = fused[:window]
        chunks = self.index.documents.chunks_for([run.docs[f.key].mirror_hash for f in head])
        passages = [
            rr.rerank_passage(
                chunks.get(run.docs[f.key].mirror_hash, ()),
                words,
                intent_words,
                run.vector_seq.get(f.key),
            )
            for f in head
        ]
        t0 = self.now_ns()
        try:
            outcome = rr.rerank(
                reranker, rr.rerank_query(query, intent), [f.score for f in fused], passages
            )
        except GnoError as exc:
            run.note("rerank", f"skipped: reranker failed ({exc.code}: {exc.message})")
            return None
        run.timings["rerank"] = _ms(self.now_ns() - t0)
        for i, f in enumerate(fused):
            parts[f.key]["fusionNorm"] = outcome.fusion[i]
            raw, norm = outcome.raw[i], outcome.rerank[i]
            if raw is not None and norm is not None:
                parts[f.key]["rerank"] = raw
                parts[f.key]["rerankNorm"] = norm
        run.note(
            "rerank",
            f"{reranker.model_id}: {len(head)} candidates, {outcome.passages} passages, "
            "blended by position (1-3 0.75/0.25, 4-10 0.60/0.40, 11+ 0.40/0.60)",
        )
        return outcome.scores

    def _doc_time(self, doc: StoredDocument) -> int:
        return parse_document_date(doc.meta.date) or doc.source_mtime_ns


def _ms(ns: int) -> float:
    return max(0, ns) / 1e6
