"""Fixtures of the contract suites: every port suite runs against each adapter."""

from tests.contract.store_support import clock, store

__all__ = ["clock", "store"]
