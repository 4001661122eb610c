"""Date bounds for ``since``/``until``: ISO dates and times, or relative tokens."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from gno_core.text.dates import RELATIVE_RE, iso_range, to_ns

_UNIT_DAYS = {"d": 1, "w": 7, "m": 30, "y": 365}
_NS = 1_000_000_000


def parse_bound(value: str, now_ns: int, *, upper: bool = False) -> int:
    """Nanoseconds since the epoch for a ``since`` (lower) or ``until`` (``upper``) value.

    Accepts ``YYYY-MM-DD`` (an upper bound covers the whole day), ISO date-times (naive ones are
    UTC), ``today``, ``yesterday``, ``this week|month|year``, ``last week|month|year``, and
    ``<n><unit>`` / ``<n> <unit> ago`` with units h, d, w, m (30 days), y (365 days).
    """
    text = value.strip().lower()
    now = datetime.fromtimestamp(now_ns / _NS, tz=UTC)
    today = datetime.combine(now.date(), datetime.min.time(), tzinfo=UTC)
    start, end = _named(text, now, today)
    if start is None:
        m = RELATIVE_RE.match(text)
        if m:
            amount, unit = int(m.group(1)), m.group(2)[0]
            delta = (
                timedelta(hours=amount)
                if unit == "h"
                else timedelta(days=amount * _UNIT_DAYS[unit])
            )
            return to_ns(now - delta)
        start, end = iso_range(value.strip())
    return to_ns(end if upper else start)


def _named(text: str, now: datetime, today: datetime) -> tuple[datetime | None, datetime]:
    week_start = today - timedelta(days=today.weekday())
    month_start = today.replace(day=1)
    year_start = today.replace(month=1, day=1)
    table: dict[str, tuple[datetime, datetime]] = {
        "now": (now, now),
        "today": (today, today + timedelta(days=1)),
        "yesterday": (today - timedelta(days=1), today),
        "this week": (week_start, week_start + timedelta(days=7)),
        "last week": (week_start - timedelta(days=7), week_start),
        "this month": (month_start, _add_month(month_start)),
        "last month": (_sub_month(month_start), month_start),
        "this year": (year_start, year_start.replace(year=year_start.year + 1)),
        "last year": (year_start.replace(year=year_start.year - 1), year_start),
    }
    hit = table.get(text)
    return (hit[0], hit[1]) if hit else (None, now)


def _add_month(d: datetime) -> datetime:
    return d.replace(year=d.year + 1, month=1) if d.month == 12 else d.replace(month=d.month + 1)


def _sub_month(d: datetime) -> datetime:
    return d.replace(year=d.year - 1, month=12) if d.month == 1 else d.replace(month=d.month - 1)
