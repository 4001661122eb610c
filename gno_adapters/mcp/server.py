"""gno's MCP handlers: the tool registry, resources and facade behind the protocol engine.

``build_engine`` is the one place a transport gets a ready engine from: it checks the profile
(an unknown one fails with ``VALIDATION`` before anything is served), and everything heavy
(pydantic contracts, JSON Schema validators, the index) is deferred to first use.
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterable, Mapping

from gno_adapters.mcp.context import RequestContext
from gno_adapters.mcp.errors import argument_error, resource_error, tool_error
from gno_adapters.mcp.facade_holder import FacadeHolder, Facades
from gno_adapters.mcp.jsonrpc import INVALID_PARAMS, JSONObject, RpcError
from gno_adapters.mcp.protocol import Engine, Work
from gno_adapters.mcp.registry import ToolDef, ToolRegistry, parse_profile
from gno_adapters.mcp.resources import RESOURCE_TEMPLATES, RESOURCES, read_resource
from gno_adapters.mcp.tools.common import ToolCall, TransportStatus
from gno_core.surface import OPERATIONS, FacadeFactory

SERVER_NAME = "gno"
#: The ``serverInfo.version`` every ``initialize`` and modern ``serverInfo`` stamp carries: the
#: version of the MCP server contract gno implements (the spec's "Server Information", 1.0.0),
#: not the package version (``gno --version``, ``gno_core.version``), which moves on its own.
SERVER_CONTRACT_VERSION = "1.0.0"
WRITE_ENV = "GNO_MCP_ENABLE_WRITE"


def write_enabled_by_env(env: Mapping[str, str]) -> bool:
    """``GNO_MCP_ENABLE_WRITE=1`` enables the write tools as ``--enable-write`` does."""
    return env.get(WRITE_ENV, "").strip() == "1"


class GnoHandlers:
    """Implements the engine's ``Handlers`` for one server (one profile, one write gate).

    ``capabilities`` names the facade operations the factory's facades offer (default: all of
    ``gno_core.surface.Facade``); a tool that ``requires`` another is not registered.
    ``transport_status`` is how the serving transport reports itself in ``gno_status`` (the
    core reports a direct caller). ``job_factory`` builds the facade a job runs on (its own,
    on its own thread; default ``facade_factory``)."""

    def __init__(
        self,
        facade_factory: FacadeFactory,
        *,
        profile: str,
        enable_write: bool,
        capabilities: Iterable[str] = OPERATIONS,
        tools: tuple[ToolDef, ...] | None = None,
        facades: Facades | None = None,
        transport_status: TransportStatus | None = None,
        job_factory: FacadeFactory | None = None,
    ) -> None:
        self.profile = parse_profile(profile)
        self.enable_write = enable_write
        self.facades: Facades = facades or FacadeHolder(facade_factory)
        self.capabilities = frozenset(capabilities)
        self.transport_status = transport_status
        self.instance_id = secrets.token_hex(8)
        self._tools = tools
        from gno_adapters.mcp.jobs import Jobs

        #: One job manager per server process (stdio process or resident gateway): its jobs
        #: outlive the session that started them; ``close`` cancels the running one.
        self.jobs = Jobs(job_factory or facade_factory)
        self._registry: ToolRegistry | None = None
        self._lock = threading.Lock()

    @property
    def registry(self) -> ToolRegistry:
        with self._lock:
            if self._registry is None:
                from gno_adapters.mcp.tools import ALL_TOOLS
                from gno_core.contracts.schemas import build_schema

                self._registry = ToolRegistry(
                    self._tools if self._tools is not None else ALL_TOOLS,
                    profile=self.profile,
                    enable_write=self.enable_write,
                    has_capability=self.capabilities.__contains__,
                    output_schema=build_schema,
                )
            return self._registry

    def list_tools(self) -> list[JSONObject]:
        return self.registry.listing()

    def write_tool_names(self) -> frozenset[str]:
        """Every write tool gno knows, registered here or not: the HTTP write gate refuses
        them (403) before dispatch when writes are off."""
        from gno_adapters.mcp.tools import ALL_TOOLS

        known = self._tools if self._tools is not None else ALL_TOOLS
        return frozenset(t.name for t in known if t.write)

    def prepare_tool_call(self, ctx: RequestContext, name: str, arguments: JSONObject) -> Work:
        tool = self.registry.get(name)
        if tool is None:
            raise RpcError(INVALID_PARAMS, f"Unknown tool: {name}", {"tool": name})
        ctx.answers_cancelled = tool.answers_cancelled
        call = ToolCall(
            ctx, arguments, self.facades, self.transport_status, self.jobs, self.instance_id
        )
        return lambda: self._run_tool(tool, call)

    def _run_tool(self, tool: ToolDef, call: ToolCall) -> JSONObject:
        problem = self.registry.argument_error(tool, call.arguments)
        if problem is not None:
            return argument_error(tool.name, problem)
        try:
            return tool.handler(call)
        except Exception as exc:
            return tool_error(exc, tool.name)

    def list_resources(self) -> list[JSONObject]:
        return [dict(r) for r in RESOURCES]

    def list_resource_templates(self) -> list[JSONObject]:
        return [dict(t) for t in RESOURCE_TEMPLATES]

    def prepare_resource_read(self, ctx: RequestContext, uri: str) -> Work:
        def work() -> JSONObject:
            try:
                return read_resource(self.facades.get(), uri)
            except Exception as exc:
                raise resource_error(exc, uri) from exc

        return work

    def warm_up(self) -> None:
        """Pay the import and schema costs after the first answer, off the read loop."""
        self.registry.listing()
        import jsonschema  # type: ignore[import-untyped]  # noqa: F401

        import gno_core.contracts.requests  # noqa: F401

    def close(self) -> None:
        self.jobs.close()
        self.facades.close()


def build_engine(handlers: GnoHandlers) -> Engine:
    return Engine(handlers, name=SERVER_NAME, version=SERVER_CONTRACT_VERSION)
