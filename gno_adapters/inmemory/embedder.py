"""``HashEmbedder``: a deterministic fake ``Embedder`` (hashed bag of words, no model).

Each word (lowercased; Chinese, Japanese and Korean text as single characters and character
pairs) adds a signed weight to one of ``dimensions`` slots chosen by its BLAKE2 hash; the sum is
L2-normalised. Texts that share words therefore point the same way, which lets tests check
ranking without a model. Text past ``max_tokens`` words is ignored, like a real model's window.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
from array import array
from collections.abc import Sequence

from gno_core.ports.embedder import PLAIN_PROFILE, TextProfile, Vector, embedding_fingerprint

_WORD = re.compile(r"\w+", re.UNICODE)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def _tokens(text: str) -> list[str]:
    out: list[str] = []
    for word in _WORD.findall(text.lower()):
        if _CJK.search(word):
            chars = list(word)
            out.extend(chars)
            out.extend(a + b for a, b in itertools.pairwise(chars))
        else:
            out.append(word)
    return out


class HashEmbedder:
    """A model-free ``Embedder`` whose vectors depend only on each text's words."""

    def __init__(
        self,
        dimensions: int = 64,
        *,
        max_tokens: int = 256,
        model_id: str = "gno/hash-embedder",
        profile: TextProfile = PLAIN_PROFILE,
    ) -> None:
        if dimensions < 2:
            raise ValueError("dimensions must be at least 2")
        self._dimensions = dimensions
        self._max_tokens = max_tokens
        self._model_id = model_id
        self._profile = profile
        self._loaded = False
        self.calls = 0  # embed_batch calls, for tests that check caching

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimensions(self) -> int:
        return self._dimensions

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    @property
    def profile(self) -> TextProfile:
        return self._profile

    @property
    def fingerprint(self) -> str:
        return embedding_fingerprint(
            self._model_id, self._dimensions, self._max_tokens, self._profile.id
        )

    @property
    def loaded(self) -> bool:
        """Mirrors ``OnnxEmbedder.loaded``: true once a batch was embedded."""
        return self._loaded

    def embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        self.calls += 1
        if texts:
            self._loaded = True
        return [self._embed(text) for text in texts]

    def _embed(self, text: str) -> Vector:
        slots = [0.0] * self._dimensions
        # The empty text still needs a unit vector: give it a token of its own.
        for token in _tokens(text)[: self._max_tokens] or ["\x00"]:
            digest = hashlib.blake2b(token.encode("utf-8"), digest_size=8).digest()
            value = int.from_bytes(digest, "little")
            slots[value % self._dimensions] += 1.0 if value >> 63 else -1.0
        norm = math.sqrt(math.fsum(x * x for x in slots))
        if norm == 0.0:  # every token cancelled out: fall back to the first axis
            slots[0], norm = 1.0, 1.0
        return array("f", (x / norm for x in slots))
