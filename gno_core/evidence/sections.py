"""Durable section targets (``SectionTargetV1``): a locator of one heading's span that
survives edits above and below it, and fails closed when the heading is gone or ambiguous.

A section is an ATX heading (outside fenced code) and the lines up to the next heading of the
same or a higher level. Its target records the heading's slug, the path of headings above it,
its occurrence among same-slug headings, quotes around it, and the hash of its span. Resolving
looks the heading up again by slug and path:

- ``exact``: the span is unchanged and still starts on the recorded line;
- ``recovered``: the span is unchanged but moved (lines were added or removed above it);
- ``stale``: the heading is there but its span changed: not safe to cite;
- ``ambiguous``: several headings fit and nothing tells them apart;
- ``missing``: no heading fits.

Only ``exact`` and ``recovered`` carry a citation.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gno_core.errors import NotFoundError, ValidationError
from gno_core.evidence.canonical import sha256_hex
from gno_core.evidence.spans import fence_after

if TYPE_CHECKING:
    from gno_core.contracts.evidence import SectionResult
    from gno_core.contracts.evidence_requests import SectionRequest
    from gno_core.documents import Documents

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.*?)[ \t]*(?:[ \t]#+[ \t]*)?$")
QUOTE_CHARS = 64


@dataclass(frozen=True, slots=True)
class Section:
    level: int
    title: str
    slug: str
    line: int  # 1-based heading line
    end_line: int  # inclusive
    path: tuple[str, ...]  # slugs of the headings above it, outermost first
    occurrence: int  # 1-based among headings with the same slug


def slugify(text: str) -> str:
    """NFC, lowercase, keep letters, digits, spaces and hyphens, spaces to hyphens, runs
    collapsed; ``section`` when nothing is left."""
    text = unicodedata.normalize("NFC", text).lower()
    kept = "".join(ch for ch in text if ch.isalnum() or ch in " -")
    slug = re.sub(r"-{2,}", "-", re.sub(r"\s+", "-", kept.strip())).strip("-")
    return slug or "section"


def parse_sections(lines: list[str]) -> list[Section]:
    heads: list[tuple[int, str, int]] = []
    fence: str | None = None
    for n, line in enumerate(lines, 1):
        outside = fence is None
        fence = fence_after(line, fence)
        if not outside or fence is not None:
            continue
        m = _HEADING.match(line)
        if m:
            heads.append((len(m.group(1)), m.group(2).strip(), n))
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for i, (level, title, n) in enumerate(heads):
        end = len(lines)
        for later_level, _, later_line in heads[i + 1 :]:
            if later_level <= level:
                end = later_line - 1
                break
        while stack and stack[-1][0] >= level:
            stack.pop()
        slug = slugify(title)
        seen[slug] = seen.get(slug, 0) + 1
        sections.append(Section(level, title, slug, n, end, tuple(s for _, s in stack), seen[slug]))
        stack.append((level, slug))
    return sections


def _span(lines: list[str], s: Section) -> str:
    return "\n".join(lines[s.line - 1 : s.end_line])


def _target(uri: str, lines: list[str], s: Section) -> dict[str, Any]:
    before = next((ln for ln in reversed(lines[: s.line - 1]) if ln.strip()), "")
    after = next((ln for ln in lines[s.line : s.end_line] if ln.strip()), "")
    start_offset = sum(len(ln) + 1 for ln in lines[: s.line - 1])
    end_offset = start_offset + len(_span(lines, s))
    return {
        "schemaVersion": "1",
        "document": {"uri": uri},
        "anchor": s.slug,
        "headingPath": list(s.path),
        "occurrence": s.occurrence,
        "quote": {
            "exact": lines[s.line - 1],
            "prefix": before[-QUOTE_CHARS:],
            "suffix": after[:QUOTE_CHARS],
        },
        "sourceFingerprint": sha256_hex(_span(lines, s)),
        "hints": {"line": s.line, "startOffset": start_offset, "endOffset": end_offset},
    }


def section(documents: Documents, request: SectionRequest) -> SectionResult:
    from gno_core.contracts.evidence import SectionResult

    with documents.resolved(request.ref) as resolved:
        handle, doc = resolved.handle, resolved.document
        uri = handle.uri(doc)
        lines = (handle.index.documents.markdown(doc.mirror_hash) or "").split("\n")
    sections = parse_sections(lines)
    if request.action == "create":
        chosen = _pick(sections, request.anchor, request.line, uri)
        target = _target(uri, lines, chosen)
        return SectionResult.model_validate(
            {"schemaVersion": "1.0", "action": "create", "uri": uri, "target": target}
        )
    assert request.target is not None
    status, found = _resolve(sections, lines, request.target.wire())
    out: dict[str, Any] = {
        "schemaVersion": "1.0",
        "action": "resolve",
        "uri": uri,
        "status": status,
        "target": request.target.wire(),
    }
    if found is not None and status in ("exact", "recovered"):
        out["citation"] = {
            "uri": uri,
            "anchor": found.slug,
            "title": found.title,
            "lineStart": found.line,
            "lineEnd": found.end_line,
            "sourceFingerprint": sha256_hex(_span(lines, found)),
        }
    return SectionResult.model_validate(out)


def _pick(sections: list[Section], anchor: str | None, line: int | None, uri: str) -> Section:
    if line is not None:
        at = [s for s in sections if s.line == line]
        if not at:
            raise NotFoundError(f"No heading on line {line} of {uri}", details={"line": line})
        return at[0]
    assert anchor is not None
    slug = slugify(anchor.lstrip("#"))
    found = [s for s in sections if s.slug == slug]
    if not found:
        raise NotFoundError(f"No heading {anchor!r} in {uri}", details={"anchor": anchor})
    if len(found) > 1:
        lines = ", ".join(str(s.line) for s in found)
        raise ValidationError(
            f"Heading {anchor!r} is ambiguous in {uri} (lines {lines}); create it by line",
            details={"reason": "ambiguous_anchor", "lines": [s.line for s in found]},
        )
    return found[0]


def _resolve(
    sections: list[Section], lines: list[str], target: dict[str, Any]
) -> tuple[str, Section | None]:
    slug = target["anchor"]
    path = tuple(target["headingPath"])
    fits = [s for s in sections if s.slug == slug and s.path == path] or [
        s for s in sections if s.slug == slug
    ]
    if not fits:
        return "missing", None
    fingerprint = target["sourceFingerprint"]
    same = [s for s in fits if sha256_hex(_span(lines, s)) == fingerprint]
    hint = target["hints"]["line"]
    if len(same) > 1:
        on_hint = [s for s in same if s.line == hint]
        same = on_hint or [s for s in same if s.occurrence == target["occurrence"]]
        if len(same) != 1:
            return "ambiguous", None
    if len(same) == 1:
        found = same[0]
        return ("exact" if found.line == hint else "recovered"), found
    if len(fits) == 1:
        return "stale", fits[0]
    return "ambiguous", None
