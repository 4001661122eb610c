"""Instants as gno stores and shows them: nanoseconds since the epoch, UTC ISO 8601 text, and
the ISO dates and date-times documents carry (``date:`` in frontmatter)."""

from __future__ import annotations

import re
from datetime import UTC, date, datetime, timedelta

from gno_core.errors import ValidationError

__all__ = ["RELATIVE_RE", "iso_from_ns", "iso_range", "parse_document_date", "to_ns"]

#: A relative date token (``7d``, ``2 weeks ago``); only named here to say why ``-7d`` is refused.
RELATIVE_RE = re.compile(r"^(\d+)\s*(h|d|w|m|y|hours?|days?|weeks?|months?|years?)(\s+ago)?$")
_NS = 1_000_000_000


def to_ns(moment: datetime) -> int:
    return int(moment.timestamp() * _NS)


def iso_from_ns(ns: int) -> str:
    """UTC ISO 8601 with a ``Z`` suffix and second precision."""
    return datetime.fromtimestamp(ns / _NS, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_range(text: str) -> tuple[datetime, datetime]:
    """The span an ISO date (the whole day) or date-time (one instant; naive ones are UTC) covers.

    Raises ``VALIDATION`` for anything else."""
    try:
        if len(text) == 10:
            day = date.fromisoformat(text)
            start = datetime.combine(day, datetime.min.time(), tzinfo=UTC)
            return start, start + timedelta(days=1)
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError as exc:
        if RELATIVE_RE.match(text.lstrip("-").lower()):
            raise ValidationError(
                f"Invalid date {text!r}: relative tokens have no sign, they count back from "
                f"now: use {text.lstrip('-')!r}",
                details={"value": text},
            ) from exc
        raise ValidationError(
            f"Invalid date {text!r}: use YYYY-MM-DD, an ISO date-time, or a relative token "
            "such as 7d, 2w, today, last month",
            details={"value": text},
        ) from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment, moment


def parse_document_date(value: str | None) -> int | None:
    """Nanoseconds for a stored ISO document date, or None when absent or unparseable."""
    if not value:
        return None
    try:
        return to_ns(iso_range(value)[0])
    except ValidationError:
        return None
