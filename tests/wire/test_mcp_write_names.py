"""Names the write tools refuse (issue 21, failure 8), on the wire over the real facade: control
characters (tab, newline, CR, C1, DEL), bidirectional controls (U+202E ...) and Windows reserved
device names (CON, aux, NUL.md, com1.txt ...) in every name a tool writes — ``gno_capture``
path and folderPath, ``gno_create_folder`` name and parentPath, ``gno_rename_note`` name,
``gno_move_note`` / ``gno_duplicate_note`` folderPath and name — and an absolute ``folderPath``
in a move or duplicate, refused as capture refuses it (``INVALID_PATH``), never re-rooted
inside the collection. Each refusal writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.wire.real_facade import write_peer
from tests.wire.test_mcp_writes import call, error_code

NOTES = {"old.md": "# Old\n", "hub.md": "See [[old]].\n"}
BAD_NAMES = [
    "a\nb",
    "a\rb",
    "a\tb",
    "trailing\n",
    "c1\x85name",
    "del\x7fname",
    "invoice\u202egpj.md",
    "iso\u2066late",
    "mark\u200fname",
    "CON",
    "aux",
    "NUL.md",
    "com1.txt",
    "Lpt9.tar.gz",
    "prn ",
]


def _refused(result: dict[str, Any]) -> None:
    assert error_code(result) == "INVALID_PATH", result


@pytest.mark.parametrize("name", BAD_NAMES)
def test_every_write_tool_refuses_the_name(name: str) -> None:
    peer, made = write_peer(NOTES)
    before = dict(made.tree._files)
    md = name if name.endswith(".md") else name + ".md"
    _refused(call(peer, "gno_capture", collection="notes", content="x", path=md))
    _refused(call(peer, "gno_capture", collection="notes", content="x", folderPath=f"in/{name}"))
    _refused(call(peer, "gno_create_folder", collection="notes", name=name))
    _refused(call(peer, "gno_create_folder", collection="notes", name="ok", parentPath=name))
    for action in ("preview", "apply"):
        extra: dict[str, Any] = (
            {"schemaVersion": "1.0", "planDigest": "a" * 64, "confirmation": "apply"}
            | {"confirm": True}
            if action == "apply"
            else {}
        )
        _refused(call(peer, "gno_rename_note", action=action, ref="notes/old.md", name=md, **extra))
        _refused(
            call(peer, "gno_move_note", action=action, ref="notes/old.md", folderPath=name, **extra)
        )
        _refused(
            call(
                peer,
                "gno_move_note",
                action=action,
                ref="notes/old.md",
                folderPath="ok",
                name=md,
                **extra,
            )
        )
    _refused(call(peer, "gno_duplicate_note", ref="notes/old.md", folderPath=name))
    _refused(call(peer, "gno_duplicate_note", ref="notes/old.md", name=md))
    assert dict(made.tree._files) == before
    assert not made.tree.is_dir(f"/notes/{name}")


@pytest.mark.parametrize("folder", ["/etc", "/tmp/elsewhere", "/", "~/x", "C:/x"])
def test_an_absolute_folder_path_is_refused_not_rerooted(folder: str) -> None:
    peer, made = write_peer(NOTES)
    before = dict(made.tree._files)
    captured = call(peer, "gno_capture", collection="notes", content="x", folderPath=folder)
    _refused(captured)
    moved = call(peer, "gno_move_note", action="preview", ref="notes/old.md", folderPath=folder)
    _refused(moved)
    assert "relative to the collection" in moved["content"][0]["text"]
    _refused(call(peer, "gno_duplicate_note", ref="notes/old.md", folderPath=folder))
    assert dict(made.tree._files) == before


def test_a_title_that_is_a_reserved_name_gets_a_safe_file_name() -> None:
    peer, _ = write_peer(NOTES)
    for title in ("Con", "AUX", "nul"):
        receipt = call(peer, "gno_capture", collection="notes", content="body", title=title)
        rel = receipt["structuredContent"]["relPath"]
        assert rel.endswith(f"/{title.lower()}-note.md"), rel


def test_the_collection_root_and_ordinary_names_still_work() -> None:
    peer, _ = write_peer(NOTES)
    dup = call(peer, "gno_duplicate_note", ref="notes/old.md", folderPath=".")
    assert dup["structuredContent"]["target"]["relPath"] == "old-copy.md", dup
    made_folder = call(peer, "gno_create_folder", collection="notes", name="console")
    assert made_folder["structuredContent"]["created"] is True  # "console" is not "con"
    renamed = call(peer, "gno_rename_note", action="preview", ref="notes/old.md", name="aux-x")
    assert renamed["structuredContent"]["canApply"] is True
