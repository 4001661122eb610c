"""Words of a text: the one tokenizer of keyword queries, filters and every lexical index."""

from __future__ import annotations

import re
import unicodedata

__all__ = ["words_of"]

_WORD_RE = re.compile(r"[^\W_]+", re.UNICODE)


def words_of(text: str) -> list[str]:
    """Split text into lowercase NFKC words (letters and digits; everything else separates)."""
    return _WORD_RE.findall(unicodedata.normalize("NFKC", text).lower())
