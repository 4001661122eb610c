"""The ordered catalogue of MCP tools. Order is a wire contract (the ``tools/list`` golden);
a new tool is one ``ToolDef`` appended in its place here."""

from __future__ import annotations

from gno_adapters.mcp.registry import ToolDef
from gno_adapters.mcp.tools.delta import CHANGES, DIFF
from gno_adapters.mcp.tools.documents import GET, MULTI_GET
from gno_adapters.mcp.tools.egress import (
    AUDIT_DELETE,
    AUDIT_LIST,
    AUDIT_PURGE,
    AUDIT_SHOW,
    AUDIT_STATUS,
    CHECK,
    POLICY_GET,
    POLICY_SET,
)
from gno_adapters.mcp.tools.evidence import (
    ASK,
    CONTEXT,
    CONTEXT_VERIFY,
    QUERY_DIAGNOSE,
    SECTION,
)
from gno_adapters.mcp.tools.graph import GRAPH, GRAPH_NEIGHBORS, GRAPH_PATH, GRAPH_QUERY
from gno_adapters.mcp.tools.health import PEEK, STATUS
from gno_adapters.mcp.tools.integrity import AUDIT, IMPACT
from gno_adapters.mcp.tools.links import BACKLINKS, LINKS
from gno_adapters.mcp.tools.memory import RECALL, REMEMBER
from gno_adapters.mcp.tools.refactors import DUPLICATE_NOTE, MOVE_NOTE, RENAME_NOTE
from gno_adapters.mcp.tools.search import SEARCH
from gno_adapters.mcp.tools.semantic import QUERY, SIMILAR, VSEARCH
from gno_adapters.mcp.tools.tags import LIST_TAGS
from gno_adapters.mcp.tools.traces import (
    TRACE_DELETE,
    TRACE_EXPORT,
    TRACE_LABEL,
    TRACE_LIST,
    TRACE_PURGE,
    TRACE_SHOW,
)
from gno_adapters.mcp.tools.writes import (
    ADD_COLLECTION,
    CAPTURE,
    CLEAR_EMBEDDINGS,
    CREATE_FOLDER,
    EMBED,
    INDEX,
    JOB_STATUS,
    LIST_JOBS,
    REMOVE_COLLECTION,
    SYNC,
)

#: Every tool gno knows, in registry order (the spec's Tools section order).
ALL_TOOLS: tuple[ToolDef, ...] = (
    ASK,
    CONTEXT,
    CONTEXT_VERIFY,
    SEARCH,
    VSEARCH,
    QUERY,
    QUERY_DIAGNOSE,
    GET,
    SECTION,
    MULTI_GET,
    PEEK,
    STATUS,
    RECALL,
    CAPTURE,
    REMEMBER,
    LIST_TAGS,
    LINKS,
    BACKLINKS,
    SIMILAR,
    GRAPH,
    GRAPH_QUERY,
    CHANGES,
    DIFF,
    IMPACT,
    AUDIT,
    GRAPH_NEIGHBORS,
    GRAPH_PATH,
    ADD_COLLECTION,
    CREATE_FOLDER,
    RENAME_NOTE,
    MOVE_NOTE,
    DUPLICATE_NOTE,
    SYNC,
    EMBED,
    CLEAR_EMBEDDINGS,
    INDEX,
    REMOVE_COLLECTION,
    JOB_STATUS,
    LIST_JOBS,
    # The spec's "Collection Egress Policy and Audit Tools" section: reads, then writes.
    POLICY_GET,
    CHECK,
    AUDIT_LIST,
    AUDIT_SHOW,
    AUDIT_STATUS,
    POLICY_SET,
    AUDIT_DELETE,
    AUDIT_PURGE,
    TRACE_LIST,
    TRACE_SHOW,
    TRACE_LABEL,
    TRACE_EXPORT,
    TRACE_DELETE,
    TRACE_PURGE,
)

__all__ = ["ALL_TOOLS"]
