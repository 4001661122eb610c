"""Egress policy (issue 26): where a collection's content may go, decided without I/O.

``values`` the vocabulary (policies, sources, actions, zones, content classes, the 19 reason
codes); ``decision`` the evaluator in the reference order; ``lineage`` the strictest policy of a
result's sources and its digest; ``plan`` partial results (which collections are omitted) and
their remediation; ``change`` the relaxation confirmation rule; ``zones`` the destination zone
of a peer address. Reference: ``docs/reference/egress.md``.
"""
