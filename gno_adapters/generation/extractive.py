"""The built-in extractive generator: the answer's sentences are evidence sentences, each
cited with the passage it was copied from, so every claim it makes quotes its citation.

Sentences are cut from each passage with the same rule Ask splits claims by, so a copied
sentence is one claim. They are ranked by how many of the question's content words they hold
(ties: capsule order, then position), headings, fences, tables and fragments under four words
left out, and the best ones are emitted in capsule order until the answer's size ceiling.
"""

from __future__ import annotations

import re

from gno_core.ports import GenerationRequest

MAX_SENTENCES = 3
MIN_WORDS = 4
#: Characters per token assumed for the answer's size ceiling (a cautious English average).
CHARS_PER_TOKEN = 4
_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[^\W_]+", re.UNICODE)
_SKIP = re.compile(r"^\s*(?:#|```|~~~|\||<|!\[|---|\[\^)")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,3}[.)])\s+")
_STOP = frozenset(
    "a an and are as at be by do does for from how i in is it of on or the this to was what "
    "when where which who why with you your can should use".split()
)


class ExtractiveGenerator:
    model_id = "gno-extractive-1"

    def generate(self, request: GenerationRequest) -> str:
        wanted = {w for w in _WORD.findall(request.question.casefold()) if w not in _STOP}
        scored: list[tuple[int, int, int, str, str]] = []
        for order, passage in enumerate(request.evidence):
            for position, raw in enumerate(_SPLIT.split(passage.text)):
                sentence = _BULLET.sub("", raw).strip().rstrip(".!?;").strip()
                if not sentence or _SKIP.match(raw) or "`" * 3 in sentence:
                    continue
                words = _WORD.findall(sentence.casefold())
                if len(words) < MIN_WORDS:
                    continue
                hits = len(wanted.intersection(words))
                if hits:
                    scored.append((hits, order, position, sentence, passage.evidence_id))
        scored.sort(key=lambda s: (-s[0], s[1], s[2]))
        ceiling = request.max_tokens * CHARS_PER_TOKEN
        chosen: list[tuple[int, int, str, str]] = []
        size = 0
        for _, order, position, sentence, evidence_id in scored[:MAX_SENTENCES]:
            if chosen and size + len(sentence) > ceiling:
                break
            chosen.append((order, position, sentence, evidence_id))
            size += len(sentence)
        chosen.sort()
        return "\n".join(f"{s} [evidence:{eid}]." for _, _, s, eid in chosen)
