"""The recall budget: at most ``max_facts`` facts and ``max_tokens`` tokens of fact text, taken
in rank order; what does not fit is counted in ``omitted``. Tokens are estimated as
``ceil(bytes / 4)`` of the UTF-8 text, the conservative estimate the reference uses."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from gno_core.errors import memory_error

__all__ = ["DEFAULT_MAX_FACTS", "DEFAULT_MAX_TOKENS", "Budget", "estimate_tokens", "take"]

DEFAULT_MAX_FACTS = 8
DEFAULT_MAX_TOKENS = 512
LIMIT_FACTS = 64
LIMIT_TOKENS = 8192

T = TypeVar("T")


def estimate_tokens(text: str) -> int:
    return -(-len(text.encode("utf-8")) // 4)


@dataclass(frozen=True, slots=True)
class Budget:
    max_facts: int = DEFAULT_MAX_FACTS
    max_tokens: int = DEFAULT_MAX_TOKENS

    @classmethod
    def of(cls, max_facts: int | None, max_tokens: int | None) -> Budget:
        """``MEMORY_BUDGET_INVALID`` outside 1-64 facts and 1-8192 tokens."""
        facts = DEFAULT_MAX_FACTS if max_facts is None else max_facts
        tokens = DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens
        if not (
            isinstance(facts, int)
            and isinstance(tokens, int)
            and 1 <= facts <= LIMIT_FACTS
            and 1 <= tokens <= LIMIT_TOKENS
        ):
            raise memory_error(
                "MEMORY_BUDGET_INVALID",
                f"maxFacts is 1-{LIMIT_FACTS} and maxTokens 1-{LIMIT_TOKENS} "
                f"(got {max_facts!r} and {max_tokens!r})",
            )
        return cls(facts, tokens)


def take(ranked: Sequence[T], budget: Budget, text: Callable[[T], str]) -> tuple[list[T], int, int]:
    """The facts of ``ranked`` that fit, in order, the tokens they use and how many were left
    out. A fact that does not fit is skipped (a shorter one after it may still fit)."""
    chosen: list[T] = []
    used = 0
    for item in ranked:
        if len(chosen) >= budget.max_facts:
            break
        cost = estimate_tokens(text(item))
        if used + cost <= budget.max_tokens:
            chosen.append(item)
            used += cost
    return chosen, used, len(ranked) - len(chosen)
