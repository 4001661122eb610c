"""The canonical JSON of capsules and receipts: the bytes that are hashed and budgeted.

Keys sorted, no whitespace, UTF-8 without escaping (so a byte budget counts what a model
reads), and no floats in hashed payloads (their text is the one thing two JSON writers may
disagree on). ``sha256_hex`` is the one hash of the evidence capability.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical_bytes(value: Any) -> bytes:
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    ).encode("utf-8")


def sha256_hex(data: bytes | str) -> str:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()


def content_id(value: Any) -> str:
    """The hash of ``value``'s canonical JSON."""
    return sha256_hex(canonical_bytes(value))
