"""The ``Gno`` facade: the one object transports and Python callers use. It holds no logic of
its own: each operation delegates to the capability that owns it, all sharing one
``IndexHandle`` (``base.py``: the adapters and the capabilities, built on first use).

The operations are grouped by room, one module each; a new tool's delegating method goes into
its room's module (and, when a transport calls it, its name into ``gno_core.surface.OPERATIONS``
and its signature into ``gno_core.surface.Facade``, which mypy checks ``Gno`` against below):

- ``reads.py``: search, vsearch, query, similar, get, multi-get, ls, tags, links, backlinks,
  status, peek;
- ``indexing.py``: init, collections, sync, watch, embed, index;
- ``writes.py``: capture, folders, agent collection changes, clearing embeddings;
- ``graph.py``: graph, neighbours, path, typed traversal;
- ``evidence.py``: context, verify, section, query diagnose, ask;
- ``memory.py``: recall, remember;
- ``refactors.py``: rename, move and duplicate a note without breaking links;
- ``integrity.py``: impact (what depends on a document) and the knowledge audit;
- ``delta.py``: the change journal and a document's structural diff;
- ``egress.py``: collection egress policy, decisions and their receipts;
- ``traces.py``: retrieval traces (recording, list, show, label, delete, purge).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.facade.delta import DeltaCalls
from gno_core.facade.egress import EgressCalls
from gno_core.facade.evidence import EvidenceCalls
from gno_core.facade.graph import GraphCalls
from gno_core.facade.indexing import IndexingCalls
from gno_core.facade.integrity import IntegrityCalls
from gno_core.facade.memory import MemoryCalls
from gno_core.facade.reads import ReadCalls
from gno_core.facade.refactors import RefactorCalls
from gno_core.facade.traces import TraceCalls
from gno_core.facade.writes import WriteCalls

if TYPE_CHECKING:
    from gno_core.surface import Facade

__all__ = ["Gno"]


class Gno(
    ReadCalls,
    IndexingCalls,
    WriteCalls,
    GraphCalls,
    EvidenceCalls,
    MemoryCalls,
    RefactorCalls,
    IntegrityCalls,
    DeltaCalls,
    TraceCalls,  # on EgressCalls: an export asks the egress policy
    EgressCalls,
):
    """One index of gno and everything that can be done with it.

    Built by the composition root (``gno_adapters.bootstrap``); the index opens lazily on first
    use, so cheap calls (``peek``, listing collections) never create or migrate a database.
    """


if TYPE_CHECKING:

    def _serves_transports(gno: Gno) -> Facade:
        """Never called: mypy checks here that ``Gno`` has every operation of the transports'
        ``Facade``, with signatures that accept their calls."""
        return gno
