"""The egress values in their wire contracts (``gno_core.contracts.egress``)."""

from __future__ import annotations

from gno_core.contracts.egress import (
    EgressCheckResult,
    EgressDecisionAudit,
    EgressDecisionView,
    EgressDisclosure,
    EgressLineageView,
    EgressOmission,
    EgressRemediation,
)
from gno_core.egress.decision import EgressDecision
from gno_core.egress.lineage import EgressLineage
from gno_core.egress.plan import EgressPlan

__all__ = ["check_result", "decision_view", "lineage_view"]


def lineage_view(lineage: EgressLineage) -> EgressLineageView:
    return EgressLineageView.model_validate(lineage.wire())


def decision_view(decision: EgressDecision) -> EgressDecisionView:
    a = decision.audit
    return EgressDecisionView(
        allowed=decision.allowed,
        code=decision.code,
        reason=decision.reason,
        audit=EgressDecisionAudit.model_validate(
            {
                "action": a.action,
                "destination_zone": a.zone,
                "content_class": a.content_class,
                "collection_count": a.collection_count,
                "collections": list(a.collections),
                "effective_policy": a.effective_policy,
                "effective_policy_source": a.effective_policy_source,
                "caller_authenticated": a.caller_authenticated,
                "caller_operation_authorized": a.caller_authorized,
            }
        ),
    )


def check_result(plan: EgressPlan) -> EgressCheckResult:
    """``collection-egress-check@1.0`` of ``plan``."""
    omitted = [EgressOmission(collection=o.collection, reason=o.reason) for o in plan.omitted]
    disclosure = (
        EgressDisclosure(
            omitted_count=len(omitted), omitted_collections=[o.collection for o in omitted]
        )
        if plan.mode == "partial"
        else None
    )
    remedy = plan.remediation
    return EgressCheckResult(
        mode=plan.mode,
        allowed_collections=list(plan.allowed),
        omitted_collections=omitted,
        disclosure=disclosure,
        lineage=lineage_view(plan.lineage) if plan.lineage is not None else None,
        decision=decision_view(plan.decision),
        remediation=EgressRemediation(code=remedy.code, message=remedy.message)
        if remedy is not None
        else None,
    )
