"""The one table that maps gno failures onto MCP: ``isError`` tool results and JSON-RPC errors.

Tool failures are results the model can read (``Error: <message>``), so it can correct itself.
Resource failures are JSON-RPC errors: a missing document, collection or index is ``-32602``
with ``data.uri`` (the 2026-07-28 resource-not-found rule); other gno codes are ``-32603``.
"""

from __future__ import annotations

import logging
from typing import Any

from gno_adapters.mcp.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, JSONObject, RpcError
from gno_adapters.mcp.tools.common import error_result

log = logging.getLogger("gno.mcp")

#: gno error code -> JSON-RPC code for a failed ``resources/read``. Unlisted codes: -32603.
RESOURCE_ERROR_CODES: dict[str, int] = {
    "NOT_FOUND": INVALID_PARAMS,
    "VALIDATION": INVALID_PARAMS,
    "INVALID_PATH": INVALID_PARAMS,
    "PATH_NOT_FOUND": INVALID_PARAMS,
}
INTERNAL_MESSAGE = "Internal error (details are in the server log)"


def tool_error(exc: Exception, tool: str) -> JSONObject:
    """The ``isError`` result for a tool call that raised ``exc``."""
    from gno_core.errors import GnoError

    if isinstance(exc, GnoError):
        return error_result(exc.message, exc.code)
    message = _validation_message(exc)
    if message is not None:
        return error_result(message, "VALIDATION")
    log.error("tool %s failed", tool, exc_info=exc)
    return error_result(INTERNAL_MESSAGE, "RUNTIME")


def resource_error(exc: Exception, uri: str) -> RpcError:
    """The JSON-RPC error for a ``resources/read`` of ``uri`` that raised ``exc``."""
    from gno_core.errors import GnoError

    if isinstance(exc, RpcError):
        return exc
    if isinstance(exc, GnoError):
        code = RESOURCE_ERROR_CODES.get(exc.code, INTERNAL_ERROR)
        return RpcError(code, exc.message, {"uri": uri, "code": exc.code})
    message = _validation_message(exc)
    if message is not None:
        return RpcError(INVALID_PARAMS, message, {"uri": uri, "code": "VALIDATION"})
    log.error("resource read %s failed", uri, exc_info=exc)
    return RpcError(INTERNAL_ERROR, INTERNAL_MESSAGE, {"uri": uri})


def _validation_message(exc: Exception) -> str | None:
    """A request model's validation failure as one readable line, else ``None``."""
    from pydantic import ValidationError

    from gno_core.errors import validation_problems

    if not isinstance(exc, ValidationError):
        return None
    return "Invalid arguments: " + validation_problems(exc.errors(), unnamed="")


def argument_error(tool: str, detail: Any) -> JSONObject:
    return error_result(f"Invalid arguments for tool {tool}: {detail}", "VALIDATION")
