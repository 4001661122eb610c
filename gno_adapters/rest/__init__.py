"""The REST API of ``gno serve``: health, status, the reads and writes of the index
(``routes``) and the egress policy and receipts (``egress_routes``), each returning the same
contract as the CLI's ``--json``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from gno_adapters.rest.egress_routes import register_egress
from gno_adapters.rest.routes import Runner
from gno_adapters.rest.routes import register_rest as register_index_routes
from gno_core.surface import OPERATIONS

if TYPE_CHECKING:
    from quart import Quart

    from gno_core.contracts import ResidentStatus

__all__ = ["register_rest"]


def register_rest(
    app: Quart,
    runner: Runner,
    capabilities: Iterable[str] = OPERATIONS,
    transport_status: Callable[[], ResidentStatus] | None = None,
    *,
    enable_write: bool = False,
) -> None:
    """Add every REST route to ``app`` (``routes.register_rest`` says which and when)."""
    offered = frozenset(capabilities)
    register_index_routes(app, runner, offered, transport_status, enable_write=enable_write)
    register_egress(app, runner, offered, enable_write)
