"""Signals that a candidate's section answers the goal, read from the canonical mirror alone.

- **Heading match**: the goal's facets named by the section's heading path and the document's
  title ("Dependencies with yield" answers "how do dependencies with yield ...").
- **Section coverage**: the facets covered anywhere in the candidate's innermost section, not
  only in the candidate's own lines: a section that covers the goal across its paragraphs
  answers it better than one paragraph that happens to name every word.
- **Navigation**: a block that is mostly links (a table of contents, a "see also" list, an
  index note) points at answers and is none itself.
- **Release notes**: a changelog file or a section headed by a version number records that
  something changed, not how it works; a tutorial section that answers is preferred.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gno_core.evidence.facets import covers, word_forms
from gno_core.evidence.sections import Section
from gno_core.retrieval.query import STOPWORDS
from gno_core.text.words import words_of

__all__ = ["SectionSignals", "is_navigation", "is_release_notes", "section_signals"]

_LINK_LINE = re.compile(
    r"^\s*(?:[-*+]|\d+[.)])?\s*(?:\[\[[^\]]+\]\]|\[[^\]]*\]\([^)]*\)|\[[^\]]*\]\[[^\]]*\]|"
    r"<a\s[^>]*>.*?</a>)[\s,.;:|\-–—]*(?:\S.{0,40})?$"
)
_LINK = re.compile(r"\[\[[^\]]+\]\]|\[[^\]]*\]\([^)]*\)|\[[^\]]*\]\[[^\]]*\]")
_RELEASE_PATH = re.compile(
    r"(?:^|[/._-])(?:changelog|changes|release[-_ ]?notes|releases|history)(?:[/._-]|$)", re.I
)
_VERSION_HEADING = re.compile(r"^\s*(?:v(?:ersion)?\s*)?\d+\.\d+(?:\.\d+)?\b", re.I)
#: A line telling what changed between versions ("Before FastAPI 0.106.0, ...", "changed in
#: version 0.110.0"): history, not how it works now.
_VERSION_HISTORY = re.compile(
    r"\b(?:before|since|until|as of|prior to|changed in|in version)\s+(?:[a-z][\w-]*\s+)?"
    r"v?\d+\.\d+\.\d+",
    re.I,
)
_TOC_HEADING = re.compile(
    r"^\s*(?:table of contents|contents|toc|index|see also|related)\s*$", re.I
)
_ANCHOR = re.compile(r"\{\s*#[^}]*\}")
#: Share of a block's non-blank lines that must be link lines for it to be navigation.
NAV_SHARE = 0.6
NAV_MIN_LINES = 3


@dataclass(frozen=True, slots=True)
class SectionSignals:
    key: str  # the section's identity in the capsule: uri and heading line
    heading_facets: frozenset[str]
    #: The share of the content words of the innermost heading, or of the document's title
    #: when that is more, that cover a facet: 1.0 for "Backlinks" on a goal about backlinks,
    #: 0.5 for "Tags vs Backlinks".
    focus: float
    section_facets: frozenset[str]
    release_notes: bool


def is_navigation(lines: list[str], heading: str | None = None) -> bool:
    """Mostly links: at least ``NAV_MIN_LINES`` link lines making ``NAV_SHARE`` of the
    non-blank, non-heading lines, or a block under a contents heading that is mostly links."""
    body = [ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")]
    if not body:
        return False
    linked = sum(1 for ln in body if _LINK_LINE.match(ln) or _mostly_links(ln))
    if heading is not None and _TOC_HEADING.match(heading) and linked * 2 >= len(body):
        return True
    return linked >= NAV_MIN_LINES and linked >= NAV_SHARE * len(body)


def _mostly_links(line: str) -> bool:
    links = _LINK.findall(line)
    if len(links) < 2:
        return False
    rest = _LINK.sub("", line)
    return len(words_of(rest)) <= len(links)


def is_release_notes(rel_path: str, heading_path: tuple[str, ...], opening: str = "") -> bool:
    """A changelog file, a section under a version-number heading, or one whose opening
    paragraph tells what changed in which version."""
    return (
        bool(_RELEASE_PATH.search(rel_path))
        or any(_VERSION_HEADING.match(h) for h in heading_path)
        or bool(_VERSION_HISTORY.search(opening))
    )


def section_signals(
    uri: str,
    rel_path: str,
    title: str | None,
    lines: list[str],
    section: Section | None,
    titles: tuple[str, ...],
    wanted: dict[str, tuple[str, ...]],
    stems: frozenset[str],
) -> SectionSignals:
    """The signals of ``section`` (None: the lines above the first heading), whose heading
    path (outermost first, the section's own heading last) is ``titles``."""
    start, end = (section.line, section.end_line) if section is not None else (1, len(lines))
    if section is None:
        first = next((n for n, ln in enumerate(lines, 1) if ln.lstrip().startswith("#")), None)
        end = (first - 1) if first is not None else len(lines)
    text = lines[start - 1 : end]
    present = word_forms(words_of("\n".join(text)), stems)
    heading_words = word_forms(words_of(" ".join([title or "", *titles])), stems)
    focus = max(
        _focus(titles[-1], wanted, stems) if titles else 0.0, _focus(title or "", wanted, stems)
    )
    return SectionSignals(
        key=f"{uri}#{start}",
        focus=focus,
        heading_facets=frozenset(f for f, fw in wanted.items() if covers(fw, heading_words)),
        section_facets=frozenset(f for f, fw in wanted.items() if covers(fw, present)),
        release_notes=is_release_notes(rel_path, titles, _opening(text)),
    )


def _focus(heading: str, wanted: dict[str, tuple[str, ...]], stems: frozenset[str]) -> float:
    words = [w for w in dict.fromkeys(words_of(_ANCHOR.sub("", heading))) if w not in STOPWORDS]
    if not words:
        return 0.0
    facet_words = [fw for fw in wanted.values()]
    hits = sum(
        1 for w in words if any(covers(fw, word_forms([w], stems)) for fw in facet_words if w)
    )
    return hits / len(words)


def _opening(lines: list[str]) -> str:
    """The section's first paragraph after its heading."""
    body = lines[1:] if lines and lines[0].lstrip().startswith("#") else lines
    out: list[str] = []
    for line in body:
        if not line.strip():
            if out:
                break
            continue
        out.append(line)
    return " ".join(out)
