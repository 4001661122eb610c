"""Resources over the real in-memory facade: listings, ``gno://tags`` with its query parameters, documents
as line-numbered Markdown with the header comment, and resource errors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp_types import methods

from tests.wire.real_facade import MODERN, Peer, docids


@pytest.fixture(params=["legacy", "modern"])
def rpc(request: pytest.FixtureRequest) -> Any:
    peer = Peer()
    modern = request.param == "modern"
    if modern:
        peer.modern("server/discover")
    else:
        peer.initialize()

    def run(method: str, **params: Any) -> dict[str, Any]:
        response = peer.modern(method, params) if modern else peer.request(method, params)
        if "result" in response:
            methods.validate_server_result(
                method, MODERN if modern else "2025-11-25", response["result"]
            )
        return response

    return run


def test_listings(rpc: Any) -> None:
    (tags,) = rpc("resources/list")["result"]["resources"]
    assert (tags["uri"], tags["mimeType"]) == ("gno://tags", "application/json")
    templates = rpc("resources/templates/list")["result"]["resourceTemplates"]
    assert [t["uriTemplate"] for t in templates] == [
        "gno://{collection}/{path}",
        "gno://tags{?collection,prefix}",
    ]


def test_tags_resource_with_filters(rpc: Any) -> None:
    (content,) = rpc("resources/read", uri="gno://tags?collection=notes&prefix=work/")["result"][
        "contents"
    ]
    assert content["mimeType"] == "application/json"
    assert json.loads(content["text"]) == {
        "tags": [{"tag": "work/project", "count": 1}],
        "meta": {"collection": "notes", "prefix": "work/", "totalTags": 1},
    }
    (plain,) = rpc("resources/read", uri="gno://tags")["result"]["contents"]
    assert json.loads(plain["text"])["meta"] == {"collection": None, "prefix": None, "totalTags": 3}


def test_document_resource_is_line_numbered_markdown_with_a_header(rpc: Any) -> None:
    uri = "gno://notes/sub%20dir/beta.md"
    (content,) = rpc("resources/read", uri=uri)["result"]["contents"]
    assert (content["uri"], content["mimeType"]) == (uri, "text/markdown")
    assert content["text"] == (
        "<!--\n"
        "  URI: gno://notes/sub%20dir/beta.md\n"
        f"  docid: {docids()['beta']}\n"
        "  source: /notes/sub dir/beta.md\n"
        "  mime: text/markdown\n"
        "  language: en\n"
        "-->\n"
        "\n"
        "1: ---\n"
        "2: tags: [work, personal]\n"
        "3: ---\n"
        "4: # Beta\n"
        "5: \n"
        "6: Another note on ideas, and the things that we have to write down before they are "
        "gone.\n"
    )


@pytest.mark.parametrize(
    ("uri", "code"),
    [
        ("gno://notes/missing.md", -32602),
        ("gno://notes/alpha.md?index=elsewhere", -32602),
        ("gno://tags?collection=nope", -32602),
        ("gno://notes", -32602),
        ("file:///etc/passwd", -32602),
    ],
)
def test_resource_errors_are_json_rpc_errors_naming_the_uri(rpc: Any, uri: str, code: int) -> None:
    error = rpc("resources/read", uri=uri)["error"]
    assert error["code"] == code
    assert error["data"]["uri"] == uri


def test_resource_read_needs_a_string_uri(rpc: Any) -> None:
    assert rpc("resources/read")["error"]["code"] == -32602
