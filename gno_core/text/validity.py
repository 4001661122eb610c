"""Text that is not Unicode: lone UTF-16 surrogates, refused at the core's edges.

Python strings can hold lone surrogates (a peer's ``"\\ud800"`` escape, a file name decoded
with ``surrogateescape``), but no UTF-8 writer, SQLite binding or JSON answer can carry them.
Refusing them where text enters the core turns a crash deep in an adapter into ``VALIDATION``.
"""

from __future__ import annotations

import re

from gno_core.errors import ValidationError

__all__ = ["has_lone_surrogate", "replace_lone_surrogates", "require_text"]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def has_lone_surrogate(value: str) -> bool:
    return _LONE_SURROGATE.search(value) is not None


def replace_lone_surrogates(value: str) -> str:
    """``value`` with each lone surrogate as U+FFFD, so that it can be written as UTF-8."""
    return _LONE_SURROGATE.sub("\ufffd", value)


def require_text(value: str, what: str) -> str:
    """``value`` unchanged, or ``VALIDATION`` (``reason: invalid_unicode``) naming ``what``."""
    if _LONE_SURROGATE.search(value) is not None:
        raise ValidationError(
            f"{what} is not valid Unicode text (it holds a lone UTF-16 surrogate)",
            details={"reason": "invalid_unicode", "field": what},
        )
    return value
