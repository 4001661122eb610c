"""Ports: the ``typing.Protocol``s the core needs from the outside world.

Adapters do not inherit from them; conformance is checked by mypy at the composition root and
by the contract test suites in ``tests/contract``, which run against every adapter, fakes included.
"""

from __future__ import annotations

from gno_core.ports.clock import Clock
from gno_core.ports.config import ConfigRepository
from gno_core.ports.files import FrontmatterParser, SourceTree
from gno_core.ports.store import DocumentStore, LexicalIndex

__all__ = [
    "Clock",
    "ConfigRepository",
    "DocumentStore",
    "FrontmatterParser",
    "LexicalIndex",
    "SourceTree",
]
