"""The canonical Markdown mirror: one normal form per text, and its content hash.

Two sources that differ only in encoding noise (BOM, line endings, Unicode composition, trailing
blanks) get the same mirror and therefore the same ``mirror_hash``. The mirror of a Markdown or
text file keeps every line of the file, so its line numbers are the file's own (source
coordinates): line N of the mirror is line N of the file as an editor numbers it, with LF, CRLF
and a lone CR each ending one line. A converted document's mirror (PDF, DOCX, ...) also collapses
runs of blank lines; its lines are mirror coordinates only.

Chunking and embedding see text with blank runs collapsed (``collapse_blank_runs``), so keeping
the blank lines changes no chunk boundary and no embedded text.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import unicodedata

__all__ = ["BlankRuns", "canonicalize", "collapse_blank_runs", "mirror_hash"]

# C0 and C1 controls except \t and \n (\r is gone by the time this runs).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]+")
_BLANK_RUN = re.compile(r"\n{3,}")


def canonicalize(text: str, *, collapse_blank_lines: bool = False) -> str:
    """The canonical form of ``text``.

    Steps, in order: drop a leading BOM; CRLF and lone CR become LF; drop control characters other
    than tab and newline; trim trailing whitespace (as ``str.isspace`` sees it) on every line, so
    whitespace-only lines become empty; Unicode NFC; end with exactly one newline after the last
    line (a final line terminator of the source is not a line of its own). None of these steps
    adds or removes a line, so line N of the result is line N of ``text``. With
    ``collapse_blank_lines`` (converted documents), every run of two or more blank lines (leading
    ones included) also becomes one and trailing blank lines go. Text without any content
    canonicalizes to ``"\\n"``. Idempotent: ``canonicalize(canonicalize(t)) == canonicalize(t)``.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Whether the last line has its terminator, decided before trimming: "alpha\n  " has two
    # lines for an editor, the second one whitespace, so its mirror is "alpha\n\n".
    terminated = text.endswith("\n")
    # A line by line pass beats whole-text regexes several times over (they crawl on non-ASCII
    # text). ``isprintable`` is False for every line holding a control (and for tabs and some
    # harmless characters, which the regex then leaves alone).
    text = "\n".join(
        [
            line.rstrip() if line.isprintable() else _CONTROL.sub("", line).rstrip()
            for line in text.split("\n")
        ]
    )
    if not text.isascii():
        # After control removal, which can bring a base letter next to its combining mark.
        text = unicodedata.normalize("NFC", text)
    if not text.strip("\n"):
        return "\n"
    if collapse_blank_lines:
        text = collapse_blank_runs(text)
        if text.startswith("\n\n"):
            text = text[1:]
        return text.rstrip("\n") + "\n"
    return text if terminated else text + "\n"


class BlankRuns:
    """``text`` with each run of two or more blank lines collapsed into one (``collapsed``), and
    the map from offsets in ``collapsed`` back to offsets in ``text`` (``source_offset``), exact
    for every offset outside a collapsed run."""

    __slots__ = ("_removed", "_starts", "collapsed")

    def __init__(self, text: str) -> None:
        self._starts: list[int] = []  # offsets in ``collapsed`` where a shift begins
        self._removed: list[int] = []  # characters removed before each of them, cumulative
        if "\n\n\n" not in text:
            self.collapsed = text
            return
        parts: list[str] = []
        last = removed = 0
        for match in _BLANK_RUN.finditer(text):
            parts.append(text[last : match.start()])
            parts.append("\n\n")
            removed += len(match.group()) - 2
            self._starts.append(match.end() - removed)
            self._removed.append(removed)
            last = match.end()
        parts.append(text[last:])
        self.collapsed = "".join(parts)

    def source_offset(self, offset: int) -> int:
        """The offset in the original text of offset ``offset`` of ``collapsed``."""
        at = bisect.bisect_right(self._starts, offset)
        return offset + (self._removed[at - 1] if at else 0)


def collapse_blank_runs(text: str) -> str:
    """``text`` with each run of two or more blank lines collapsed into one (what chunk
    boundaries and embedded text are computed on)."""
    return _BLANK_RUN.sub("\n\n", text) if "\n\n\n" in text else text


def mirror_hash(markdown: str) -> str:
    """SHA-256 (lowercase hex) of the UTF-8 bytes of a canonical mirror."""
    return hashlib.sha256(markdown.encode("utf-8")).hexdigest()
