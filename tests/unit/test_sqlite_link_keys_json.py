"""The lookup keys column of a stored link is the JSON ``json.dumps`` writes, fast path or not."""

from __future__ import annotations

import json

from gno_adapters.sqlite.link_writes import _keys_json


def test_keys_json_is_what_json_dumps_writes() -> None:
    cases = [
        (),
        ("note",),
        ("a b", "dir/c.md", "c"),
        ('say "hi"',),
        ("back\\slash",),
        ("tab\there", "nl\n"),
        ("café", "ß"),
        ("\u2028", "\x7f", "\x00"),
    ]
    for keys in cases:
        assert _keys_json(keys) == json.dumps(list(keys), ensure_ascii=False), keys
