"""Ask's passages and the egress policy: a generator or claim verifier whose endpoint is not in
this process (``gno_core.ports.evidence.InferenceDestination``) is a ``remote_inference``
destination in its endpoint's zone. Before any passage is given to it, the collections of the
passages are decided for that zone (``Gno.egress_authorize``: the receipt is kept); when any
of them may not go, nothing is sent and Ask fails with ``EGRESS_DENIED`` (the reason, the
collections omitted and a remediation in ``details``). An endpoint on loopback is allowed by
zone (``LOCAL_DESTINATION``), and a generator in this process (the extractive one) sends
nothing anywhere."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from gno_core.ports.evidence import InferenceDestination

if TYPE_CHECKING:
    from gno_core.egress_control.capability import EgressControl
    from gno_core.ports import EvidencePassage

__all__ = ["destination_zone", "inference_guard"]

#: The strictest first (``unknown`` counts widest of all: nothing goes to it).
_ORDER = ("unknown", "remote", "lan", "loopback", "local_process")


def destination_zone(models: Iterable[object | None]) -> str:
    """The widest zone the passages reach through ``models`` (the generator, the verifier);
    ``local_process`` when none of them sends anything out."""
    zones = {
        m.destination_zone() if isinstance(m, InferenceDestination) else "local_process"
        for m in models
        if m is not None
    }
    return next((z for z in _ORDER if z in zones), "local_process")


def inference_guard(
    zone: str, control: Callable[[], EgressControl]
) -> Callable[[tuple[EvidencePassage, ...]], None] | None:
    """The check Ask runs before sending passages to ``zone``; ``None`` when they stay on this
    machine's loopback or in this process."""
    if zone in ("local_process", "loopback"):
        return None

    def check(passages: tuple[EvidencePassage, ...]) -> None:
        from gno_core.errors import EgressDeniedError
        from gno_core.identity import uri_collections

        names = uri_collections(p.uri for p in passages)
        plan = control().authorize(
            collections=names,
            action="remote_inference",
            zone=zone,
            content_class="snippet",
            authenticated=True,  # the local operator configured the endpoint and asks
            authorized=True,
            partial="deny",
            operation="gno_ask",
        )
        if plan.mode != "complete":
            remedy = plan.remediation
            raise EgressDeniedError(
                "The answer generator's endpoint is a remote_inference destination "
                f"({zone}) that the policy of "
                + ", ".join(o.collection for o in plan.omitted)
                + " does not allow: nothing was sent",
                details={
                    "reason": plan.decision.reason,
                    "action": "remote_inference",
                    "zone": zone,
                    "omittedCollections": [
                        {"collection": o.collection, "reason": o.reason} for o in plan.omitted
                    ],
                    **({"remediation": remedy.message} if remedy is not None else {}),
                },
            )

    return check
