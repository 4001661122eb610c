"""Hypothesis profiles: ``ci`` (the default: a bounded number of examples, so the suite stays
fast) and ``long`` (``HYPOTHESIS_PROFILE=long``, used by ``nox -s fuzz``)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile(
    "ci", max_examples=60, deadline=None, suppress_health_check=_QUIET, derandomize=True
)
settings.register_profile("long", max_examples=3000, deadline=None, suppress_health_check=_QUIET)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))
