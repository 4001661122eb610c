"""Write tools on the wire, over the real facade: ``gno_capture`` then ``gno_search`` finds
the note in the next call; typed refusals carry their code in ``_meta``; without the gate the
tool does not exist."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from gno_adapters.mcp.tools.common import ERROR_META
from gno_core.contracts.schemas import build_schema
from tests.wire.real_facade import Peer


@pytest.fixture
def peer() -> Peer:
    made = Peer(enable_write=True)
    made.initialize()
    return made


def call(peer: Peer, tool: str, **arguments: Any) -> dict[str, Any]:
    result: dict[str, Any] = peer.request("tools/call", {"name": tool, "arguments": arguments})[
        "result"
    ]
    return result


def error_code(result: dict[str, Any]) -> str:
    assert result["isError"] is True
    code: str = result["_meta"][ERROR_META]["code"]
    return code


def test_capture_then_search_finds_it_in_the_next_call(peer: Peer) -> None:
    captured = call(
        peer,
        "gno_capture",
        collection="notes",
        content="Quokkas smile at dawn on Rottnest.",
        title="Quokka field note",
        tags=["Animals/Marsupials"],
        source={"kind": "web", "url": "https://example.org/quokka"},
    )
    assert "isError" not in captured
    receipt = captured["structuredContent"]
    Draft202012Validator(build_schema("mcp-capture-result")).validate(receipt)
    assert receipt["sync"] == {"status": "completed"}
    assert receipt["collisionPolicyResult"] == "created"
    assert receipt["relPath"].startswith("inbox/") and receipt["relPath"].endswith(
        "/quokka-field-note.md"
    )
    assert receipt["tags"] == ["animals/marsupials"]
    found = call(peer, "gno_search", query="quokkas rottnest")
    assert [r["uri"] for r in found["structuredContent"]["results"]] == [receipt["uri"]]
    got = call(peer, "gno_get", ref=receipt["uri"], lineNumbers=False)
    text = got["structuredContent"]["content"]
    assert 'url: "https://example.org/quokka"' in text and 'kind: "web"' in text


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"path": "../escape.md"}, "INVALID_PATH"),
        ({"path": "/etc/passwd.md"}, "INVALID_PATH"),
        ({"path": "a\x00b.md"}, "INVALID_PATH"),
        ({"path": ".git/config.md"}, "INVALID_PATH"),
        ({"folderPath": "node_modules/x"}, "INVALID_PATH"),
        ({"path": "notes.bin"}, "INVALID_PATH"),
        ({"content": "binary\x00\x01body"}, "VALIDATION"),
        ({"content": ""}, "VALIDATION"),
        ({"collection": "nope"}, "NOT_FOUND"),
    ],
)
def test_refusals_are_typed_and_write_nothing(
    peer: Peer, arguments: dict[str, Any], code: str
) -> None:
    before = call(peer, "gno_status")["structuredContent"]["totalDocuments"]
    args = {"collection": "notes", "content": "A body", **arguments}
    assert error_code(call(peer, "gno_capture", **args)) == code
    assert call(peer, "gno_status")["structuredContent"]["totalDocuments"] == before


def test_collision_policies(peer: Peer) -> None:
    first = call(peer, "gno_capture", collection="notes", content="one", path="fixed/name.md")
    assert first["structuredContent"]["collisionPolicyResult"] == "created"
    assert (
        error_code(
            call(peer, "gno_capture", collection="notes", content="two", path="fixed/name.md")
        )
        == "DUPLICATE"
    )
    suffix = call(
        peer,
        "gno_capture",
        collection="notes",
        content="two",
        path="fixed/name.md",
        collisionPolicy="create_with_suffix",
    )["structuredContent"]
    assert (suffix["relPath"], suffix["collisionPolicyResult"]) == (
        "fixed/name-2.md",
        "created_with_suffix",
    )
    opened = call(
        peer,
        "gno_capture",
        collection="notes",
        content="three",
        path="fixed/name.md",
        collisionPolicy="open_existing",
    )["structuredContent"]
    assert opened["collisionPolicyResult"] == "opened_existing"
    assert opened["contentHash"] == first["structuredContent"]["contentHash"]
    over = call(
        peer,
        "gno_capture",
        collection="notes",
        content="four",
        path="fixed/name.md",
        overwrite=True,
    )["structuredContent"]
    assert over["collisionPolicyResult"] == "overwritten" and over["overwritten"] is True
    assert (
        call(peer, "gno_search", query="four")["structuredContent"]["results"][0]["uri"]
        == (over["uri"])
    )


def test_without_the_gate_capture_is_unknown() -> None:
    peer = Peer(enable_write=False)
    peer.initialize()
    answer = peer.request("tools/call", {"name": "gno_capture", "arguments": {}})
    assert answer["error"]["code"] == -32602
