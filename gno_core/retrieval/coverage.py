"""Saying what search by meaning could not see: when some chunks of the searched collections have
no vector yet (a model changed, ``gno sync`` ran without ``gno embed``, an embedding run was
stopped), ``vsearch``, ``query``, ``context`` and ``ask`` still answer from the embedded part;
this module words the gap so that every surface says it the same way (issue 22, failure 6)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from gno_core.ports.index import Index
    from gno_core.ports.vectors import Coverage

#: The command that embeds what is missing (``gno index`` syncs first, then does the same).
FIX = "gno embed"
#: The capsule warning of a scope searched by meaning only in part (its share is not part of
#: the closed capsule: the text renderings say it, see ``capsule_note``).
GAP_WARNING = "embedding_coverage_incomplete"


class VectorGap(NamedTuple):
    """The searched ``collections`` (None: all) and their incomplete ``coverage``."""

    coverage: Coverage
    collections: tuple[str, ...] | None

    @property
    def message(self) -> str:
        return coverage_message(self.coverage, self.collections)

    def wire(self) -> dict[str, Any]:
        return coverage_wire(self.coverage, self.collections)


def vector_gap(
    index: Index, fingerprint: str, collections: tuple[str, ...] | None
) -> VectorGap | None:
    """What search by meaning misses in ``collections`` (all when None or empty); None when
    every chunk there has a vector for ``fingerprint``."""
    scope = tuple(collections) if collections else None
    coverage = index.vectors.coverage(fingerprint, scope)
    return None if coverage is None else VectorGap(coverage, scope)


def coverage_message(coverage: Coverage, collections: tuple[str, ...] | None) -> str:
    """One sentence: how much is embedded, what search by meaning misses and the fix."""
    names = tuple(collections or ())
    whose = ", ".join(names) if names else "the index"
    return (
        f"{coverage.percent}% of the chunks of {whose} have vectors ({coverage.embedded:,} of "
        f"{coverage.total:,}); search by meaning sees only those: run `{FIX}` "
        "(or `gno index`) to embed the rest"
    )


def coverage_wire(coverage: Coverage, collections: tuple[str, ...] | None) -> dict[str, Any]:
    """The values of the ``VectorCoverage`` contract (``meta.vectorCoverage``)."""
    return {
        "embedded_chunks": coverage.embedded,
        "total_chunks": coverage.total,
        "percent": coverage.percent,
        "fix": FIX,
        "message": coverage_message(coverage, collections),
    }


def capsule_gap(capsule: dict[str, Any]) -> bool:
    """Whether a capsule (or the capsule of an Ask result) carries ``GAP_WARNING``."""
    inner = capsule.get("verification", {}).get("capsule", capsule)
    return GAP_WARNING in inner.get("warnings", ())


def capsule_note(message: str | None) -> str:
    """The note rendered beside a capsule that carries ``GAP_WARNING``: the share now
    (``message``, ``VectorGap.message``), or, when the backlog was embedded since, the warning
    alone."""
    if message is not None:
        return f"Note: {message}"
    return (
        f"Note: {GAP_WARNING}: search by meaning saw only the embedded part of the collections "
        f"(run `{FIX}`)"
    )
