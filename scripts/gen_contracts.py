"""Regenerate contracts/*.schema.json from the pydantic models (run after changing a contract)."""

from __future__ import annotations

import sys
from pathlib import Path

from gno_core.contracts.schemas import all_schema_files

CONTRACTS = Path(__file__).resolve().parents[1] / "contracts"


def main() -> int:
    CONTRACTS.mkdir(exist_ok=True)
    for name, text in all_schema_files().items():
        (CONTRACTS / name).write_text(text, encoding="utf-8")
        print(f"wrote contracts/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
