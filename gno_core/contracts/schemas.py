"""JSON Schema generation for the wire contracts (the source of ``contracts/*.schema.json``)."""

from __future__ import annotations

import json
from typing import Any

from gno_core.contracts import SCHEMAS

JSON_SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def schema_id(name: str) -> str:
    version, _ = SCHEMAS[name]
    return f"gno://schemas/{name}@{version}"


def build_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of contract ``name``, stamped with ``$schema`` and ``$id``."""
    _, model = SCHEMAS[name]
    body = model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": JSON_SCHEMA_DIALECT, "$id": schema_id(name), **body}


def render_schema(name: str) -> str:
    """Byte-stable text of the schema file for ``name``."""
    return json.dumps(build_schema(name), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def all_schema_files() -> dict[str, str]:
    """File name -> content for every contract."""
    return {f"{name}.schema.json": render_schema(name) for name in sorted(SCHEMAS)}
