"""The canonical Markdown mirror: one normal form per text, and its content hash.

Two sources that differ only in encoding noise (BOM, line endings, Unicode composition, trailing
blanks) get the same mirror and therefore the same ``mirror_hash``; chunks, line anchors and
evidence spans are all expressed in mirror coordinates.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

__all__ = ["canonicalize", "mirror_hash"]

# C0 and C1 controls except \t and \n (\r is gone by the time this runs).
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]+")
_BLANK_RUN = re.compile(r"\n{3,}")


def canonicalize(text: str) -> str:
    """The canonical form of ``text``.

    Steps, in order: drop a leading BOM; CRLF and lone CR become LF; drop control characters other
    than tab and newline; trim trailing whitespace (as ``str.isspace`` sees it) on every line, so
    whitespace-only lines become empty; Unicode NFC; collapse every run of two or more blank lines
    (leading ones included) into one; end with exactly one newline. Text without any content
    canonicalizes to ``"\\n"``. Idempotent: ``canonicalize(canonicalize(t)) == canonicalize(t)``.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
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
    if "\n\n\n" in text:
        text = _BLANK_RUN.sub("\n\n", text)
    if text.startswith("\n\n"):
        text = text[1:]
    return text.rstrip("\n") + "\n"


def mirror_hash(markdown: str) -> str:
    """SHA-256 (lowercase hex) of the UTF-8 bytes of a canonical mirror."""
    return hashlib.sha256(markdown.encode("utf-8")).hexdigest()
