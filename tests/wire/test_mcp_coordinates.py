"""``gno_get`` on the wire: a Markdown file's lines are the file's (``coordinateSpace:
"source"``); a converted file's are the mirror's, and the text says so before the lines."""

from __future__ import annotations

from typing import Any

from gno_adapters.bootstrap import build, in_memory
from gno_adapters.bootstrap.in_memory_set import NOTES_ROOT
from gno_core.config import CollectionConfig, GnoConfig
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

NOTES = {
    "n.md": "# N\n\n\n\nafter the blank run\n",
    "page.html": "<html><body><h1>Page</h1>\n\n\n<p>quokka</p></body></html>\n",
}


def _get(**arguments: Any) -> dict[str, Any]:
    made = in_memory(NOTES)
    made.config.save(
        GnoConfig(collections=[CollectionConfig(name="notes", path=NOTES_ROOT, pattern="**/*")])
    )
    with build(made) as gno:
        assert gno.sync().total_added == 2
    peer = Peer(facade=lambda: build(made))
    peer.initialize()
    result: dict[str, Any] = peer.request(
        "tools/call", {"name": "gno_get", "arguments": arguments}
    )["result"]
    assert_valid("get", result["structuredContent"])
    return result


def test_markdown_lines_are_the_file_lines() -> None:
    got = _get(ref="notes/n.md", fromLine=5, lineCount=1)
    assert got["structuredContent"]["coordinateSpace"] == "source"
    assert got["content"][0]["text"].rstrip("\n") == "5: after the blank run"


def test_a_converted_file_is_labelled_as_its_mirror() -> None:
    got = _get(ref="notes/page.html")
    data = got["structuredContent"]
    assert data["coordinateSpace"] == "canonical_mirror"
    assert data["conversion"]["coordinateSpace"] == "canonical_mirror"
    first = got["content"][0]["text"].split("\n", 1)[0]
    assert first.startswith("(Markdown mirror of a converted file") and "not of the file" in first
