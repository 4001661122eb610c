"""``gno_links`` / ``gno_backlinks`` (both protocol eras), ``/api/links`` / ``/api/backlinks``
and the Python API over the real ``Gno`` on the in-memory adapters: contracts validated,
errors with their codes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any, TypeVar

import pytest
from quart import Quart

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_adapters.rest import register_rest
from gno_core.facade import Gno
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

T = TypeVar("T")

NOTES = {
    "hub.md": "---\ntitle: The Hub\naliases: [Centre]\n---\n# Hub\n\nLinks out to [[spoke-a]].\n",
    "spoke-a.md": "# A\n\nBack to [[hub]] and [the hub](hub.md#top).\n",
    "dir/spoke-b.md": (
        '---\nrelations:\n  partOf: "[[hub]]"\n---\n# B\n\nSee [[Centre|the centre]] and '
        "[[missing]] and [site](https://example.org).\n\n```\n[[hub]] in code\n```\n"
    ),
}


def made() -> Adapters:
    adapters = in_memory(NOTES)
    with build(adapters) as gno:
        gno.sync()
    return adapters


@pytest.fixture(scope="module")
def adapters() -> Adapters:
    return made()


def test_python_api_links_and_backlinks(adapters: Adapters) -> None:
    with build(adapters) as gno:
        out = gno.links("notes/dir/spoke-b.md")
        assert_valid("links", out.wire())
        assert [(k.target_ref, k.resolution, k.relation) for k in out.links] == [
            ("hub", "resolved", "part_of"),
            ("Centre", "resolved", "links_to"),
            ("missing", "unresolved", "links_to"),
            ("https://example.org", "external", "links_to"),
        ]
        assert out.links[1].targets[0].uri == "gno://notes/hub.md"
        assert out.links[1].confidence == "inferred" and out.links[1].targets[0].method == "alias"
        assert out.meta.unresolved_links == 1
        wiki_only = gno.links("notes/dir/spoke-b.md", link_type="markdown")
        assert [k.target_ref for k in wiki_only.links] == ["https://example.org"]
        assert wiki_only.meta.filter_type == "markdown"

        back = gno.backlinks("gno://notes/hub.md")
        assert_valid("backlinks", back.wire())
        assert [(b.source_doc_uri, b.position.start_line, b.relation) for b in back.backlinks] == [
            ("gno://notes/dir/spoke-b.md", 3, "part_of"),
            ("gno://notes/dir/spoke-b.md", 7, "links_to"),
            ("gno://notes/spoke-a.md", 3, "links_to"),
            ("gno://notes/spoke-a.md", 3, "links_to"),
        ]
        assert back.backlinks[2].context == "Back to [[hub]] and [the hub](hub.md#top)."
        assert back.meta.title == "The Hub" and back.meta.total_backlinks == 4

        status = gno.status()
        assert status.links is not None
        assert (status.links.total, status.links.unresolved, status.links.external) == (7, 1, 1)
        assert status.links.edge_types == {"links_to": 4, "part_of": 1}


def test_python_api_errors(adapters: Adapters) -> None:
    from gno_core.errors import NotFoundError, ValidationError

    with build(adapters) as gno:
        with pytest.raises(NotFoundError):
            gno.links("notes/none.md")
        with pytest.raises(NotFoundError, match="Collection not found"):
            gno.backlinks("notes/hub.md", collection="nope")
        with pytest.raises(ValidationError):
            gno.links("notes/hub.md", link_type="html")


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_mcp_tools_in_both_eras(adapters: Adapters, era: str) -> None:
    peer = Peer(facade=lambda: build(adapters))
    if era == "modern":
        peer.modern("server/discover")
    else:
        peer.initialize()

    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        params = {"name": tool, "arguments": arguments}
        response = (
            peer.modern("tools/call", params)
            if era == "modern"
            else peer.request("tools/call", params)
        )
        result: dict[str, Any] = response["result"]
        return result

    links = call("gno_links", ref="notes/spoke-a.md")
    assert_valid("links", links["structuredContent"])
    assert links["content"][0]["text"].startswith(
        "Found 2 outgoing links in gno://notes/spoke-a.md:\n\n [wiki] hub -> gno://notes/hub.md"
    )
    back = call("gno_backlinks", ref="notes/hub.md", collection="notes")
    assert_valid("backlinks", back["structuredContent"])
    assert back["structuredContent"]["meta"]["filterCollection"] == "notes"
    assert back["content"][0]["text"].startswith("Found 4 backlinks to gno://notes/hub.md:")
    assert call("gno_links", ref="notes/none.md")["isError"] is True
    assert call("gno_backlinks", ref="notes/hub.md", collection="nope")["isError"] is True
    assert call("gno_links", ref="notes/hub.md", type="html")["isError"] is True


class _Runner:
    def __init__(self, factory: Callable[[], Gno]) -> None:
        self.factory = factory

    def get(self) -> Gno:
        return self.factory()

    async def run(self, fn: Callable[[], T], *, write: bool = False) -> T:
        return fn()


def test_rest_routes(adapters: Adapters) -> None:
    app = Quart(__name__)
    register_rest(app, _Runner(lambda: build(adapters)))

    async def go() -> list[tuple[int, Any]]:
        client = app.test_client()
        out = []
        for path in (
            "/api/links?ref=notes/dir/spoke-b.md&type=wiki",
            "/api/backlinks?ref=gno://notes/hub.md",
            "/api/backlinks?ref=notes/hub.md&collection=nope",
            "/api/links?ref=notes/hub.md&type=html",
            "/api/links",
        ):
            response = await client.get(path)
            out.append((response.status_code, await response.get_json()))
        return out

    (ok_links, ok_back, no_coll, bad_type, no_ref) = asyncio.run(go())
    assert ok_links[0] == 200
    assert_valid("links", ok_links[1])
    assert [k["linkType"] for k in ok_links[1]["links"]] == ["wiki", "wiki", "wiki"]
    assert ok_back[0] == 200 and ok_back[1]["meta"]["totalBacklinks"] == 4
    assert_valid("backlinks", ok_back[1])
    assert no_coll[0] == 404 and no_coll[1]["error"]["code"] == "NOT_FOUND"
    assert bad_type[0] == 400 and bad_type[1]["error"]["code"] == "VALIDATION"
    assert no_ref[0] == 400


def test_backlinks_wire_is_the_models_wire() -> None:
    """The transports send ``backlinks_wire`` (built without a model per backlink): valid
    ``backlinks@1.0``, and byte for byte what the validated model's ``wire()`` gives (key order,
    omitted ``None`` fields: a link without text, one with an anchor), filtered or not."""
    adapters = in_memory({**NOTES, "plain.md": "just ![[hub]] and [](hub.md)\n"})
    with build(adapters) as gno:
        gno.sync()
        for collection in (None, "notes"):
            pre = gno.backlinks_wire("notes/hub.md", collection=collection)
            wire = pre.wire()
            assert_valid("backlinks", wire)
            assert json.dumps(pre.model().wire()) == json.dumps(wire)
            assert pre.model() == gno.backlinks("notes/hub.md", collection=collection)
        items = wire["backlinks"]
        assert len(items) == 6 and wire["meta"]["filterCollection"] == "notes"
        assert [b.get("linkText") for b in items if b["sourceDocUri"].endswith("plain.md")] == [
            "hub",
            None,
        ]
        assert sum("targetAnchor" in b for b in items) == 1
