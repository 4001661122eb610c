"""Ports: the ``typing.Protocol``s the core needs from the outside world, one per capability.

Adapters do not inherit from them; conformance is checked by mypy at the composition root and
by the contract test suites in ``tests/contract``, which run against every adapter, fakes included.
"""

from __future__ import annotations

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

__all__ = [
    "Cancelled",
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
    "WriteLease",
]
