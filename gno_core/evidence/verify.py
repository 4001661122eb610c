"""Verify a saved capsule against the index as it is now, without rebuilding it.

Refusals come first, before any document is read: a capsule that does not validate against
the closed contract or whose ``capsuleId`` is not the hash of its own canonical payload is
``invalid_capsule``; one compiled against another index is ``index_mismatch``. Then every
evidence item is re-resolved: the document at its URI, the lines at its span, their hash.

- ``unchanged``: the same lines hold the same passage (the rest of the note may have changed).
- ``stale``: the document is there but the span no longer holds the passage; when the passage
  moved intact its new span is reported.
- ``missing``: the document is gone.

Ranking reruns the capsule's retrieval request and compares the order of the evidence
documents (unless nothing drifted: the same index, config and models give the same ranks);
fingerprints (index snapshot, config, embedding and rerank models, tokenizer) are
compared one by one and each drift is named.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gno_core.errors import GnoError
from gno_core.evidence.canonical import sha256_hex
from gno_core.evidence.capsule import ContextError, capsule_id
from gno_core.identity import parse_ref

if TYPE_CHECKING:
    from gno_core.contracts.evidence import CapsuleVerification
    from gno_core.evidence.capsule import CapsuleCompiler


def check_capsule(capsule: Any, index_name: str) -> dict[str, Any]:
    """The capsule as a canonical dict; ``invalid_capsule`` / ``index_mismatch`` otherwise."""
    from pydantic import ValidationError as ModelError

    from gno_core.contracts.evidence import ContextCapsule

    if not isinstance(capsule, dict):
        raise ContextError("invalid_capsule", "The capsule must be a JSON object")
    try:
        model = ContextCapsule.model_validate(capsule)
    except ModelError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ()))
        raise ContextError(
            "invalid_capsule", f"Not a context-capsule-v1 capsule: {where}: {first['msg']}"
        ) from None
    if model.wire() != capsule:
        raise ContextError("invalid_capsule", "The capsule is not in canonical form")
    if capsule_id(capsule) != capsule["capsuleId"]:
        raise ContextError(
            "invalid_capsule", "capsuleId is not the hash of the capsule (edited or truncated)"
        )
    for item in capsule["evidence"]:
        from gno_core.evidence.capsule import evidence_id

        if (
            evidence_id(item) != item["evidenceId"]
            or sha256_hex(item["text"]) != item["passageHash"]
        ):
            raise ContextError("invalid_capsule", "An evidence id does not match its passage")
    if capsule["scope"]["indexName"] != index_name:
        raise ContextError(
            "index_mismatch",
            f"The capsule was compiled against index {capsule['scope']['indexName']!r}, "
            f"not {index_name!r}",
        )
    return capsule


def verify(compiler: CapsuleCompiler, capsule: Any) -> CapsuleVerification:
    from gno_core.contracts.evidence import CapsuleVerification

    saved = check_capsule(capsule, compiler.handle.name)
    store = compiler.handle.index.documents
    checks: list[dict[str, Any]] = []
    mirrors: dict[str, list[str] | None] = {}
    for item in saved["evidence"]:
        ref = parse_ref(item["uri"])
        assert ref.collection is not None and ref.rel_path is not None
        doc = store.get_document(ref.collection, ref.rel_path)
        base = {
            "evidenceId": item["evidenceId"],
            "uri": item["uri"],
            "startLine": item["startLine"],
            "endLine": item["endLine"],
        }
        if doc is None:
            checks.append({**base, "contentStatus": "missing", "reason": "document_not_found"})
            continue
        if doc.mirror_hash not in mirrors:
            text = store.markdown(doc.mirror_hash)
            mirrors[doc.mirror_hash] = text.split("\n") if text is not None else None
        lines = mirrors[doc.mirror_hash]
        current: dict[str, Any] = {
            "currentSourceHash": doc.source_hash,
            "currentMirrorHash": doc.mirror_hash,
        }
        if lines is None:
            checks.append({**base, **current, "contentStatus": "missing", "reason": "no_mirror"})
            continue
        start, end = item["startLine"], item["endLine"]
        span = "\n".join(lines[start - 1 : end]) if end <= len(lines) else None
        if span is not None and sha256_hex(span) == item["passageHash"]:
            reason = "same_source" if doc.source_hash == item["sourceHash"] else "span_intact"
            checks.append({**base, **current, "contentStatus": "unchanged", "reason": reason})
            continue
        if span is not None:
            current["currentPassageHash"] = sha256_hex(span)
        moved = _find(lines, item["text"])
        if moved is not None:
            current["currentStartLine"], current["currentEndLine"] = moved
            checks.append({**base, **current, "contentStatus": "stale", "reason": "passage_moved"})
        else:
            checks.append(
                {**base, **current, "contentStatus": "stale", "reason": "passage_changed"}
            )
    counts = {s: sum(1 for c in checks if c["contentStatus"] == s) for s in _STATUSES}
    content = "missing" if counts["missing"] else "stale" if counts["stale"] else "unchanged"
    drift = _drift(compiler, saved)
    scope = saved["scope"]
    if not drift and "since" not in scope and "until" not in scope:
        # Same documents, config, models and request: retrieval is deterministic, so the ranks
        # are the capsule's own (relative date bounds move with the clock, so they rerun).
        ranking, ranking_reason = "unchanged", "index, config and models are unchanged"
    else:
        ranking, ranking_reason = _ranking(compiler, saved)
    return CapsuleVerification.model_validate(
        {
            "schemaVersion": "1.0",
            "capsuleId": saved["capsuleId"],
            "indexName": compiler.handle.name,
            "status": "fresh" if content == "unchanged" else "stale",
            "contentStatus": content,
            "counts": counts,
            "evidence": checks,
            "rankingStatus": ranking,
            "rankingReason": ranking_reason,
            "fingerprintStatus": "drifted" if drift else "unchanged",
            "drift": drift,
        }
    )


_STATUSES = ("unchanged", "stale", "missing")


def _find(lines: list[str], text: str) -> tuple[int, int] | None:
    """Where the passage's exact lines sit now (the first place), 1-based inclusive."""
    wanted = text.split("\n")
    first = wanted[0]
    for i, line in enumerate(lines):
        if line == first and lines[i : i + len(wanted)] == wanted:
            return i + 1, i + len(wanted)
    return None


def _ranking(compiler: CapsuleCompiler, saved: dict[str, Any]) -> tuple[str, str]:
    from gno_core.contracts.requests import QueryMode, QueryRequest

    echo = saved["retrieval"]["request"]
    if saved["retrieval"]["mode"] == "hybrid" and compiler.models.embedder is None:
        return "unavailable", "the capsule used vectors and no embedding model is available now"
    try:
        request = QueryRequest(
            query=echo["query"],
            limit=_ranking_limit(echo, saved["evidence"]),
            candidate_limit=echo["candidateLimit"],
            fast=echo["depthPolicy"] == "fast",
            thorough=echo["depthPolicy"] == "thorough",
            rerank=not echo["noRerank"],
            query_modes=[QueryMode.model_validate(m) for m in echo["queryModes"]],
            exclude=echo["exclude"],
            lang=echo.get("lang"),
            intent=echo.get("intent"),
            author=echo.get("author"),
            tags_all=saved["scope"]["tagsAll"],
            tags_any=saved["scope"]["tagsAny"],
            categories=saved["scope"]["categories"],
            since=saved["scope"].get("since"),
            until=saved["scope"].get("until"),
            filter=saved["scope"].get("filter"),
        )
        results = compiler.retrieval.hybrid(request, tuple(saved["scope"]["collections"]) or None)
    except GnoError as exc:
        return "unavailable", f"retrieval could not be rerun ({exc.code}: {exc.message})"
    ranks = {r.uri: n for n, r in enumerate(results.results, 1)}
    for item in saved["evidence"]:
        if ranks.get(item["uri"]) != item["retrievalRank"]:
            return "reranked", f"{item['uri']} was rank {item['retrievalRank']}, now " + (
                f"rank {ranks[item['uri']]}" if item["uri"] in ranks else "not retrieved"
            )
    return "unchanged", "every evidence document keeps its retrieval rank"


def _ranking_limit(echo: dict[str, Any], evidence: list[dict[str, Any]]) -> int:
    """Ranks up to the deepest evidence rank are all the comparison needs, and asking for fewer
    results skips their snippets. Hybrid's candidate pools grow with the limit only past 20 (or
    past half the rerank window), so below that a smaller limit ranks the same."""
    from gno_core.retrieval.hybrid import MIN_POOL, VARIANT_MIN_POOL

    limit: int = echo["limit"]
    if limit > VARIANT_MIN_POOL or 2 * limit > max(echo["candidateLimit"], MIN_POOL):
        return limit
    return min(limit, max((item["retrievalRank"] for item in evidence), default=1))


def _drift(compiler: CapsuleCompiler, saved: dict[str, Any]) -> list[dict[str, Any]]:
    fp = saved["fingerprints"]
    echo = saved["retrieval"]["request"]
    embedder = compiler.models.embedder
    reranker = compiler.models.reranker
    index = compiler.handle.index
    # What retrieval would use now: vectors only when embedded for this model, a reranker only
    # when the request asks for one.
    embedded = embedder is not None and index.vectors.has_vectors(embedder.fingerprint)
    reranks = reranker is not None and not echo["noRerank"] and echo["depthPolicy"] != "fast"
    current = {
        "index": compiler.snapshot(),
        "config": compiler.config_fingerprint(saved["scope"]["collections"]),
        "embeddingModel": embedder.fingerprint if embedded and embedder is not None else None,
        "rerankModel": sha256_hex(reranker.model_id) if reranks and reranker is not None else None,
        "tokenizer": compiler.tokenizer_fingerprint,
    }
    out = []
    for name, now in current.items():
        before = fp.get(name)
        if before != now:
            entry = {"name": name}
            if before is not None:
                entry["saved"] = before
            if now is not None:
                entry["current"] = now
            out.append(entry)
    return out
