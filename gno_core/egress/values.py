"""The egress vocabulary: policies, their sources, actions, destination zones, content classes
and the 19 reason codes of a decision (``docs/reference/egress.md`` defines each)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal, get_args

__all__ = [
    "ACTIONS",
    "ALLOW_REASONS",
    "COLLECTION_NAME_RE",
    "CONTENT_CLASSES",
    "DEFAULT_POLICY",
    "KNOWN_ZONES",
    "MAX_COLLECTIONS",
    "POLICIES",
    "POLICY_RANK",
    "POLICY_SOURCES",
    "REASON_CODES",
    "ZONES",
    "Action",
    "ContentClass",
    "Policy",
    "PolicySource",
    "ReasonCode",
    "Zone",
    "strictest",
]

#: From the strictest to the most open: content of a ``local_only`` collection never leaves
#: the machine, ``lan`` reaches authenticated peers of the local network, ``remote`` anywhere.
Policy = Literal["local_only", "lan", "remote"]
POLICIES: tuple[Policy, ...] = get_args(Policy)
POLICY_RANK: dict[str, int] = {policy: rank for rank, policy in enumerate(POLICIES)}
#: A collection nobody configured is ``local_only``: egress fails closed.
DEFAULT_POLICY: Policy = "local_only"

#: Where a collection's policy came from: set explicitly (a confirmed change), the default of
#: the configuration, or the default of a collection gno knows no policy row for.
PolicySource = Literal["explicit", "config_default", "legacy_default"]
POLICY_SOURCES: tuple[PolicySource, ...] = get_args(PolicySource)

Action = Literal["retrieve", "serve", "publish", "remote_inference", "export", "clip_write"]
ACTIONS: tuple[Action, ...] = get_args(Action)

#: ``unknown`` is what the peer classifier answers for an address it will not place (overlay
#: networks, cloud metadata, unparsable): the decision refuses it (``UNKNOWN_DESTINATION``).
Zone = Literal["local_process", "loopback", "lan", "remote", "unknown"]
ZONES: tuple[Zone, ...] = get_args(Zone)
KNOWN_ZONES: frozenset[str] = frozenset({"local_process", "loopback", "lan", "remote"})

#: Derived classes keep the policy of the collections they come from: transformation never
#: declassifies content.
ContentClass = Literal[
    "source",
    "snippet",
    "metadata",
    "attachment",
    "embedding",
    "capsule",
    "audit_log",
    "retrieval_trace",
]
CONTENT_CLASSES: tuple[ContentClass, ...] = get_args(ContentClass)

#: The reasons of a decision, in the order the evaluator can reach them (allowing ones first).
ReasonCode = Literal[
    "LOCAL_DESTINATION",
    "LAN_POLICY_AUTHENTICATED",
    "REMOTE_POLICY_AUTHENTICATED",
    "INVALID_INPUT",
    "NO_COLLECTION_POLICY",
    "COLLECTION_LIMIT_EXCEEDED",
    "INVALID_COLLECTION",
    "UNKNOWN_ACTION",
    "UNKNOWN_DESTINATION",
    "ACTION_DESTINATION_MISMATCH",
    "UNKNOWN_CONTENT_CLASS",
    "UNKNOWN_POLICY",
    "UNKNOWN_POLICY_SOURCE",
    "INVALID_POLICY_SOURCE_PAIR",
    "INVALID_CALLER",
    "CALLER_NOT_AUTHORIZED",
    "AUTHENTICATION_REQUIRED",
    "POLICY_LOCAL_ONLY",
    "POLICY_LAN_ONLY",
]
REASON_CODES: tuple[ReasonCode, ...] = get_args(ReasonCode)
ALLOW_REASONS: frozenset[str] = frozenset(
    {"LOCAL_DESTINATION", "LAN_POLICY_AUTHENTICATED", "REMOTE_POLICY_AUTHENTICATED"}
)

#: One decision covers at most this many collections (unique canonical names).
MAX_COLLECTIONS = 64
#: A canonical collection name (``gno_core.identity``): lowercase, never a path.
COLLECTION_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def strictest(policies: Iterable[str]) -> Policy:
    """The strictest of ``policies`` (an iterable of policy names); ``local_only`` when there
    is none or one is not a policy (fail closed)."""
    best: Policy = "remote"
    seen = False
    for policy in policies:
        rank = POLICY_RANK.get(policy)
        if rank is None:
            return DEFAULT_POLICY
        seen = True
        if rank < POLICY_RANK[best]:
            best = POLICIES[rank]
    return best if seen else DEFAULT_POLICY
