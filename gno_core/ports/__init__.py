"""Ports: the ``typing.Protocol``s the core needs from the outside world, one per capability.

Adapters do not inherit from them; conformance is checked by mypy at the composition root and
by the contract test suites in ``tests/contract``, which run against every adapter, fakes included.

Names are imported on first use (PEP 562), as in ``gno_core.contracts``: a process imports the
ports it touches (a ``gno search`` neither the evidence, memory nor converter ones), not all.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gno_core.ports.clock import Clock
    from gno_core.ports.config import ConfigRepository
    from gno_core.ports.documents import DocumentStore
    from gno_core.ports.embedder import Embedder
    from gno_core.ports.evidence import EvidencePassage, GenerationRequest, Generator, TokenCounter
    from gno_core.ports.files import FrontmatterParser, SourceTree
    from gno_core.ports.index import Index, IndexProvider
    from gno_core.ports.lease import Cancelled, WriteLease
    from gno_core.ports.ledger import SyncLedger
    from gno_core.ports.lexical import LexicalIndex
    from gno_core.ports.links import LinkStore
    from gno_core.ports.memory import MemoryStore
    from gno_core.ports.notes import NoteFiles
    from gno_core.ports.reranker import Reranker
    from gno_core.ports.resident import ResidentProbe
    from gno_core.ports.semantic import SemanticModels
    from gno_core.ports.stats import IndexStats
    from gno_core.ports.vectors import VectorIndex
    from gno_core.ports.verifier import (
        ClaimToVerify,
        ClaimVerdict,
        ClaimVerifier,
        VerificationRequest,
    )

#: public name -> the module that defines it
_WHERE: dict[str, str] = {
    "Clock": "gno_core.ports.clock",
    "ConfigRepository": "gno_core.ports.config",
    "DocumentStore": "gno_core.ports.documents",
    "Embedder": "gno_core.ports.embedder",
    "EvidencePassage": "gno_core.ports.evidence",
    "GenerationRequest": "gno_core.ports.evidence",
    "Generator": "gno_core.ports.evidence",
    "TokenCounter": "gno_core.ports.evidence",
    "FrontmatterParser": "gno_core.ports.files",
    "SourceTree": "gno_core.ports.files",
    "Index": "gno_core.ports.index",
    "IndexProvider": "gno_core.ports.index",
    "Cancelled": "gno_core.ports.lease",
    "WriteLease": "gno_core.ports.lease",
    "SyncLedger": "gno_core.ports.ledger",
    "LexicalIndex": "gno_core.ports.lexical",
    "LinkStore": "gno_core.ports.links",
    "MemoryStore": "gno_core.ports.memory",
    "NoteFiles": "gno_core.ports.notes",
    "Reranker": "gno_core.ports.reranker",
    "ResidentProbe": "gno_core.ports.resident",
    "SemanticModels": "gno_core.ports.semantic",
    "IndexStats": "gno_core.ports.stats",
    "VectorIndex": "gno_core.ports.vectors",
    "ClaimToVerify": "gno_core.ports.verifier",
    "ClaimVerdict": "gno_core.ports.verifier",
    "ClaimVerifier": "gno_core.ports.verifier",
    "VerificationRequest": "gno_core.ports.verifier",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


__all__ = [
    "Cancelled",
    "ClaimToVerify",
    "ClaimVerdict",
    "ClaimVerifier",
    "Clock",
    "ConfigRepository",
    "DocumentStore",
    "Embedder",
    "EvidencePassage",
    "FrontmatterParser",
    "GenerationRequest",
    "Generator",
    "Index",
    "IndexProvider",
    "IndexStats",
    "LexicalIndex",
    "LinkStore",
    "MemoryStore",
    "NoteFiles",
    "Reranker",
    "ResidentProbe",
    "SemanticModels",
    "SourceTree",
    "SyncLedger",
    "TokenCounter",
    "VectorIndex",
    "VerificationRequest",
    "WriteLease",
]
