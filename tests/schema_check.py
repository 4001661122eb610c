"""Validate any JSON output against its committed contract (used by every wire-level test)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

CONTRACTS = Path(__file__).resolve().parents[1] / "contracts"


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    schema = json.loads((CONTRACTS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def assert_valid(name: str, payload: Any) -> None:
    """Raise with every violation listed when ``payload`` does not satisfy contract ``name``."""
    errors = sorted(_validator(name).iter_errors(payload), key=lambda e: list(e.path))
    if errors:
        lines = [f"{'/'.join(map(str, e.path)) or '<root>'}: {e.message}" for e in errors[:20]]
        raise AssertionError(f"{name} contract violated:\n" + "\n".join(lines))
