"""Requests of the egress policy and audit operations (issue 26): ``gno_egress_policy_get``,
``gno_egress_policy_set``, ``gno_egress_check`` and the receipts' ``gno_egress_audit_*``.
Every input is closed (unknown fields refused before any handler runs)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from gno_core.contracts.search_request import Request
from gno_core.egress.values import Action, ContentClass, Policy, Zone

__all__ = [
    "EgressAuditDeleteRequest",
    "EgressAuditListRequest",
    "EgressAuditPurgeRequest",
    "EgressAuditShowRequest",
    "EgressCaller",
    "EgressCheckRequest",
    "EgressPolicyGetRequest",
    "EgressPolicySetRequest",
    "RelaxationConfirmationInput",
]

COLLECTION = r"^[a-z0-9][a-z0-9_-]{0,63}$"
AUDIT_ID = r"^[0-9a-f]{32}$"


class EgressPolicyGetRequest(Request):
    collection: str = Field(min_length=1, max_length=64, description="Collection name")


class RelaxationConfirmationInput(Request):
    """The one-use confirmation a relaxation needs: this collection, its current effective
    policy and revision (from ``gno_egress_policy_get``), the target, and acknowledged."""

    collection: str = Field(pattern=COLLECTION)
    current_policy: Policy
    current_revision: int = Field(ge=0)
    target_policy: Policy
    acknowledged: Literal[True]


class EgressPolicySetRequest(Request):
    collection: str = Field(min_length=1, max_length=64, description="Collection name")
    policy: Policy = Field(description="Target policy: local_only, lan or remote")
    confirmation: RelaxationConfirmationInput | None = Field(
        default=None, description="Required to relax (to a more open policy); ignored to tighten"
    )


class EgressCaller(Request):
    authenticated: bool = Field(description="The transport authenticated the caller")
    operation_authorized: bool = Field(
        description="The operation is authorised apart from collection policy"
    )


class EgressCheckRequest(Request):
    """A decision explained, performing nothing (``collection-egress-check@1.0``)."""

    collections: list[str] | None = Field(
        default=None,
        min_length=1,
        max_length=64,
        description="Canonical collection names, each once (default: every configured one)",
    )
    action: Action
    destination_zone: Zone
    caller: EgressCaller
    content_class: ContentClass
    partial_results: Literal["deny", "explicit"] = Field(
        default="deny",
        description="deny: one refused collection denies all; explicit: omit and disclose it",
    )


class EgressAuditListRequest(Request):
    limit: int = Field(default=100, ge=1, le=1000, description="Receipts per page (1-1000)")
    cursor: str | None = Field(
        default=None, max_length=256, description="nextCursor of the previous page"
    )


class EgressAuditShowRequest(Request):
    audit_id: str = Field(pattern=AUDIT_ID)


class EgressAuditDeleteRequest(Request):
    audit_id: str = Field(pattern=AUDIT_ID)


class EgressAuditPurgeRequest(Request):
    confirm: Literal[True] = Field(description="true: delete every egress receipt")
