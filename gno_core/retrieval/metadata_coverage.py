"""What a filtered retrieval says about documents no typed filter can match yet: those indexed
before metadata was extracted (``pending``) and those whose ``gno.metadata`` is invalid."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.metadata.extract import INVALID, PENDING

if TYPE_CHECKING:
    from gno_core.contracts.search import MetadataCoverage, SearchResults
    from gno_core.ports.stats import IndexStats
    from gno_core.read_values import SearchFilters

__all__ = ["METADATA_WARNING", "metadata_coverage", "note_filter"]

#: The capsule warning of a filtered capsule while coverage is incomplete.
METADATA_WARNING = "metadata_coverage_incomplete"
FIX = "gno update"


def metadata_coverage(stats: IndexStats, filters: SearchFilters) -> MetadataCoverage | None:
    """The coverage warning of a filtered search over ``filters``' collections; None when the
    search has no typed filter or every document in scope has valid metadata."""
    from gno_core.contracts.search import MetadataCoverage

    if filters.metadata is None:
        return None
    counts = stats.unsettled_metadata(filters.collections)
    pending, invalid = counts.get(PENDING, 0), counts.get(INVALID, 0)
    if not pending and not invalid:
        return None
    parts = []
    if pending:
        parts.append(f"{pending} document(s) not yet extracted (run `{FIX}`)")
    if invalid:
        parts.append(f"{invalid} document(s) with invalid gno.metadata")
    message = (
        "The metadata filter cannot match "
        + " and ".join(parts)
        + "; an empty or short result is not proof of absence."
    )
    return MetadataCoverage(
        pending_documents=pending, invalid_documents=invalid, fix=FIX, message=message
    )


def note_filter(results: SearchResults, stats: IndexStats, filters: SearchFilters) -> SearchResults:
    """``results`` with the normalised predicate and the coverage warning in their ``meta``."""
    if filters.metadata is None:
        return results
    from gno_core.contracts.metadata import normalized_filter

    results.meta.filter = normalized_filter(filters.metadata)
    results.meta.metadata_coverage = metadata_coverage(stats, filters)
    return results
