"""``build(in_memory(notes))``: the real ``Gno`` over fakes for every port — what the wire
tests and new capabilities build on — answers like the local one, contracts included."""

from __future__ import annotations

from gno_adapters.bootstrap import build, in_memory
from gno_core.contracts.requests import QueryRequest, SearchRequest
from tests.schema_check import assert_valid

NOTES = {
    "garden.md": "---\ntags: [outdoors]\n---\n# Garden\n\nTomatoes need full sun.\n",
    "kitchen.md": "# Kitchen\n\nA sourdough starter wants flour and water daily.\n",
    "travel/lisbon.md": "# Lisbon\n\nTram 28 climbs through Alfama.\n",
}


def test_the_in_memory_facade_syncs_searches_reads_and_embeds() -> None:
    with build(in_memory(NOTES)) as gno:
        assert gno.peek().initialized is False  # nothing opened yet, as with a new folder
        synced = gno.sync()
        assert synced.total_added == 3
        hits = gno.search(SearchRequest(query="sourdough starter"))
        assert [h.uri for h in hits.results] == ["gno://notes/kitchen.md"]
        assert_valid("search-results", hits.wire())
        got = gno.get("notes/kitchen.md", from_line=1, line_count=1)
        assert got.content == "# Kitchen\n"
        many = gno.multi_get(["notes/garden.md", "#" + got.docid.lstrip("#"), "notes/nope.md"])
        assert (many.meta.returned, many.skipped[0].reason) == (2, "not_found")
        assert_valid("multi-get", many.wire())
        assert gno.tags().tags[0].tag == "outdoors"
        embedded = gno.embed()
        assert embedded.embedded > 0
        fused = gno.query(QueryRequest(query="tram through alfama"))
        assert fused.results[0].uri == "gno://notes/travel/lisbon.md"
        status = gno.status()
        assert (status.total_documents, status.embedding_backlog) == (3, 0)
        assert_valid("status", status.wire())
    # closing the facade keeps the in-memory index, as closing a file would
    adapters = in_memory(NOTES)
    build(adapters).sync()
    with build(adapters) as again:
        assert again.status().total_documents == 3


def test_the_in_memory_set_loads_no_local_adapter() -> None:
    """The set of fakes shares the lazy wrappers with the local set, not the local set itself:
    building it imports neither SQLite nor the local wiring."""
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "from gno_adapters.bootstrap import build, in_memory\n"
        "build(in_memory({'a.md': '# A'})).close()\n"
        "print(sorted(m for m in sys.modules if m == 'apsw' or m.startswith("
        "('gno_adapters.sqlite', 'gno_adapters.bootstrap.local'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "[]"
