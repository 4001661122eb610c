"""Graph expansion for hybrid retrieval: one hop along resolved links from the top fused results.

The ``SEEDS`` best fused documents are the seeds. One ``LinkStore.adjacent`` read returns every
resolved link with an end among them (outgoing links and backlinks alike). Each other end is a
candidate, scored by how sure its link is and how good the seed it hangs off was::

    score(candidate) = min(1, sum over seeds s of  confidence weight(s, candidate) / rank(s))

with the confidence weights explicit 1.0, inferred 0.65, ambiguous 0.35 (the strongest link
between a seed and the candidate counts once). Candidates are ranked by score (ties by key), cut
to ``min(MAX_CANDIDATES, candidateLimit)``, and become one more fused leg, ``graph``, of weight
``WEIGHT_GRAPH`` whose share for a candidate is also scaled by its score. The caller fuses again.

A candidate must pass the search's filters like any other hit. The collection and path filters
are checked on the link's end; the others (tags, dates, categories, author, language, excluded
terms, memory scopes) need what only the indexes evaluate, so under them the graph only lifts
documents the other legs already retrieved and adds none.

On an index without links (or when no top result has a resolved link) nothing is added and the
ranking is exactly the one without the graph stage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from gno_core.domain import AMBIGUOUS, EXPLICIT, INFERRED, DocRef, SearchFilters, StoredDocument
from gno_core.ports.documents import DocumentStore
from gno_core.ports.links import LinkStore
from gno_core.retrieval.fusion import Leg
from gno_core.retrieval.ranked import GraphVia
from gno_core.retrieval.results import doc_key

__all__ = [
    "CONFIDENCE_WEIGHTS",
    "MAX_CANDIDATES",
    "SEEDS",
    "WEIGHT_GRAPH",
    "GraphExpansion",
    "expand",
]

SEEDS = 5
MAX_CANDIDATES = 20
WEIGHT_GRAPH = 0.8
CONFIDENCE_WEIGHTS: Mapping[str, float] = {EXPLICIT: 1.0, INFERRED: 0.65, AMBIGUOUS: 0.35}


@dataclass(slots=True)
class GraphExpansion:
    """What the graph stage did; ``leg`` is None when it added nothing."""

    seeds: list[str] = field(default_factory=list)
    leg: Leg | None = None
    via: dict[str, GraphVia] = field(default_factory=dict)  # kept candidates only
    found: int = 0  # distinct candidates before the cap
    added: dict[str, StoredDocument] = field(default_factory=dict)  # new to the run
    confidence: dict[str, int] = field(default_factory=dict)  # kept candidates by confidence
    restricted: bool = False  # filters that only the indexes evaluate were set

    def summary(self, cap: int) -> str:
        """The explain line: ``seeds=…, candidates=kept/found, explicit/inferred/ambiguous/…``."""
        counts = "/".join(str(self.confidence.get(c, 0)) for c in CONFIDENCE_WEIGHTS)
        text = (
            f"seeds={len(self.seeds)}, candidates={len(self.via)}/{self.found} (cap {cap}), "
            f"explicit/inferred/ambiguous/similarity={counts}/0, "
            f"{len(self.added)} new, {len(self.via) - len(self.added)} already retrieved"
        )
        if self.restricted:
            text += "; filters the link graph cannot check: only retrieved documents lifted"
        return text


def expand(
    links: LinkStore,
    documents: DocumentStore,
    ranked: Sequence[str],
    docs: Mapping[str, StoredDocument],
    filters: SearchFilters,
    cap: int,
) -> GraphExpansion:
    """One hop from the first ``SEEDS`` of ``ranked`` (fused keys, best first; ``docs`` maps
    every retrieved key to its document)."""
    out = GraphExpansion(seeds=list(ranked[:SEEDS]), restricted=not _link_checkable(filters))
    if not out.seeds or cap <= 0:
        return out
    seed_rank = {key: i for i, key in enumerate(out.seeds, 1)}
    refs = [(docs[k].collection, docs[k].rel_path) for k in out.seeds]
    # Per candidate, per seed: the strongest link (weight, confidence, direction).
    best: dict[str, dict[str, tuple[float, str, str]]] = {}
    ends: dict[str, DocRef] = {}
    for edge in links.adjacent(refs):
        for seed, other, direction in (
            (_key(edge.source), edge.target, "out"),
            (_key(edge.target), edge.source, "in"),
        ):
            other_key = _key(other)
            if seed not in seed_rank or other_key == seed:
                continue
            weight = CONFIDENCE_WEIGHTS.get(edge.confidence, 0.0)
            if weight <= 0:
                continue
            per_seed = best.setdefault(other_key, {})
            if seed not in per_seed or weight > per_seed[seed][0]:
                per_seed[seed] = (weight, edge.confidence, direction)
            ends[other_key] = other
    scored: list[tuple[float, str, GraphVia]] = []
    for other_key, per_seed in best.items():
        if other_key not in docs and (out.restricted or not _in_scope(ends[other_key], filters)):
            continue
        score = min(1.0, sum(w / seed_rank[s] for s, (w, _, _) in per_seed.items()))
        seed, (_, confidence, direction) = min(
            per_seed.items(), key=lambda item: (-item[1][0] / seed_rank[item[0]], item[0])
        )
        via = GraphVia(seed, seed_rank[seed], confidence, direction, round(score, 6))
        scored.append((score, other_key, via))
    out.found = len(scored)
    scored.sort(key=lambda item: (-item[0], item[1]))
    kept = scored[:cap]
    new = [(ends[k].collection, ends[k].rel_path) for _, k, _ in kept if k not in docs]
    fetched = {doc_key(d): d for d in documents.get_documents(new)} if new else {}
    for _, key, via in kept:
        if key not in docs:
            if key not in fetched:  # gone since the link was read
                continue
            out.added[key] = fetched[key]
        out.via[key] = via
        out.confidence[via.confidence] = out.confidence.get(via.confidence, 0) + 1
    if out.via:
        keys = list(out.via)
        out.leg = Leg("graph", WEIGHT_GRAPH, keys, scales={k: out.via[k].score for k in keys})
    return out


def _key(ref: DocRef) -> str:
    return f"{ref.collection}/{ref.rel_path}"


def _link_checkable(filters: SearchFilters) -> bool:
    """Whether every filter set can be checked on a link's end (collection and path only)."""
    return (
        not filters.tags_all
        and not filters.tags_any
        and filters.since_ns is None
        and filters.until_ns is None
        and not filters.categories
        and not filters.author
        and not filters.lang
        and not filters.exclude_terms
        and filters.memory_scopes is None
        and filters.metadata is None
    )


def _in_scope(ref: DocRef, filters: SearchFilters) -> bool:
    if filters.collections is not None and ref.collection not in filters.collections:
        return False
    return not filters.path_prefix or ref.rel_path.startswith(filters.path_prefix)
