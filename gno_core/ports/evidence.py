"""Ports of the evidence capability: counting tokens the way a model would, and drafting an
answer from a closed set of evidence passages."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


class TokenCounter(Protocol):
    """Counts the tokens of a text with one tokenizer. ``fingerprint`` names that tokenizer
    (vocabulary and rules), so a capsule says which count it was budgeted with."""

    @property
    def fingerprint(self) -> str: ...

    def count(self, text: str) -> int:
        """Tokens of ``text`` without any special tokens a model adds around an input."""
        ...


@dataclass(frozen=True, slots=True)
class EvidencePassage:
    """One passage a generator may cite: its id (``[evidence:<id>]``), where it comes from,
    and its exact text."""

    evidence_id: str
    uri: str
    start_line: int
    end_line: int
    text: str


@dataclass(frozen=True, slots=True)
class GenerationRequest:
    """What a generator is asked: the question, the passages it may use and cite, the prompt
    the core wrote for chat models, and the answer's token ceiling."""

    question: str
    evidence: tuple[EvidencePassage, ...]
    system_prompt: str
    user_prompt: str
    max_tokens: int


class Generator(Protocol):
    """Drafts an answer whose claims cite ``[evidence:<id>]`` markers. Failures raise
    ``MODEL_UNAVAILABLE`` (nothing reachable) or ``RUNTIME``."""

    @property
    def model_id(self) -> str: ...

    def generate(self, request: GenerationRequest) -> str: ...


@runtime_checkable
class InferenceDestination(Protocol):
    """A generator or claim verifier that sends passages out of this process (a chat endpoint):
    the egress zone of where they go (``loopback``, ``lan``, ``remote`` or ``unknown``), from
    the endpoint's address. The Ask use case holds the passages to the collections' policy for
    ``remote_inference`` there before any is sent; one that is not an ``InferenceDestination``
    runs in this process."""

    def destination_zone(self) -> str: ...
