"""The backlink items ``gno_backlinks`` sends are built without a model per item: each one,
whichever branch builds it, is what ``Backlink.wire()`` gives (key order, ``None`` fields
left out, the URI as ``make_uri`` writes it)."""

from __future__ import annotations

import itertools
import json

import pytest

from gno_core.contracts.links import Backlink, LinkPosition
from gno_core.domain import Mention
from gno_core.identity import encode_rel_path, make_docid, make_uri, plain_rel_path
from gno_core.links.reads import _wire_backlinks

PATHS = ("a/b.md", "Notes/x-y_z.(1)~'!*.md", "with space.md", "été/ü#?.md", "100%.md", "")
HASH = "0123456789abcdef" * 4


def _mentions() -> list[Mention]:
    found = []
    for n, (path, title, text, anchor) in enumerate(
        itertools.product(PATHS, (None, 'T "q"'), (None, "txt"), (None, "part"))
    ):
        found.append(
            Mention(
                "notes",
                path,
                title,
                HASH,
                text,
                "wiki",
                "wikilink",
                "links_to",
                anchor,
                n + 1,
                2,
                n + 1,
                9,
                "explicit",
                f"line {n} \u2026 [[hub]]\n\\",
            )
        )
    return found


def _model_wire(m: Mention, index: str) -> dict[str, object]:
    return Backlink(
        source_doc_uri=make_uri(m.collection, m.rel_path, index),
        source_docid=make_docid(m.source_hash),
        source_doc_title=m.title,
        link_text=m.link_text,
        link_type="wiki",
        edge_source="wikilink",
        relation=m.relation,
        target_anchor=m.target_anchor,
        position=LinkPosition(
            start_line=m.start_line, start_col=m.start_col, end_line=m.end_line, end_col=m.end_col
        ),
        confidence="explicit",
        context=m.context,
    ).wire()


@pytest.mark.parametrize("index", ["default", "work", "with space"])
def test_each_item_is_the_models_wire(index: str) -> None:
    found = _mentions()
    built = _wire_backlinks(found, index)
    assert len(built) == len(found) == 48
    for item, m in zip(built, found, strict=True):
        assert json.dumps(item) == json.dumps(_model_wire(m, index))


def test_plain_rel_path_is_exactly_the_paths_encoding_leaves_alone() -> None:
    for path in PATHS:
        assert bool(plain_rel_path(path)) == (encode_rel_path(path) == path)
