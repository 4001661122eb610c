"""``EgressControl``: egress policy and receipts for one index.

A collection's effective policy is the stricter of its explicit policy (set by a confirmed
change, kept with its revision in the ``EgressPolicyStore``; ``local_only`` while none is set)
and the ``egressPolicy`` of its configuration, which can only narrow. Its source is
``explicit`` once a policy was set, ``config_default`` before; a name that is not configured
is ``legacy_default`` (``local_only``). An explicit policy holds for the folder it was set for:
a collection removed and added again for another folder starts from the default.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gno_core.contracts import egress as wire
from gno_core.egress.change import PolicyChange, PolicyState, RelaxationConfirmation, plan_change
from gno_core.egress.decision import CollectionPolicy, EgressRequest
from gno_core.egress.plan import EgressPlan, PartialMode, plan
from gno_core.egress.receipts import RETENTION, decode_cursor, draft_of, encode_cursor
from gno_core.egress.scope import resolve_scope, sources_for
from gno_core.egress.values import Policy, strictest
from gno_core.egress.wire import check_result
from gno_core.errors import (
    ConflictError,
    EgressRelaxationConfirmationError,
    NotFoundError,
    ValidationError,
)
from gno_core.index_handle import IndexHandle, require_collection
from gno_core.text.dates import iso_from_ns

if TYPE_CHECKING:
    from gno_core.config import CollectionConfig, GnoConfig
    from gno_core.ports.egress import EgressPolicyStore, EgressReceiptStore, StoredPolicy

__all__ = ["EgressControl", "binding_of", "policy_state"]

#: Zones where content stays on this machine: an allowed decision there protects nothing
#: that leaves, so it writes no receipt (a denial always does).
_LOCAL = frozenset({"local_process", "loopback"})


def binding_of(collection: CollectionConfig) -> str:
    """What an explicit policy is set for: a digest of the collection's folder."""
    return hashlib.sha256(collection.path.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def policy_state(collection: CollectionConfig, row: StoredPolicy | None) -> PolicyState:
    """The policy of a configured collection from its explicit row and its configuration. A
    row set for another folder (the name removed and added again elsewhere) does not apply:
    the collection is back to the default, and its revision keeps counting."""
    applies = row is not None and row.binding == binding_of(collection)
    explicit: Policy | None = row.policy if row is not None and applies else None
    effective = strictest(p for p in (explicit or "local_only", collection.egress_policy) if p)
    return PolicyState(
        collection=collection.name,
        configured=explicit,
        effective=effective,
        source="explicit" if applies else "config_default",
        revision=row.revision if row is not None else 0,
    )


def _state_wire(state: PolicyState) -> wire.EgressPolicyState:
    body = {
        "collection": state.collection,
        "effectivePolicy": state.effective,
        "source": state.source,
        "revision": state.revision,
    }
    text = json.dumps(body, sort_keys=True, separators=(",", ":"))
    version = "egress-policy-v1:" + hashlib.sha256(text.encode("ascii")).hexdigest()
    return wire.EgressPolicyState(
        collection=state.collection,
        configured_policy=state.configured,
        effective_policy=state.effective,
        source="explicit" if state.source == "explicit" else "config_default",
        revision=state.revision,
        version=version,
    )


class EgressControl:
    """Egress policy and receipts of one index."""

    def __init__(self, handle: IndexHandle) -> None:
        self.handle = handle

    @property
    def _policies(self) -> EgressPolicyStore:
        return self.handle.index.egress_policies

    @property
    def _receipts(self) -> EgressReceiptStore:
        return self.handle.index.egress_receipts

    def _now_ms(self) -> int:
        return self.handle.clock.now_ns() // 1_000_000

    # --- policies ---------------------------------------------------------------------------

    def state(self, collection: str) -> PolicyState:
        """The policy of configured ``collection`` (``NOT_FOUND`` otherwise)."""
        config = self.handle.load_config()
        found = require_collection(config, collection)
        return policy_state(found, self._policies.get(found.name))

    def policy_get(self, collection: str) -> wire.EgressPolicyState:
        """``collection-egress-policy@1.0`` of ``collection``."""
        return _state_wire(self.state(collection))

    def policy_set(
        self,
        collection: str,
        policy: str,
        confirmation: RelaxationConfirmation | None = None,
    ) -> wire.EgressPolicySetResult:
        """Change ``collection``'s policy: a tightening at once, a relaxation only with the
        confirmation bound to its current policy and revision (one use: the change consumes
        the revision). ``collection-egress-policy-set@1.0``."""
        with self.handle.writing(purpose="egress policy change"):
            found = require_collection(self.handle.load_config(), collection)
            store = self._policies
            before = policy_state(found, store.get(found.name))
            change = plan_change(before, policy, confirmation)
            if change.kind == "unchanged":
                return self._set_result(change, before, None)
            target = change.after.configured or "local_only"
            try:
                row = store.apply(found.name, target, before.revision, binding_of(found))
            except ConflictError as exc:
                raise EgressRelaxationConfirmationError(
                    f"the egress policy of {found.name} changed meanwhile; read it again",
                    details={**exc.details, "mismatch": "stale_revision"},
                ) from exc
            after = policy_state(found, row)
            epoch = store.epoch()
        return self._set_result(change, after, epoch)

    def _set_result(
        self, change: PolicyChange, after: PolicyState, epoch: int | None
    ) -> wire.EgressPolicySetResult:
        invalidation = (
            None
            if epoch is None
            else wire.EgressInvalidation(
                policy_epoch=f"egress-epoch-v1:{epoch}",
                queued_jobs_invalidated=0,
                sessions_invalidated=0,
            )
        )
        return wire.EgressPolicySetResult(
            previous=_state_wire(change.before),
            current=_state_wire(after),
            change=change.kind,
            invalidation=invalidation,
        )

    def epoch(self) -> int:
        """The authorization epoch: every applied policy change advances it. A response
        admitted under an older epoch must not carry protected bytes (``EGRESS_POLICY_CHANGED``)."""
        return self._policies.epoch()

    def sources(self, collections: Sequence[str] | None = None) -> tuple[CollectionPolicy, ...]:
        """The current policy of each collection (default: every configured one, sorted), for
        the lineage of a result drawn from them; a name not configured is ``local_only``."""
        config = self.handle.load_config_or_default()
        return self._sources(config, resolve_scope(collections, _names(config)))

    def _sources(self, config: GnoConfig, names: Sequence[str]) -> tuple[CollectionPolicy, ...]:
        rows = self._policies.all() if config.collections else {}
        known: dict[str, CollectionPolicy] = {}
        for c in config.collections:
            state = policy_state(c, rows.get(c.name))
            known[c.name] = CollectionPolicy(c.name, state.effective, state.source)
        return sources_for(names, known)

    # --- decisions --------------------------------------------------------------------------

    def plan(
        self,
        *,
        collections: Sequence[str] | None,
        action: str,
        zone: str,
        content_class: str,
        authenticated: bool | None,
        authorized: bool | None,
        partial: PartialMode = "deny",
    ) -> EgressPlan:
        """The decision on this scope under the current policies; records nothing."""
        config = self.handle.load_config_or_default()
        names = resolve_scope(collections, _names(config))
        request = EgressRequest(
            collections=self._sources(config, names),
            action=action,
            zone=zone,
            content_class=content_class,
            authenticated=authenticated,
            authorized=authorized,
        )
        return plan(request, partial)

    def check(
        self,
        *,
        collections: Sequence[str] | None,
        action: str,
        zone: str,
        content_class: str,
        authenticated: bool | None,
        authorized: bool | None,
        partial: PartialMode = "deny",
    ) -> wire.EgressCheckResult:
        """``collection-egress-check@1.0``: the decision explained; performs nothing."""
        return check_result(
            self.plan(
                collections=collections,
                action=action,
                zone=zone,
                content_class=content_class,
                authenticated=authenticated,
                authorized=authorized,
                partial=partial,
            )
        )

    def authorize(
        self,
        *,
        collections: Sequence[str] | None,
        action: str,
        zone: str,
        content_class: str,
        authenticated: bool | None,
        authorized: bool | None,
        partial: PartialMode = "deny",
        operation: str | None = None,
        record: bool | None = None,
    ) -> EgressPlan:
        """Decide, and keep the receipt: what every place where content leaves the process
        calls before a protected byte goes out. ``record`` None: a receipt for every denial and
        for every decision on a destination off this machine (an allowed local one protects
        nothing that leaves); True or False to force. Returns the plan: serve
        ``plan.allowed`` only, nothing when ``plan.mode`` is ``denied``."""
        decided = self.plan(
            collections=collections,
            action=action,
            zone=zone,
            content_class=content_class,
            authenticated=authenticated,
            authorized=authorized,
            partial=partial,
        )
        keep = record if record is not None else (decided.mode != "complete" or zone not in _LOCAL)
        if keep:
            self._receipts.append(draft_of(decided, operation), self._now_ms(), RETENTION)
        return decided

    # --- receipts ---------------------------------------------------------------------------

    def audit_list(self, limit: int = 100, cursor: str | None = None) -> wire.EgressAuditManagement:
        if not 1 <= limit <= 1000:
            raise ValidationError("limit: 1-1000", details={"field": "limit"})
        before = decode_cursor(cursor) if cursor is not None else None
        page = self._receipts.page(self._now_ms(), limit + 1, before)
        more = len(page) > limit
        page = page[:limit]
        next_cursor = encode_cursor(page[-1].created_ms, page[-1].audit_id) if more else None
        return wire.EgressAuditManagement.model_validate(
            {
                "operation": "list",
                "receipts": [r.wire(_iso_ms) for r in page],
                "nextCursor": next_cursor,
            }
        )

    def audit_show(self, audit_id: str) -> wire.EgressAuditManagement:
        found = self._receipts.get(audit_id, self._now_ms())
        if found is None:
            raise NotFoundError(f"No egress receipt {audit_id}", details={"auditId": audit_id[:64]})
        return wire.EgressAuditManagement.model_validate(
            {"operation": "show", "receipt": found.wire(_iso_ms)}
        )

    def audit_status(self) -> wire.EgressAuditManagement:
        stats = self._receipts.stats(self._now_ms())
        return wire.EgressAuditManagement.model_validate(
            {
                "operation": "status",
                "status": {
                    "retention": {
                        "maxAgeDays": RETENTION.max_age_ms // 86_400_000,
                        "maxReceipts": RETENTION.max_receipts,
                        "maxBytes": RETENTION.max_bytes,
                    },
                    "receipts": stats.receipts,
                    "bytes": stats.bytes,
                    "oldestCreatedAt": None
                    if stats.oldest_ms is None
                    else _iso_ms(stats.oldest_ms),
                    "newestCreatedAt": None
                    if stats.newest_ms is None
                    else _iso_ms(stats.newest_ms),
                },
            }
        )

    def audit_delete(self, audit_id: str) -> wire.EgressAuditManagement:
        with self.handle.writing(purpose="egress receipt delete"):
            deleted = self._receipts.delete(audit_id)
        if not deleted:
            raise NotFoundError(f"No egress receipt {audit_id}", details={"auditId": audit_id[:64]})
        return wire.EgressAuditManagement(operation="delete", deleted=1)

    def audit_purge(self, confirm: bool) -> wire.EgressAuditManagement:
        if confirm is not True:
            raise ValidationError(
                "purging every egress receipt needs confirm: true", details={"field": "confirm"}
            )
        with self.handle.writing(purpose="egress receipt purge"):
            deleted = self._receipts.purge()
        return wire.EgressAuditManagement(operation="purge", deleted=deleted)


def _names(config: GnoConfig) -> list[str]:
    return [c.name for c in config.collections]


def _iso_ms(ms: int) -> str:
    return iso_from_ns(ms * 1_000_000)
