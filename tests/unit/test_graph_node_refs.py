"""``gno_graph_neighbors`` and ``gno_graph_path`` take a node as the spec says: a gno:// URI,
``#docid``, ``collection/path``, or a bare ``relPath`` or exact title (issue 23: spec shapes). A
bare path or title that names several documents is refused naming them; one that names none keeps
the reference error; the typed traversal (``gno_graph_query``) keeps the three reference forms."""

from __future__ import annotations

import pytest

from gno_adapters.bootstrap import build, in_memory
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.contracts.requests import (
    GraphNeighborsRequest,
    GraphPathRequest,
    GraphQueryRequest,
)
from gno_core.errors import GnoError, ValidationError

NOTES = {
    "alpha.md": "# Alpha\n\nSee [[beta]].\n",
    "sub dir/beta.md": "---\ntitle: The Beta Note\n---\n# Beta\n\nBack to [[alpha]].\n",
    "twin.md": "# Twin\n\nalone\n",
}


def made() -> object:
    adapters = in_memory(NOTES)
    adapters.tree.write("/more/twin.md", "# Twin\n\nanother\n")
    adapters.config.save(
        GnoConfig(
            collections=[
                CollectionConfig(name="notes", path="/notes"),
                CollectionConfig(name="more", path="/more"),
            ]
        )
    )
    with build(adapters) as gno:
        gno.sync()
    return adapters


@pytest.fixture(scope="module")
def adapters() -> object:
    return made()


@pytest.mark.parametrize(
    "ref", ["gno://notes/alpha.md", "notes/alpha.md", "alpha.md", "Alpha", "#DOCID"]
)
def test_neighbors_take_every_form_of_the_spec(adapters: object, ref: str) -> None:
    with build(adapters) as gno:  # type: ignore[arg-type]
        if ref == "#DOCID":
            ref = gno.get("notes/alpha.md").docid
        result = gno.graph_neighbors(GraphNeighborsRequest(ref=ref))
        assert result.root.uri == "gno://notes/alpha.md"
        assert [n.node.uri for n in result.neighbors] == ["gno://notes/sub%20dir/beta.md"]


def test_path_between_a_title_and_a_path_with_a_space(adapters: object) -> None:
    with build(adapters) as gno:  # type: ignore[arg-type]
        path = gno.graph_path(GraphPathRequest(source="The Beta Note", target="alpha.md"))
        assert path.found and path.hops == 1
        assert path.source.uri == "gno://notes/sub%20dir/beta.md"
        # The collection filter narrows the bare forms to it.
        scoped = gno.graph_path(
            GraphPathRequest(source="sub dir/beta.md", target="Alpha", collection="notes")
        )
        assert scoped.found


def test_a_bare_form_naming_several_documents_is_refused_naming_them(adapters: object) -> None:
    with build(adapters) as gno:  # type: ignore[arg-type]
        for ref in ("twin.md", "Twin"):
            with pytest.raises(ValidationError) as refused:
                gno.graph_neighbors(GraphNeighborsRequest(ref=ref))
            assert refused.value.details["matches"] == ["gno://more/twin.md", "gno://notes/twin.md"]
        one = gno.graph_neighbors(GraphNeighborsRequest(ref="twin.md", collection="more"))
        assert one.root.uri == "gno://more/twin.md"


def test_unknown_bare_forms_keep_the_reference_error(adapters: object) -> None:
    with build(adapters) as gno:  # type: ignore[arg-type]
        with pytest.raises(GnoError) as unknown:
            gno.graph_neighbors(GraphNeighborsRequest(ref="Nothing Like It"))
        assert unknown.value.code == "VALIDATION"
        assert "relPath or title" in unknown.value.message
        with pytest.raises(GnoError) as missing:
            gno.graph_neighbors(GraphNeighborsRequest(ref="notes/nope.md"))
        assert missing.value.code == "NOT_FOUND"
        with pytest.raises(GnoError):  # the typed traversal takes the three reference forms
            gno.graph_query(GraphQueryRequest(ref="Alpha"))
