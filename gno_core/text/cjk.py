"""CJK segmentation for keyword search: overlapping bigrams so that any substring is findable.

Chinese and Japanese have no spaces between words and Korean packs particles onto words, so a
word-based tokenizer turns a whole run of CJK characters into one token and a query for a part
of it finds nothing. Instead, every run of CJK characters is indexed as its overlapping bigrams
followed by the run's last character as a unigram (``检索引擎`` -> ``检索 索引 引擎 擎``):

- a query substring of two or more characters is the phrase of its bigrams, which occur as
  consecutive tokens wherever the substring occurs;
- a one-character query is a prefix query: the character starts a bigram, or ends its run and
  then is the trailing unigram.

The same functions serve the SQLite index and the in-memory fake, so both agree by
construction. The measurements behind this choice are in ``docs/explanation/cjk-search.md``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

#: Han (URO, Ext A, compatibility, Ext B+), iteration marks, kana, bopomofo and Hangul.
CJK_CLASS = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3005-\u3007"  # 々 〆 〇
    "\u3041-\u309f"  # Hiragana
    "\u30a0-\u30ff"  # Katakana (incl. ー)
    "\u3100-\u312f"  # Bopomofo
    "\u3131-\u318f"  # Hangul compatibility Jamo
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf"  # CJK Ext A
    "\u4e00-\u9fff"  # CJK Unified Ideographs
    "\ua960-\ua97f"  # Hangul Jamo Ext A
    "\uac00-\ud7af"  # Hangul syllables
    "\ud7b0-\ud7ff"  # Hangul Jamo Ext B
    "\uf900-\ufaff"  # CJK compatibility ideographs
    "\uff66-\uff9f"  # halfwidth Katakana (NFKC maps them to full width)
    "\U00020000-\U0003134f"  # CJK Ext B-H
)


@cache
def _cjk_run() -> re.Pattern[str]:
    """A run of CJK characters, compiled on first use (a few milliseconds for this class, which
    ASCII text, the common case of every function below, never pays)."""
    return re.compile(f"[{CJK_CLASS}]+")


#: Reported by status; changes here require a reindex, so the id is versioned.
SEGMENTER_ID = "cjk-bigram-v1"


def has_cjk(text: str) -> bool:
    """True when ``text`` contains at least one CJK character."""
    return not text.isascii() and _cjk_run().search(text) is not None


def _index_run(match: re.Match[str]) -> str:
    run = match.group(0)
    if len(run) == 1:
        return f" {run} "
    grams = [run[i : i + 2] for i in range(len(run) - 1)]
    grams.append(run[-1])
    return " " + " ".join(grams) + " "


def segment_for_index(text: str) -> str:
    """Text to hand a word tokenizer at index time: NFKC-normalized, every CJK run replaced by
    its space-separated bigrams plus its last character. ASCII text is returned unchanged."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFKC", text)
    return _cjk_run().sub(_index_run, text)


def query_units(word: str) -> tuple[tuple[str, ...], bool]:
    """How to look up one query word: (tokens forming a phrase, whether its last token is a
    prefix).

    Non-CJK parts stay whole. A CJK run becomes its bigrams; when non-CJK text follows it inside
    the word, the run ends there in any matching document too, so its last character (the
    indexed unigram) follows. A single CJK character at the end of the word is a prefix match:
    it starts a bigram or is the unigram ending a run.
    """
    word = unicodedata.normalize("NFKC", word)
    if word.isascii() or not _cjk_run().search(word):
        return ((word,), False)
    tokens: list[str] = []
    pos = 0
    prefix = False
    for match in _cjk_run().finditer(word):
        if match.start() > pos:
            tokens.extend(word[pos : match.start()].split())
        run = match.group(0)
        at_end = match.end() == len(word)
        if len(run) == 1:
            tokens.append(run)
            prefix = at_end
        else:
            tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
            if not at_end:
                tokens.append(run[-1])
        pos = match.end()
    tokens.extend(word[pos:].split())
    return (tuple(tokens), prefix)
