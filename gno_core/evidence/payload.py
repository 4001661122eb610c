"""The canonical capsule payload for one selection: evidence items, coverage, the bounded
omission audit, the used tokens and bytes and the id (``assemble``), with the capsule's own
detail shed to a level (``SHED_LEVELS``) when the budget asks for it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, get_args

from gno_core.contracts.evidence import OmissionReason
from gno_core.evidence.canonical import canonical_bytes, content_id, sha256_hex
from gno_core.retrieval.metadata_coverage import METADATA_WARNING
from gno_core.text.dates import iso_from_ns

if TYPE_CHECKING:
    from collections.abc import Callable

    from gno_core.domain import StoredDocument
    from gno_core.evidence.answering import SectionSignals

MAX_OMISSION_ITEMS = 8
#: What the capsule sheds of itself, in order, before a passage is left out:
#: 1 the omission items (the total and the counts per reason stay; ``omissions.truncated``);
#: 2 the optional descriptive fields of each passage (title, heading, dates).
SHED_LEVELS = 2
SHED_EVIDENCE_FIELDS = ("title", "heading", "modifiedAt", "documentDate")
#: Worst-case tokens of a 64-hex id (one per character) and of a number of ``d`` digits (``d``).
ID_TOKENS_MAX = 64
BYTE_ESTIMATOR = "unicode_conservative"
TOKENIZER_ESTIMATOR = "active_tokenizer"
#: The contract's omission reasons, in the order ``reasonCounts`` lists them.
OMISSION_REASONS: tuple[str, ...] = get_args(OmissionReason)


@dataclass(slots=True, eq=False)
class Candidate:
    doc: StoredDocument
    uri: str
    rank: int
    start: int
    end: int
    text: str
    heading: str | None
    facets: frozenset[str]
    relevance: int
    section: SectionSignals | None = None
    navigation: bool = False
    item: dict[str, Any] = field(default_factory=dict)
    size: int = 0
    floor: tuple[int, int] | None = None  # tokens and bytes of the item with detail shed
    #: The egress policy of the document's collection (``unavailable``: none could be read).
    egress: str = "unavailable"


@dataclass(slots=True)
class Omitted:
    reason: str
    candidate: Candidate | None = None
    uri: str | None = None
    rank: int = 0


def assemble(
    frame: dict[str, Any],
    chosen: list[Candidate],
    omitted: list[Omitted],
    facets: tuple[str, ...],
    measure: Callable[[dict[str, Any]], int],
    level: int = 0,
    *,
    check: bool = True,
) -> dict[str, Any] | None:
    """The complete capsule for this selection with its detail shed to ``level``, or None
    when it does not fit its budget (``check``)."""
    evidence = []
    for n, cand in enumerate(chosen, 1):
        item = {**cand.item, "selectionRank": n}
        if level >= 2:
            for key in SHED_EVIDENCE_FIELDS:
                item.pop(key, None)
        evidence.append(item)
    covered = set().union(*(c.facets for c in chosen)) if chosen else set()
    gaps = [{"facet": f, "code": _gap_code(f, omitted)} for f in facets if f not in covered]
    reason_counts: dict[str, int] = {}
    for o in omitted:
        reason_counts[o.reason] = reason_counts.get(o.reason, 0) + 1
    ordered = sorted(omitted, key=_omission_order)
    kept = MAX_OMISSION_ITEMS if level < 1 else 0
    items = [_omission_item(o) for o in ordered[:kept]]
    truncated = len(omitted) > kept
    warnings = []
    if gaps:
        warnings.append("incomplete_coverage")
    if truncated:
        warnings.append("omissions_truncated")
    if frame["budget"]["estimator"] == BYTE_ESTIMATOR:
        warnings.append("token_estimate_used")
    warnings += frame.get("warnings", [])
    body = {
        **frame,
        "budget": dict(frame["budget"]),
        "evidence": evidence,
        "coverage": {
            "complete": not gaps and METADATA_WARNING not in warnings,
            "requestedFacets": list(facets),
            "coveredFacets": [f for f in facets if f in covered],
            "unresolvedFacets": [g["facet"] for g in gaps],
            "gaps": gaps,
        },
        "omissions": {
            "total": len(omitted),
            "items": items,
            "reasonCounts": {r: reason_counts[r] for r in OMISSION_REASONS if r in reason_counts},
            "truncated": truncated,
        },
        "truncated": any(o.reason in ("global_budget", "document_share_cap") for o in omitted),
        "warnings": warnings,
    }
    return seal(body, measure, check=check)


def seal(
    body: dict[str, Any], measure: Callable[[dict[str, Any]], int], *, check: bool = True
) -> dict[str, Any] | None:
    """Fix the used tokens/bytes and the id; None when the result exceeds either budget."""
    budget = body["budget"]
    budget["usedTokens"], budget["usedBytes"] = 0, 0
    base = measure(body)
    used_tokens = used_bytes = 0
    for _ in range(8):
        budget["usedTokens"], budget["usedBytes"] = used_tokens, used_bytes
        tokens = base + ID_TOKENS_MAX + (len(str(used_tokens)) - 1) + (len(str(used_bytes)) - 1)
        size = len(canonical_bytes({**body, "capsuleId": "0" * 64}))
        if (tokens, size) == (used_tokens, used_bytes):
            break
        used_tokens, used_bytes = max(tokens, used_tokens), max(size, used_bytes)
    budget["usedTokens"], budget["usedBytes"] = used_tokens, used_bytes
    over_tokens = used_tokens + budget["safetyMarginTokens"] > budget["requestedTokens"]
    over_bytes = used_bytes + budget["safetyMarginBytes"] > budget["requestedBytes"]
    if check and (over_tokens or over_bytes):
        return None
    return {**body, "capsuleId": capsule_id(body)}


def capsule_id(capsule: dict[str, Any]) -> str:
    """The hash of the canonical capsule without its ``capsuleId``."""
    return content_id({k: v for k, v in capsule.items() if k != "capsuleId"})


def evidence_id(item: dict[str, Any]) -> str:
    keys = ("docid", "endLine", "mirrorHash", "passageHash", "sourceHash", "startLine", "uri")
    return content_id({k: item[k] for k in keys})


def evidence_item(c: Candidate) -> dict[str, Any]:
    doc = c.doc
    item: dict[str, Any] = {
        "uri": c.uri,
        "docid": doc.docid,
        "collection": doc.collection,
        "startLine": c.start,
        "endLine": c.end,
        "text": c.text,
        "sourceHash": doc.source_hash,
        "mirrorHash": doc.mirror_hash,
        "passageHash": sha256_hex(c.text),
        "modifiedAt": iso_from_ns(doc.source_mtime_ns),
        "contextIds": [],
        "retrievalRank": c.rank,
        "retrievalSources": ["hybrid"],
        "graphExpanded": False,
        "facets": sorted(c.facets),
        "trust": "untrusted_data",
        "egress": c.egress,
    }
    if doc.meta.title:
        item["title"] = doc.meta.title
    if c.heading:
        item["heading"] = c.heading
    if doc.meta.date:
        item["documentDate"] = doc.meta.date
    item["evidenceId"] = evidence_id(item)
    return item


def _gap_code(facet: str, omitted: list[Omitted]) -> str:
    reasons = {o.reason for o in omitted if o.candidate is not None and facet in o.candidate.facets}
    if reasons & {"global_budget", "document_share_cap"}:
        return "global_budget_exhausted"
    if any(o.reason == "filtered_by_scope" for o in omitted) and not reasons:
        return "filtered_by_scope"
    return "facet_not_found"


def _omission_order(o: Omitted) -> tuple[int, str, int]:
    c = o.candidate
    return (o.rank, c.uri if c else o.uri or "", c.start if c else 0)


def _omission_item(o: Omitted) -> dict[str, Any]:
    c = o.candidate
    if c is None:
        return {"reason": o.reason, "uri": o.uri or "", "retrievalRank": o.rank}
    return {
        "reason": o.reason,
        "uri": c.uri,
        "retrievalRank": c.rank,
        "startLine": c.start,
        "endLine": c.end,
        "passageHash": c.item["passageHash"],
    }


class PieceCounter:
    """Counts a capsule body (without its id) as its shell (the body without passages and
    omission items) plus each passage and item, each counted once and remembered, plus one
    per comma between them. Exact for a counter whose tokens never span JSON punctuation
    (the bundled WordPiece splits at every punctuation character; the byte estimate is
    additive): selection compares with it, and the capsule it returns is counted whole."""

    def __init__(self, count: Callable[[str], int]) -> None:
        self.count = count
        self._parts: dict[bytes, int] = {}

    def __call__(self, body: dict[str, Any]) -> int:
        evidence, items = body["evidence"], body["omissions"]["items"]
        shell = {
            **body,
            "evidence": [],
            "omissions": {**body["omissions"], "items": []},
            "capsuleId": "",
        }
        total = self.count(canonical_bytes(shell).decode("utf-8"))
        for part in (*evidence, *items):
            text = canonical_bytes(part)
            known = self._parts.get(text)
            if known is None:
                known = self._parts[text] = self.count(text.decode("utf-8"))
            total += known
        return total + max(0, len(evidence) - 1) + max(0, len(items) - 1)


def exact(count: Callable[[str], int]) -> Callable[[dict[str, Any]], int]:
    """The whole body counted at once (the authority for the capsule returned)."""
    return lambda body: count(canonical_bytes({**body, "capsuleId": ""}).decode("utf-8"))
