"""Names gno writes (a captured note, a new folder, a renamed, moved or duplicated note): one
rule, so a name that reads one way and is stored another, or that a Windows disk cannot hold,
is refused before anything is written.

- No control character (C0 and C1, tab, newline and CR included; DEL): a name with a newline
  forges lines in every listing that prints it.
- No bidirectional control (U+200E/U+200F marks, U+202A-U+202E embeddings and overrides,
  U+2066-U+2069 isolates): ``invoice\\u202egpj.md`` shows as ``invoicedm.jpg``.
- No Windows reserved device name (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM1``-``COM9``,
  ``LPT1``-``LPT9``, with the superscript digits, ``CONIN$``, ``CONOUT$``), in any case and with
  any extension (``nul.md``, ``Aux.tar.gz``): a synced or cloned vault could not hold the file.
"""

from __future__ import annotations

import re

__all__ = ["name_problem", "reserved_name"]

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_DIGITS = "123456789\u00b9\u00b2\u00b3"
RESERVED = frozenset(
    {"con", "prn", "aux", "nul", "conin$", "conout$"}
    | {f"{port}{d}" for port in ("com", "lpt") for d in _DIGITS}
)


def reserved_name(segment: str) -> bool:
    """Whether ``segment`` is a Windows reserved device name (its part before the first dot,
    trailing spaces dropped, in any case)."""
    return segment.split(".", 1)[0].rstrip(" ").casefold() in RESERVED


def name_problem(text: str) -> tuple[str, str] | None:
    """``(reason, what is wrong)`` for a path or name gno would write, or None. ``reason`` is
    ``control``, ``bidi`` or ``reserved`` (``details.reason`` of the ``INVALID_PATH``)."""
    bad = _UNSAFE.search(text)
    if bad is not None:
        char = bad.group()
        if char in "\u200e\u200f" or "\u202a" <= char <= "\u202e" or "\u2066" <= char <= "\u2069":
            return "bidi", f"a bidirectional control character (U+{ord(char):04X})"
        return "control", f"a control character (U+{ord(char):04X})"
    for segment in text.split("/"):
        if reserved_name(segment):
            return "reserved", f"a Windows reserved device name ({segment[:40]})"
    return None
