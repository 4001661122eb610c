"""``similar`` edges of the graph (``gno_graph`` with ``includeSimilar``): for each node, the
nodes nearest its document vector (the unit mean of its chunk vectors, as ``gno_similar`` uses),
at or above ``threshold``, at most ``similarTopK`` per node.

Bounded and deterministic:

* only nodes of the projection are linked (the node limit holds), within one collection (as
  ``gno_similar`` by default), and a pair is one edge (the higher score of its two directions,
  the smaller key as its source);
* at most ``NODE_BUDGET`` nodes (URI order) take part: their chunk vectors are read once (one
  read per node) and their document vectors compared pairwise, exactly (no approximate index);
  past the budget the answer says ``similarTruncatedByComputeBudget``;
* the edges fill what the link edges leave of ``edgeLimit``, strongest first (ties by keys).

Without an embedding model, or with no vectors for it, there are no similar edges and a warning
says why (``similarAvailable: false``); the link graph is answered as usual.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from operator import mul
from typing import Any

from gno_core.domain import DocRef
from gno_core.links.graph_projection import Key
from gno_core.ports.embedder import Embedder, Vector
from gno_core.ports.index import Index
from gno_core.retrieval.vector import distance_score, mean_vector

__all__ = ["NODE_BUDGET", "SimilarEdges", "similar_edges"]

#: Nodes that take part in similar edges (URI order): their document vectors are read once
#: and compared pairwise within a collection, so the work grows with its square.
NODE_BUDGET = 250


@dataclass(slots=True)
class SimilarEdges:
    """What the similar stage adds to a graph answer."""

    links: list[dict[str, Any]] = field(default_factory=list)  # wire dicts, as graph links
    available: bool = False
    truncated_by_budget: bool = False
    warnings: list[str] = field(default_factory=list)


def similar_edges(
    index: Index,
    embedder: Embedder | None,
    nodes: Mapping[Key, DocRef],
    ids: Mapping[Key, str],
    *,
    threshold: float,
    top_k: int,
    room: int,
) -> SimilarEdges:
    """Similar edges among ``nodes`` (``ids``: their graph ids), at most ``room`` of them."""
    out = SimilarEdges()
    if embedder is None:
        out.warnings.append("similar edges skipped: no embedding model available")
        return out
    fingerprint = embedder.fingerprint
    if not index.vectors.has_vectors(fingerprint):
        out.warnings.append(
            f"similar edges skipped: no vectors for {embedder.model_id} (run gno embed)"
        )
        return out
    out.available = True
    order = sorted(nodes)
    if len(order) > NODE_BUDGET:
        out.truncated_by_budget = True
        out.warnings.append(
            f"similar edges among the first {NODE_BUDGET} of {len(order)} nodes only "
            "(compute budget)"
        )
        order = order[:NODE_BUDGET]
    docs = {
        (d.collection, d.rel_path): d
        for d in index.documents.get_documents([(k[0], k[1]) for k in order])
    }
    # One read of each node's chunk vectors; the document vector is their unit mean.
    unit: dict[Key, Vector] = {}
    for key in order:
        doc = docs.get(key)
        if doc is not None:
            vectors = [v for _, v in index.vectors.chunk_vectors(doc.mirror_hash, fingerprint)]
            if vectors:
                unit[key] = mean_vector(vectors)
    keys = list(unit)
    near: dict[Key, list[tuple[float, Key]]] = {k: [] for k in keys}
    for i, a in enumerate(keys):
        va = unit[a]
        for b in keys[i + 1 :]:
            if a[0] != b[0]:
                continue
            # Unit vectors: cosine distance 1 - dot, scored as ``gno_similar`` scores it.
            score = round(distance_score(1.0 - sum(map(mul, va, unit[b]))), 6)
            if score >= threshold and score > 0:
                near[a].append((score, b))
                near[b].append((score, a))
    best: dict[tuple[Key, Key], float] = {}
    for key, found in near.items():
        for score, other in sorted(found, key=lambda item: (-item[0], item[1]))[:top_k]:
            pair = (key, other) if key < other else (other, key)
            best[pair] = score
    ranked = sorted(best.items(), key=lambda item: (-item[1], item[0]))
    if len(ranked) > room:
        out.warnings.append(
            f"{len(ranked) - max(room, 0)} similar edges left out by the edge limit"
        )
    out.links = [
        {
            "source": ids[a],
            "target": ids[b],
            "type": "similar",
            "weight": score,
            "confidence": "similarity",
            "audit": {"resolution": "similarity", "matchCount": 1},
        }
        for (a, b), score in ranked[: max(room, 0)]
    ]
    return out
