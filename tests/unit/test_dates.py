"""since/until bounds."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gno_core.errors import ValidationError
from gno_core.retrieval.dates import parse_bound
from gno_core.text.dates import iso_from_ns, parse_document_date, to_ns

NOW = to_ns(datetime(2026, 3, 18, 15, 30, tzinfo=UTC))  # a Wednesday


def iso(ns: int) -> str:
    return iso_from_ns(ns)


def test_absolute_dates() -> None:
    assert iso(parse_bound("2025-01-02", NOW)) == "2025-01-02T00:00:00Z"
    assert iso(parse_bound("2025-01-02", NOW, upper=True)) == "2025-01-03T00:00:00Z"
    assert iso(parse_bound("2025-01-02T10:00:00+02:00", NOW)) == "2025-01-02T08:00:00Z"


@pytest.mark.parametrize(
    ("token", "lower", "upper"),
    [
        ("today", "2026-03-18T00:00:00Z", "2026-03-19T00:00:00Z"),
        ("yesterday", "2026-03-17T00:00:00Z", "2026-03-18T00:00:00Z"),
        ("this week", "2026-03-16T00:00:00Z", "2026-03-23T00:00:00Z"),
        ("last month", "2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"),
        ("7d", "2026-03-11T15:30:00Z", "2026-03-11T15:30:00Z"),
        ("2 weeks ago", "2026-03-04T15:30:00Z", "2026-03-04T15:30:00Z"),
        ("24h", "2026-03-17T15:30:00Z", "2026-03-17T15:30:00Z"),
    ],
)
def test_relative_tokens(token: str, lower: str, upper: str) -> None:
    assert iso(parse_bound(token, NOW)) == lower
    assert iso(parse_bound(token, NOW, upper=True)) == upper


def test_bad_date_is_validation_error() -> None:
    with pytest.raises(ValidationError):
        parse_bound("next tuesday-ish", NOW)


def test_document_dates_tolerate_garbage() -> None:
    assert parse_document_date("2024-05-01") == to_ns(datetime(2024, 5, 1, tzinfo=UTC))
    assert parse_document_date("soon") is None
    assert parse_document_date(None) is None
