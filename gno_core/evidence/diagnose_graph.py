"""The graph stage of a query diagnosis: did the target come in (or get lifted) as a one-hop
neighbour of a top fused result (``retrieval/graph_expansion.py``), and if not, why."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from gno_core.identity import make_uri

if TYPE_CHECKING:
    from gno_core.contracts import ExplainLine
    from gno_core.domain import StoredDocument
    from gno_core.index_handle import IndexHandle

Stage = Callable[..., dict[str, Any]]


def graph_stage(
    handle: IndexHandle,
    doc: StoredDocument,
    top: list[str],
    explain: Sequence[ExplainLine],
    stage: Stage,
) -> dict[str, Any]:
    """``explain``: the lines of the fused (unreranked) run; ``top``: the URIs returned within
    the limit; ``stage`` builds the stage record."""
    uri = make_uri(doc.collection, doc.rel_path, handle.name)
    line = next((e.message for e in explain if e.stage == "graph"), "skipped")
    lifted = [e for e in explain if e.stage == "result" and "graphRank" in (e.scores or {})]
    mine = next((e for e in lifted if e.uri == uri), None)
    incoming = handle.index.links.incoming(doc.collection, doc.rel_path)
    sources = {make_uri(r.source.collection, r.source.rel_path, handle.name) for r in incoming}
    linking = f"{len(sources)} note(s) link to it, {len(sources & set(top))} of them top results"
    if line.startswith("skipped"):
        return stage(
            "graph", "skipped", 0, False, None, None, False, "skipped", f"{line}; {linking}"
        )
    if mine is not None and mine.scores is not None:
        why = mine.message.split("graph: ", 1)[-1].split(",", 1)[0].split(" -> ", 1)[0]
        return stage(
            "graph",
            "active",
            len(lifted),
            True,
            int(mine.scores["graphRank"]),
            mine.scores["graphScore"],
            True,
            None,
            f"graph candidate: {why}",
        )
    return stage(
        "graph",
        "active",
        len(lifted),
        False,
        None,
        None,
        False,
        "not_in_candidate_set",
        f"not one hop from the top fused results ({line.split(' (cap', 1)[0]}); {linking}",
    )
