"""Capsule selection under one budget: duplicates and overlaps out, then the sections that
answer first (with a per-document share cap), every step re-serialising the whole canonical
payload and shedding the capsule's own detail before a passage; the payload's used tokens and
bytes and its id fixed last (see ``gno_core.evidence.capsule``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.errors import ContextError
from gno_core.evidence.canonical import canonical_bytes
from gno_core.evidence.payload import (
    BYTE_ESTIMATOR,
    SHED_EVIDENCE_FIELDS,
    SHED_LEVELS,
    TOKENIZER_ESTIMATOR,
    Candidate,
    Omitted,
    PieceCounter,
    assemble,
    capsule_id,
    evidence_id,
    evidence_item,
    exact,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    Measure = Callable[[dict[str, Any]], int]

__all__ = [
    "BYTE_ESTIMATOR",
    "TOKENIZER_ESTIMATOR",
    "Candidate",
    "Omitted",
    "capsule_id",
    "evidence_id",
    "select",
]

SHARE_CAP = (3, 5)
FOCUS_WEIGHT = 4
NAVIGATION_PENALTY = 100
FLOOR_SLACK = 16
MAX_CUTS = 3
RELEASE_PENALTY = 50


def select(
    frame: dict[str, Any],
    candidates: list[Candidate],
    omitted: list[Omitted],
    facets: tuple[str, ...],
    budget: dict[str, Any],
    count: Callable[[str], int],
    shrink: Callable[[Candidate, int], Candidate] | None = None,
) -> dict[str, Any]:
    """The capsule: candidates taken best first while the whole payload fits; the capsule's
    own detail is shed (``SHED_LEVELS``) before a passage that adds an uncovered facet is
    left out; ``shrink(candidate, lines)`` cuts a candidate to its first ``lines`` lines, so
    a budget too small for any whole candidate still carries the start of the best one."""
    spend_bytes = budget["requestedBytes"] - budget["safetyMarginBytes"]
    pool = _distinct(candidates, omitted)
    # Trials are counted piece by piece (each passage once); the capsule returned, whole.
    fast, whole = PieceCounter(count), exact(count)
    several = len({c.uri for c in pool}) > 1
    share_cap = spend_bytes * SHARE_CAP[0] // SHARE_CAP[1] if several else None
    enough = max(1, (len(facets) + 1) // 2)
    uncovered = set(facets)
    chosen: list[Candidate] = []
    per_doc: dict[str, int] = {}
    level = 0
    # Before any passage: the bare capsule with every detail shed is the floor of all.
    bare = assemble(frame, [], [*omitted, *_pending(pool)], facets, fast, SHED_LEVELS, check=False)
    assert bare is not None
    floor = _floor(bare, count)
    gap_cost = {f: _gap_tokens(f, count) for f in facets}
    cuts_left = MAX_CUTS
    while pool:
        # A span adding no uncovered facet, from a section that does not answer the goal, never
        # will: out at once, not one per step.
        useless = [c for c in pool if not c.facets & uncovered and not _answers(c, enough)]
        if useless:
            omitted.extend(Omitted("redundant_coverage", c, rank=c.rank) for c in useless)
            out = {id(c) for c in useless}
            pool = [c for c in pool if id(c) not in out]
            if not pool:
                break
        sections = {c.section.key for c in chosen if c.section is not None}
        docs = {c.uri for c in chosen}
        best = max(pool, key=lambda c: _priority(c, uncovered, sections, docs))
        pool = [c for c in pool if c is not best]
        capped = share_cap is not None and per_doc.get(best.uri, 0) + best.size > share_cap
        if capped and chosen:  # the first passage is cut to the budget, never capped away
            omitted.append(Omitted("document_share_cap", best, rank=best.rank))
            continue
        # The capsule's own detail goes before a passage does: the omission items for any
        # passage, the passages' descriptive fields only for one the goal needs (it adds an
        # uncovered facet, or it is the first).
        top = SHED_LEVELS if (best.facets & uncovered or not chosen) else 1
        may_cut = shrink is not None and top == SHED_LEVELS and cuts_left > 0
        saved = sum(gap_cost[f] for f in best.facets & uncovered)
        over = _surely_over(best, floor, budget, count, saved)
        if over and not may_cut:
            omitted.append(Omitted("global_budget", best, rank=best.rank))
            continue
        pending = [*omitted, *_pending(pool)]
        fitted = None if over else _fit(frame, [*chosen, best], pending, facets, fast, level, top)
        if fitted is None and may_cut and shrink is not None:
            # Whole lines of the passage's start, if they still add what it was wanted for;
            # a few failed cuts say no passage will fit whole lines (each cut costs a search).
            cut = _shrunk(frame, chosen, best, pending, facets, fast, shrink)
            if cut is not None and (cut.facets & uncovered or not chosen):
                best = cut
                fitted = _fit(frame, [*chosen, best], pending, facets, fast, level, top)
            else:
                cuts_left -= 1
        if fitted is None:
            omitted.append(Omitted("global_budget", best, rank=best.rank))
            continue
        level, fitted_capsule = fitted
        floor = _floor(fitted_capsule, count)
        chosen.append(best)
        per_doc[best.uri] = per_doc.get(best.uri, 0) + best.size
        uncovered -= best.facets
    while True:
        for at in range(level, SHED_LEVELS + 1):
            final = assemble(frame, chosen, omitted, facets, whole, at)
            if final is not None:
                return final
        if len(chosen) == 1 and shrink is not None:
            # The audit came out longer than foreseen: the one passage is cut, not dropped.
            cut = _shrunk(frame, [], chosen[0], omitted, facets, whole, shrink)
            if cut is not None and cut.end < chosen[0].end:
                chosen = [cut]
                continue
        if not chosen:
            bare = assemble(frame, [], omitted, facets, whole, SHED_LEVELS, check=False)
            assert bare is not None
            # The bare capsule's own numbers (their digits) and its omission reasons move a
            # few tokens with the budget asked for: the minimum said has that slack.
            need = bare["budget"]["usedTokens"] + FLOOR_SLACK
            need_bytes = bare["budget"]["usedBytes"] + FLOOR_SLACK
            raise ContextError(
                "invalid_budget",
                f"The budget is smaller than the capsule's own fields (about {need} tokens, "
                f"{need_bytes} bytes with every optional detail shed, and no passage); raise "
                "budgetTokens (or budgetBytes)",
                requestedTokens=budget["requestedTokens"],
                requestedBytes=budget["requestedBytes"],
                minimumTokens=need,
                minimumBytes=need_bytes,
            )
        dropped = chosen.pop()
        omitted.append(Omitted("global_budget", dropped, rank=dropped.rank))


def _distinct(candidates: list[Candidate], omitted: list[Omitted]) -> list[Candidate]:
    """Candidates without exact duplicates (``duplicate``) and without spans overlapping an
    earlier one of the same document (``overlap``), in retrieval order."""
    pool: list[Candidate] = []
    seen_hashes: set[str] = set()
    kept_ranges: dict[str, list[tuple[int, int]]] = {}
    for cand in sorted(candidates, key=lambda c: (c.rank, c.start)):
        cand.item = evidence_item(cand)
        cand.size = len(canonical_bytes(cand.item))
        if cand.item["passageHash"] in seen_hashes:
            omitted.append(Omitted("duplicate", cand, rank=cand.rank))
            continue
        spans = kept_ranges.setdefault(cand.uri, [])
        if any(not (cand.end < s or cand.start > e) for s, e in spans):
            omitted.append(Omitted("overlap", cand, rank=cand.rank))
            continue
        seen_hashes.add(cand.item["passageHash"])
        spans.append((cand.start, cand.end))
        pool.append(cand)
    return pool


def _fit(
    frame: dict[str, Any],
    chosen: list[Candidate],
    omitted: list[Omitted],
    facets: tuple[str, ...],
    measure: Measure,
    level: int,
    top: int,
) -> tuple[int, dict[str, Any]] | None:
    """The lowest shed level from ``level`` to ``top`` at which this selection fits, with
    the capsule it makes."""
    for at in range(level, top + 1):
        capsule = assemble(frame, chosen, omitted, facets, measure, at)
        if capsule is not None:
            return at, capsule
    return None


def _floor(capsule: dict[str, Any], count: Callable[[str], int]) -> tuple[int, int]:
    """Tokens and bytes of ``capsule`` without its omission items: what any capsule with its
    passages and more holds at least (up to a few digits and facet names)."""
    items = capsule["omissions"]["items"]
    if not items:
        return capsule["budget"]["usedTokens"], capsule["budget"]["usedBytes"]
    text = canonical_bytes(items)
    return (
        capsule["budget"]["usedTokens"] - count(text.decode("utf-8")),
        capsule["budget"]["usedBytes"] - len(text),
    )


def _gap_tokens(facet: str, count: Callable[[str], int]) -> int:
    """What covering ``facet`` takes out of the capsule at most: its gap entry and its
    place in ``unresolvedFacets``, with their commas."""
    gap = canonical_bytes({"code": "global_budget_exhausted", "facet": facet})
    return count(gap.decode("utf-8")) + count(canonical_bytes(facet).decode("utf-8")) + 2


def _surely_over(
    cand: Candidate,
    floor: tuple[int, int],
    budget: dict[str, Any],
    count: Callable[[str], int],
    saved: int,
) -> bool:
    """True when one more passage cannot fit: the capsule so far without its omission items,
    plus the passage with its detail shed, less the gaps it would close (``saved``), is over
    a budget by more than ``FLOOR_SLACK`` (the digits, counts and warnings that taking it
    could save). Spares the whole-payload check for most of a large pool once the capsule is
    full, and for every candidate when the budget barely holds the capsule's own fields."""
    if cand.floor is None:
        lean = {k: v for k, v in cand.item.items() if k not in SHED_EVIDENCE_FIELDS}
        text = canonical_bytes(lean)
        cand.floor = (count(text.decode("utf-8")), len(text))
    tokens = floor[0] + cand.floor[0] - saved - FLOOR_SLACK + budget["safetyMarginTokens"]
    size = floor[1] + cand.floor[1] - FLOOR_SLACK + budget["safetyMarginBytes"]
    return bool(tokens > budget["requestedTokens"] or size > budget["requestedBytes"])


def _shrunk(
    frame: dict[str, Any],
    chosen: list[Candidate],
    cand: Candidate,
    omitted: list[Omitted],
    facets: tuple[str, ...],
    measure: Measure,
    shrink: Callable[[Candidate, int], Candidate],
) -> Candidate | None:
    """The longest prefix of ``cand`` (whole lines) that fits after ``chosen`` with all
    detail shed."""
    low, high, best = 1, cand.end - cand.start, None
    while low <= high:
        mid = (low + high) // 2
        trial: Candidate = shrink(cand, mid)
        trial.item = evidence_item(trial)
        trial.size = len(canonical_bytes(trial.item))
        if assemble(frame, [*chosen, trial], omitted, facets, measure, SHED_LEVELS) is not None:
            best, low = trial, mid + 1
        else:
            high = mid - 1
    return best


def _answers(c: Candidate, enough: int) -> bool:
    """A section that answers the goal on its own: its heading names a facet or its text
    covers at least half of them; navigation never does."""
    if c.navigation or c.section is None or not c.facets:
        return False
    return bool(c.section.heading_facets) or len(c.section.section_facets) >= enough


def _priority(
    c: Candidate, uncovered: set[str], sections: set[str], docs: set[str]
) -> tuple[float, int, int, int]:
    """The section that answers first: uncovered facets the candidate adds (twice), its own
    facets, facets its heading path names (twice), facets its section covers, the share of
    its heading's (or the title's) words that are the goal's (``FOCUS_WEIGHT``), a point
    each for a section and a document not yet in the capsule; navigation and release notes
    go last. Ties: query words, retrieval rank, position. Tried on the judged set and
    dropped: weighting facets by how few sections name them (0.80 to 0.73 recall at 4,000
    tokens: it favoured rare incidental words like "working" over the subject) and a
    retrieval-rank prior (0.83 to 0.82-0.78: it favoured one document over the sections
    of others)."""
    score: float = 2 * len(c.facets & uncovered) + len(c.facets)
    if c.section is not None:
        score += 2 * len(c.section.heading_facets) + len(c.section.section_facets)
        score += FOCUS_WEIGHT * c.section.focus
        score += c.section.key not in sections
        if c.section.release_notes:
            score -= RELEASE_PENALTY
    score += c.uri not in docs
    if c.navigation:
        score -= NAVIGATION_PENALTY
    return (round(score, 9), c.relevance, -c.rank, -c.start)


def _pending(pool: list[Candidate]) -> list[Omitted]:
    """What the rest of the pool would cost the omission audit if none of it were taken."""
    return [Omitted("redundant_coverage", c, rank=c.rank) for c in pool]
