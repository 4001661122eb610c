"""The tool registry: which tools a server advertises, in what order, with which schemas.

A tool is one ``ToolDef`` entry. What a server exposes is decided once, at start: the write gate
(``--enable-write``) adds the write tools, the profile (``core`` | ``full``) narrows the set, and
tools whose facade capability does not exist yet are left out. Descriptions come from the
``full`` table, or the ``core`` micro-instruction table on the core profile.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gno_adapters.mcp.descriptions import CORE_DESCRIPTIONS, FULL_DESCRIPTIONS
from gno_adapters.mcp.jsonrpc import JSONObject

if TYPE_CHECKING:
    from gno_adapters.mcp.tools.common import ToolCall

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
PROFILES = ("full", "core")
DEFAULT_PROFILE = "full"
MAX_REPORTED_ERRORS = 20
#: The most items any list argument of any tool may hold (``gno_multi_get`` refs included).
MAX_LIST_ITEMS = 1000
MAX_MESSAGE_CHARS = 300
CORE_READ_TOOLS = frozenset(
    [
        "gno_query",
        "gno_search",
        "gno_get",
        "gno_multi_get",
        "gno_context",
        "gno_changes",
        "gno_recall",
    ]
)
CORE_WRITE_TOOLS = frozenset({"gno_capture", "gno_remember"})
READ_ONLY: JSONObject = {
    "readOnlyHint": True,
    "destructiveHint": False,
    "idempotentHint": True,
    "openWorldHint": False,
}

Handler = Callable[["ToolCall"], JSONObject]


@dataclass(frozen=True, slots=True)
class ToolDef:
    """One tool. ``output`` names a contract in ``gno_core.contracts.SCHEMAS``; ``requires`` names
    the facade method the tool needs (the tool is registered only when it exists).
    ``input_schema`` may be a mapping that derives itself on first use
    (``gno_adapters.mcp.tools.schema.DerivedSchema``)."""

    name: str
    input_schema: Mapping[str, Any]
    output: str | None
    handler: Handler
    write: bool = False
    requires: str | None = None
    annotations: JSONObject = field(default_factory=lambda: dict(READ_ONLY))
    #: A cancelled call still answers, with a result that says it is incomplete (see
    #: ``gno_adapters.mcp.protocol``); off for every tool but ``gno_audit``.
    answers_cancelled: bool = False


def closed(schema: Mapping[str, Any]) -> JSONObject:
    """``schema`` as a closed object: ``additionalProperties: false`` unless it says otherwise
    or closes each of its ``oneOf`` branches itself (issue 23: an unknown argument is refused
    before any handler runs, never silently dropped)."""
    out: JSONObject = dict(schema)
    if "additionalProperties" not in out and "oneOf" not in out:
        out["additionalProperties"] = False
    return out


def declared_names(schema: Mapping[str, Any]) -> set[str] | None:
    """The top-level argument names a closed ``schema`` takes (any ``oneOf`` branch's), or
    ``None`` when it is open."""
    branches = schema.get("oneOf") or [schema]
    names: set[str] = set()
    for branch in branches:
        if branch.get("additionalProperties", schema.get("additionalProperties")) is not False:
            return None
        names.update(branch.get("properties", {}))
    return names


def parse_profile(value: str | None) -> str:
    """The tool profile named by a flag; an unknown value is a ``VALIDATION`` error."""
    if value is None:
        return DEFAULT_PROFILE
    if value not in PROFILES:
        from gno_core.errors import ValidationError

        raise ValidationError(
            f"Unknown tool profile {value!r}: use core or full", details={"profile": value}
        )
    return value


def in_profile(tool: ToolDef, profile: str) -> bool:
    if profile == "full":
        return True
    return tool.name in (CORE_WRITE_TOOLS if tool.write else CORE_READ_TOOLS)


def description(name: str, profile: str) -> str:
    if profile == "core" and name in CORE_DESCRIPTIONS:
        return CORE_DESCRIPTIONS[name]
    return FULL_DESCRIPTIONS[name]


class ToolRegistry:
    """The active tools of one server, with their ``tools/list`` entries built once."""

    def __init__(
        self,
        tools: Sequence[ToolDef],
        *,
        profile: str,
        enable_write: bool,
        has_capability: Callable[[str], bool],
        output_schema: Callable[[str], JSONObject],
    ) -> None:
        self.profile = parse_profile(profile)
        self.enable_write = enable_write
        self.tools = [
            t
            for t in tools
            if (enable_write or not t.write)
            and in_profile(t, self.profile)
            and (t.requires is None or has_capability(t.requires))
        ]
        self._by_name = {t.name: t for t in self.tools}
        self._output_schema = output_schema
        self._listing: list[JSONObject] | None = None
        #: Per tool: the validator of its closed input schema and the argument names it declares.
        self._validators: dict[str, tuple[Any, set[str] | None]] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> ToolDef | None:
        return self._by_name.get(name)

    def listing(self) -> list[JSONObject]:
        """The ``tools`` array of ``tools/list`` (identical across eras)."""
        with self._lock:
            if self._listing is None:
                self._listing = [self._entry(t) for t in self.tools]
            return self._listing

    def _entry(self, tool: ToolDef) -> JSONObject:
        entry: JSONObject = {
            "name": tool.name,
            "description": description(tool.name, self.profile),
            "inputSchema": {"$schema": JSON_SCHEMA_DIALECT, **closed(tool.input_schema)},
        }
        if tool.output is not None:
            entry["outputSchema"] = self._output_schema(tool.output)
        entry["annotations"] = dict(tool.annotations)
        return entry

    def _checker(self, tool: ToolDef) -> tuple[Any, set[str] | None]:
        """The tool's validator and declared argument names, built once and kept."""
        with self._lock:
            checker = self._validators.get(tool.name)
            if checker is None:
                from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

                schema = closed(tool.input_schema)
                checker = (Draft202012Validator(schema), declared_names(schema))
                self._validators[tool.name] = checker
            return checker

    def argument_error(self, tool: ToolDef, arguments: Mapping[str, Any]) -> str | None:
        """Why ``arguments`` fail the tool's input schema, or ``None`` when they pass."""
        for name, value in arguments.items():
            # Before the schema walks every item: no tool takes more than this many, and a
            # frame of tiny items would otherwise cost a second of validation.
            if isinstance(value, list) and len(value) > MAX_LIST_ITEMS:
                return (
                    f"{name[:MAX_MESSAGE_CHARS]}: {len(value)} items; at most {MAX_LIST_ITEMS} "
                    "per call"
                )
        validator, known = self._checker(tool)
        unknown = sorted(name for name in arguments if known is not None and name not in known)
        if unknown:
            # Named first and plainly: a misspelled argument is the caller's likeliest mistake.
            names = ", ".join(repr(name[:MAX_MESSAGE_CHARS]) for name in unknown[:8])
            allowed = ", ".join(sorted(known or ())) or "none"
            return f"unknown field(s) {names}; this tool takes: {allowed}"
        # A hostile list can fail on every item: look at a bounded number of failures, and never
        # echo a huge argument back inside the message.
        found = itertools.islice(validator.iter_errors(dict(arguments)), MAX_REPORTED_ERRORS)
        errors = sorted(found, key=lambda e: [str(p) for p in e.path])
        if not errors:
            return None
        first = errors[0]
        where = ".".join(str(p) for p in first.absolute_path)[:MAX_MESSAGE_CHARS]
        message = first.message
        if len(message) > MAX_MESSAGE_CHARS:
            message = message[:MAX_MESSAGE_CHARS] + "..."
        return f"{where}: {message}" if where else message
