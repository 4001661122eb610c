"""Facade operations of the egress room (issue 26): each collection's policy (get, set, check),
the receipts (list, show, status, delete, purge), and ``egress_authorize``, the one call that
decides and keeps the receipt wherever content leaves the process (``gno_core.egress_control``;
the rules: ``gno_core.egress``, ``docs/reference/egress.md``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from gno_core.facade.base import FacadeBase

if TYPE_CHECKING:
    from gno_core.contracts.egress import (
        EgressAuditManagement,
        EgressCheckResult,
        EgressPolicySetResult,
        EgressPolicyState,
    )
    from gno_core.contracts.egress_requests import RelaxationConfirmationInput
    from gno_core.egress.decision import CollectionPolicy
    from gno_core.egress.plan import EgressPlan, PartialMode
    from gno_core.egress_control.capability import EgressControl

__all__ = ["EgressCalls"]


class EgressCalls(FacadeBase):
    @cached_property
    def egress(self) -> EgressControl:
        from gno_core.egress_control.capability import EgressControl

        return EgressControl(self.handle)

    def egress_policy_get(self, collection: str) -> EgressPolicyState:
        """A collection's configured and effective policy, its source and revision."""
        return self.egress.policy_get(collection)

    def egress_policy_set(
        self,
        collection: str,
        policy: str,
        confirmation: RelaxationConfirmationInput | None = None,
    ) -> EgressPolicySetResult:
        """Tighten at once; relax only with the one-use confirmation of the current revision."""
        from gno_core.egress.change import RelaxationConfirmation

        confirm = (
            None
            if confirmation is None
            else RelaxationConfirmation(
                collection=confirmation.collection,
                current_policy=confirmation.current_policy,
                current_revision=confirmation.current_revision,
                target_policy=confirmation.target_policy,
                acknowledged=confirmation.acknowledged,
            )
        )
        return self.egress.policy_set(collection, policy, confirm)

    def egress_check(
        self,
        *,
        collections: Sequence[str] | None = None,
        action: str,
        zone: str,
        content_class: str,
        authenticated: bool,
        authorized: bool,
        partial: PartialMode = "deny",
    ) -> EgressCheckResult:
        """The decision on a scope explained (``collection-egress-check@1.0``); does nothing."""
        return self.egress.check(
            collections=collections,
            action=action,
            zone=zone,
            content_class=content_class,
            authenticated=authenticated,
            authorized=authorized,
            partial=partial,
        )

    def egress_authorize(
        self,
        *,
        collections: Sequence[str] | None,
        action: str,
        zone: str,
        content_class: str,
        authenticated: bool,
        authorized: bool,
        partial: PartialMode = "deny",
        operation: str | None = None,
        record: bool | None = None,
    ) -> EgressPlan:
        """Decide and keep the content-free receipt, before protected bytes leave: serve
        ``plan.allowed`` only (nothing when ``plan.mode == "denied"``)."""
        return self.egress.authorize(
            collections=collections,
            action=action,
            zone=zone,
            content_class=content_class,
            authenticated=authenticated,
            authorized=authorized,
            partial=partial,
            operation=operation,
            record=record,
        )

    def egress_epoch(self) -> int:
        """The authorization epoch, advanced by every policy change."""
        return self.egress.epoch()

    def egress_sources(
        self, collections: Sequence[str] | None = None
    ) -> tuple[CollectionPolicy, ...]:
        """The current policy of each collection, for a result's lineage."""
        return self.egress.sources(collections)

    def egress_audit_list(
        self, limit: int = 100, cursor: str | None = None
    ) -> EgressAuditManagement:
        """Receipts, newest first, ``limit`` a page (``nextCursor`` for the next)."""
        return self.egress.audit_list(limit, cursor)

    def egress_audit_show(self, audit_id: str) -> EgressAuditManagement:
        return self.egress.audit_show(audit_id)

    def egress_audit_status(self) -> EgressAuditManagement:
        """Retention bounds and what the receipts hold (count, bytes, oldest, newest)."""
        return self.egress.audit_status()

    def egress_audit_delete(self, audit_id: str) -> EgressAuditManagement:
        """Delete exactly one receipt (``NOT_FOUND`` when there is none)."""
        return self.egress.audit_delete(audit_id)

    def egress_audit_purge(self, confirm: bool) -> EgressAuditManagement:
        """Delete every receipt (never a policy); ``confirm`` must be True."""
        return self.egress.audit_purge(confirm)
