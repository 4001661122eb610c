"""Collection egress policy where bytes leave the gateway: every ``tools/call``,
``resources/list``, ``resources/templates/list`` and ``resources/read`` is judged against the
socket peer's zone and the effective policy of every collection it references, before dispatch
and again before its answer is written.

Before dispatch (``EgressGate.admit``): the peer's zone comes from the socket address alone
(``gno_core.egress.zones``; a request relayed by a proxy is ``remote``: whoever is behind the
proxy is unknown). A loopback caller is decided by its zone (the reference order allows a local
destination before any policy is read), so nothing is looked up for it. For any other caller the
referenced collections are the ones the request names (``collection``, ``collections``, every
``gno://<collection>`` reference in its arguments or URI), or every configured collection when
it names none. Naming a collection whose policy refuses the destination is refused whole (403,
``EGRESS_DENIED``, with the redacted evaluator audit); so is an unnamed scope where no
collection may go, or one that only partly may for a tool whose answer cannot be split.

Before the answer is written (``Ticket.release``, on the worker thread, right after the work):
the policy epoch is read again, and an answer admitted under an older epoch is replaced by the
content-free ``EGRESS_POLICY_CHANGED`` retry (409); then the answer is held to the scope that
may go. The ranked retrieval tools drop the hits of omitted collections and say so
(``_meta["gno/egress"]``: ``partial``, the omitted collections, a remediation); whatever the
tool, an answer that still references a collection that may not go (a value that is a
``gno://`` URI, not text that mentions one) is refused whole (fail closed).
Every decision for a non-loopback caller leaves a content-free receipt (``EgressBook.record``).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qs, urlsplit

from gno_adapters.http.refusals import Refusal
from gno_adapters.mcp.jsonrpc import JSONObject, RequestId
from gno_core.egress.decision import CollectionPolicy, EgressDecision, EgressRequest, decide
from gno_core.egress.plan import EgressPlan, Omission, PartialMode, plan, remediation_for
from gno_core.egress.scope import sources_for
from gno_core.egress.zones import classify_peer

__all__ = [
    "CHECKED_METHODS",
    "EgressBook",
    "EgressBookOf",
    "EgressGate",
    "EgressRefusal",
    "FacadeBook",
    "GateDecision",
    "Ticket",
    "facade_book",
    "zone_of",
]

log = logging.getLogger("gno.http")
CHECKED_METHODS = frozenset(
    {"tools/call", "resources/list", "resources/templates/list", "resources/read"}
)
#: Ranked retrieval: ``structuredContent.results[].uri``; hits of omitted collections dropped.
RANKED = frozenset({"gno_search", "gno_vsearch", "gno_query"})
#: Answers about the documents they name: they go when every collection they name may.
BOUND = frozenset(
    {
        "gno_get",
        "gno_multi_get",
        "gno_section",
        "gno_links",
        "gno_backlinks",
        "gno_similar",
        "gno_diff",
        "resources/read",
    }
)
#: Answers that hold no collection's content (the static resource lists): they go whenever
#: any collection of the scope may.
STATIC = frozenset({"resources/list", "resources/templates/list"})
SPLITTABLE = RANKED | BOUND | STATIC
CONTENT_CLASS: dict[str, str] = {
    **dict.fromkeys(("gno_search", "gno_vsearch", "gno_query", "gno_similar"), "snippet"),
    **dict.fromkeys(("gno_recall", "gno_query_diagnose"), "snippet"),
    **dict.fromkeys(
        ("gno_get", "gno_multi_get", "gno_section", "gno_diff", "resources/read"), "source"
    ),
    **dict.fromkeys(("gno_context", "gno_context_verify", "gno_ask"), "capsule"),
    # The REST routes without an MCP tool of their own (``gno_adapters.rest.egress``).
    **dict.fromkeys(("api/search", "api/query", "api/query/diagnose"), "snippet"),
    **dict.fromkeys(("api/memory/recall",), "snippet"),
    **dict.fromkeys(("api/context", "api/context/verify", "api/ask"), "capsule"),
}
META_KEY = "gno/egress"
TAGS_URI = "gno://tags"
#: A ``gno://`` reference's collection (canonical names only: ``gno://{collection}`` in a
#: resource template names none).
_URI = re.compile(r"gno://([a-z0-9][a-z0-9_-]{0,63})(?![a-z0-9_-])", re.IGNORECASE)
#: A value that is a ``gno://`` reference as a whole (a ``uri`` field, a citation), not text
#: that mentions one.
_REFERENCE = re.compile(r"gno://([a-z0-9][a-z0-9_-]{0,63})(?:[/?#]\S*)?", re.IGNORECASE)
PARTIAL_REMEDY = (
    "Content of the omitted collections does not leave this machine for this peer: ask from "
    "the machine itself, or relax their policy with a confirmed change (gno collection policy "
    "set)."
)


@dataclass(frozen=True, slots=True)
class GateDecision:
    """A decision the gateway made, for its receipt: the collections it is about (empty: the
    whole configured scope), the destination, the class, and whether the scope was split."""

    collections: tuple[str, ...]
    zone: str
    content_class: str
    authenticated: bool
    partial: PartialMode
    operation: str


class EgressBook(Protocol):
    """What the gate reads and writes: the authorization epoch, every configured collection's
    effective policy, and the content-free receipt of a decision (the store plans it again
    from the current policies and keeps its receipt: ``Gno.egress_authorize``)."""

    def epoch(self) -> int: ...

    def policies(self) -> Sequence[CollectionPolicy]: ...

    def record(self, decision: GateDecision) -> None: ...


class FacadeBook:
    """``EgressBook`` over a ``gno_core.facade.Gno`` (its ``egress_*`` calls)."""

    def __init__(self, facade: Any) -> None:
        self.facade = facade

    def epoch(self) -> int:
        return int(self.facade.egress_epoch())

    def policies(self) -> Sequence[CollectionPolicy]:
        return tuple(self.facade.egress_sources())

    def record(self, decision: GateDecision) -> None:
        self.facade.egress_authorize(
            collections=list(decision.collections) or None,
            action="serve",
            zone=decision.zone,
            content_class=decision.content_class,
            authenticated=decision.authenticated,
            authorized=True,
            partial=decision.partial,
            operation=decision.operation,
            record=True,
        )


#: How the gate finds the book of a worker's facade (``None``: there is none, nothing may go).
EgressBookOf = Callable[[Any], "EgressBook | None"]


def facade_book(facade: Any) -> EgressBook | None:
    """The egress book of a facade that keeps policies (``gno_core.facade.Gno``), ``None``
    for one that does not (then nothing goes beyond loopback)."""
    return FacadeBook(facade) if callable(getattr(facade, "egress_authorize", None)) else None


def zone_of(peer: str, *, proxied: bool) -> str:
    """The destination zone of a caller: the socket peer's, or ``remote`` when a proxy relayed
    the request (its socket peer is the proxy, never the caller)."""
    zone = classify_peer(peer)
    if proxied and zone in ("loopback", "lan"):
        return "remote"
    return zone


@dataclass(frozen=True, slots=True)
class Reference:
    """What a request asks for, read from the message alone (no store)."""

    subject: str  # the tool's name, or the method (``gno://tags`` for a tags read)
    #: The collections the request names; ``None``: it names none (its scope is every one).
    named: frozenset[str] | None
    content_class: str


#: The reference of a local caller's request: decided by its zone, never read.
LOCAL = Reference(subject="local", named=None, content_class="metadata")


def reference_of(message: Mapping[str, Any]) -> Reference | None:
    """The egress subject of ``message``, ``None`` when its method is not checked."""
    method = message.get("method")
    if not isinstance(method, str) or method not in CHECKED_METHODS:
        return None
    params = message.get("params")
    params = params if isinstance(params, Mapping) else {}
    subject = method
    names: set[str] = set()
    if method == "tools/call":
        name = params.get("name")
        subject = name if isinstance(name, str) else "unknown"
        arguments = params.get("arguments")
        if isinstance(arguments, Mapping):
            _named(arguments, names)
    elif method == "resources/read":
        uri = params.get("uri")
        if isinstance(uri, str):
            names.update(_collections_in(uri))
            query = parse_qs(urlsplit(uri).query)
            names.update(v.strip().lower() for v in query.get("collection", []) if v.strip())
            if uri == TAGS_URI or uri.startswith(TAGS_URI + "?"):
                subject = TAGS_URI  # tag counts, not a document: never split
    return Reference(
        subject=subject,
        named=frozenset(names) if names else None,
        content_class=CONTENT_CLASS.get(subject, "metadata"),
    )


def _named(value: Any, names: set[str], key: str = "") -> None:
    if isinstance(value, str):
        names.update(_collections_in(value))
        if key in ("collection", "collections") and value.strip():
            names.add(value.strip().lower())
    elif isinstance(value, Mapping):
        for k, v in value.items():
            _named(v, names, str(k))
    elif isinstance(value, list):
        for item in value:
            _named(item, names, key)


@dataclass
class Ticket:
    """One admitted request: its caller, its reference, and the epoch and plan it was
    admitted under."""

    reference: Reference
    zone: str
    authenticated: bool
    request_id: RequestId | None
    epoch: int | None = None
    scope_plan: EgressPlan | None = None
    policies: dict[str, CollectionPolicy] = field(default_factory=dict)

    @property
    def local(self) -> bool:
        return self.zone in ("loopback", "local_process")

    def request(self, collections: Sequence[str]) -> EgressRequest:
        return EgressRequest(
            collections=sources_for(collections, self.policies),
            action="serve",
            zone=self.zone,
            content_class=self.reference.content_class,
            authenticated=self.authenticated,
            authorized=True,
        )

    def release(
        self, response: JSONObject | None, book: EgressBook | None, *, rendered: bool = False
    ) -> JSONObject | None:
        """The answer to write for ``response`` (on the worker thread, right after the work):
        unchanged for a loopback caller; else the epoch rechecked, the answer held to the scope
        that may go, and a receipt written. Raises ``EgressRefusal``.

        The collections an answer is made of are its references (every value that is a
        ``gno://`` URI: the ``uri`` of a hit, a document, a citation), not what its notes' text
        mentions (a note may cite another collection's note and is still its own collection's
        content). ``rendered``: the answer is a rendered page (HTML), whose references are
        only known from its text: any ``gno://`` reference in it counts."""
        if self.local or response is None:
            return response
        if book is None:  # the policy store went away: nothing may go
            raise EgressRefusal(self.request_id, "NO_COLLECTION_POLICY")
        if book.epoch() != self.epoch:
            # Content-free, and no decision on content was made: nothing to keep.
            raise EgressRefusal(self.request_id, "EGRESS_POLICY_CHANGED")
        scope = self.scope_plan
        assert scope is not None
        allowed = frozenset(scope.allowed)
        omitted = scope.omitted
        result = response.get("result")
        partial = bool(omitted) and self.reference.subject in RANKED and isinstance(result, dict)
        if partial:
            assert isinstance(result, dict)
            _drop_hits(result, allowed)
        # Whatever the tool, and whether it succeeded or not: an answer that names a collection
        # that may not go is refused whole (fail closed).
        named = (
            _collections_in(json.dumps(response, ensure_ascii=False))
            if rendered
            else _references(response)
        )
        leaked = sorted(named - allowed)
        if leaked:
            self.deny(book, decide(self.request(leaked)), scope=leaked)
        if self.reference.subject in BOUND and named:
            self._record(book, sorted(named), "deny")  # the documents that went
        elif partial:
            self._record(book, self._scope(), "explicit")
        else:
            self._record(book, sorted(allowed), "deny")
        if partial:
            assert isinstance(result, dict)
            disclosure: dict[str, Any] = {
                "mode": "partial",
                "omittedCollections": [
                    {"collection": o.collection, "reason": o.reason} for o in omitted
                ],
                "remediation": PARTIAL_REMEDY,
            }
            result["_meta"] = {**(result.get("_meta") or {}), META_KEY: disclosure}
        return response

    def deny(
        self,
        book: EgressBook,
        decision: EgressDecision,
        omitted: Sequence[Omission] = (),
        *,
        scope: Sequence[str] | None = None,
    ) -> None:
        """Refuse with ``decision`` (403), after keeping its receipt."""
        omitted = tuple(omitted) or tuple(
            Omission(name, decision.reason) for name in decision.audit.collections
        )
        try:
            self._record(book, self._scope() if scope is None else scope, "deny")
        except Exception:  # a receipt that cannot be kept never turns a refusal into content
            log.warning("egress: the receipt of a refusal was not kept", exc_info=True)
        raise EgressRefusal(self.request_id, decision.reason, decision=decision, omitted=omitted)

    def _scope(self) -> list[str]:
        named = self.reference.named
        return sorted(named) if named is not None else []

    def _record(self, book: EgressBook, collections: Sequence[str], partial: PartialMode) -> None:
        book.record(
            GateDecision(
                collections=tuple(collections),
                zone=self.zone,
                content_class=self.reference.content_class,
                authenticated=self.authenticated,
                partial=partial,
                operation=self.reference.subject,
            )
        )


class EgressRefusal(Refusal):
    """403 ``EGRESS_DENIED`` with the redacted evaluator audit, the omitted collections and a
    remediation; or, for ``EGRESS_POLICY_CHANGED``, the content-free 409 retry."""

    def __init__(
        self,
        request_id: RequestId | None,
        reason: str,
        *,
        decision: EgressDecision | None = None,
        omitted: Sequence[Omission] = (),
    ) -> None:
        changed = reason == "EGRESS_POLICY_CHANGED"
        if changed:
            super().__init__(409, "egress_policy_changed", request_id=request_id, retry_after=0)
        else:
            super().__init__(403, "egress_denied", request_id=request_id)
        egress: dict[str, Any] = {
            "code": "EGRESS_POLICY_CHANGED" if changed else "EGRESS_DENIED",
            "reason": reason,
        }
        if decision is not None:
            from gno_core.egress.wire import decision_view

            egress["audit"] = decision_view(decision).audit.wire()
            remedy = remediation_for(decision)
            if remedy is not None:
                egress["remediation"] = {"code": remedy.code, "message": remedy.message}
        if omitted:
            egress["omittedCollections"] = [
                {"collection": o.collection, "reason": o.reason} for o in omitted
            ]
        self.egress = egress

    def payload(self) -> dict[str, Any]:
        body = super().payload()
        body["error"]["data"]["egress"] = self.egress
        return body


class EgressGate:
    """The pre-dispatch half: ``admit`` a message from a caller (``book`` is consulted only
    for a caller that is not local)."""

    def admit(
        self,
        message: Mapping[str, Any],
        *,
        peer: str,
        proxied: bool,
        authenticated: bool,
        book: Callable[[], EgressBook | None],
        zone: str | None = None,
    ) -> Ticket | None:
        """The ticket of ``message`` (``None`` for a method that is not checked), or
        ``EgressRefusal``. ``zone``: the caller's, when the boundary already knows it. A local
        caller is decided by its zone alone: nothing of the message is read for it."""
        method = message.get("method")
        if method not in CHECKED_METHODS:
            return None
        zone = zone or zone_of(peer, proxied=proxied)
        rid = message.get("id")
        request_id = rid if isinstance(rid, str | int) and not isinstance(rid, bool) else None
        if zone in ("loopback", "local_process"):
            return Ticket(LOCAL, zone, authenticated, request_id)
        reference = reference_of(message)
        if reference is None:
            return None
        ticket = Ticket(reference, zone, authenticated, request_id)
        store = book()
        if store is None:  # no policy store: nothing may leave (fail closed)
            raise EgressRefusal(ticket.request_id, "NO_COLLECTION_POLICY")
        ticket.epoch = store.epoch()
        ticket.policies = {p.collection: p for p in store.policies()}
        named = reference.named
        scope = sorted(named) if named is not None else sorted(ticket.policies)
        verdict = ticket.scope_plan = plan(ticket.request(scope), partial="explicit")
        # Refused whole: nothing may go; a named collection that may not go; an unnamed scope
        # that only partly may, for a tool whose answer cannot be split per collection.
        if verdict.mode == "denied" or (
            verdict.mode == "partial" and (named is not None or reference.subject not in SPLITTABLE)
        ):
            ticket.deny(store, verdict.decision, verdict.omitted)
        return ticket


def _collections_in(text: str) -> set[str]:
    return {m.lower() for m in _URI.findall(text)} - {"tags"}


def _references(value: Any, found: set[str] | None = None) -> set[str]:
    """The collections of every value of ``value`` (a JSON answer) that is a ``gno://``
    reference as a whole; text that mentions one names nothing."""
    found = set() if found is None else found
    if isinstance(value, str):
        match = _REFERENCE.fullmatch(value)
        if match is not None and match.group(1).lower() != "tags":
            found.add(match.group(1).lower())
    elif isinstance(value, Mapping):
        for item in value.values():
            _references(item, found)
    elif isinstance(value, list):
        for item in value:
            _references(item, found)
    return found


def _drop_hits(result: dict[str, Any], allowed: frozenset[str]) -> None:
    """Remove from a ranked answer (structured and text) every hit that names a collection
    outside ``allowed``."""
    structured = result.get("structuredContent")
    if not isinstance(structured, dict) or not isinstance(structured.get("results"), list):
        return
    kept = []
    for hit in structured["results"]:
        names = _references(hit)
        if names and names <= allowed:
            kept.append(hit)
    structured["results"] = kept
    result["content"] = [{"type": "text", "text": _render(structured, result)}]


def _render(structured: dict[str, Any], result: dict[str, Any]) -> str:
    from gno_adapters.mcp.tools.search import render_results
    from gno_core.contracts import SearchResults

    text = render_results(SearchResults.model_validate(structured))
    old = result.get("content")
    if isinstance(old, list) and old and isinstance(old[0], dict):
        tail = str(old[0].get("text", "")).rsplit("\n\n", 1)[-1]
        if tail.startswith("(vectorsUsed:"):
            text += "\n\n" + tail
    return text
