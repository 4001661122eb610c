"""The committed JSON Schemas in contracts/ are exactly what the models generate."""

from __future__ import annotations

from pathlib import Path

import pytest

from gno_core.contracts.schemas import all_schema_files

CONTRACTS = Path(__file__).resolve().parents[2] / "contracts"


@pytest.mark.parametrize("name", sorted(all_schema_files()))
def test_committed_schema_matches_models(name: str) -> None:
    committed = CONTRACTS / name
    assert committed.is_file(), f"missing {committed}; run scripts/gen_contracts.py"
    assert committed.read_text(encoding="utf-8") == all_schema_files()[name], (
        f"{name} drifted from the models; run scripts/gen_contracts.py and review the diff"
    )


def test_no_stale_schema_files() -> None:
    expected = set(all_schema_files())
    present = {p.name for p in CONTRACTS.glob("*.schema.json")}
    assert present == expected
