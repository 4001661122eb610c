"""``gno_rename_note`` / ``gno_move_note`` / ``gno_duplicate_note`` on the wire, over the real
facade: the same digest twice, a wrong digest refused before anything is touched, a missing
confirmation refused, ``stale_plan`` after a referencing note changes, and every answer valid
against its committed contract."""

from __future__ import annotations

from typing import Any

from gno_adapters.mcp.tools.common import ERROR_META
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer, write_peer
from tests.wire.test_mcp_writes import call

NOTES = {
    "old.md": "# Old\n",
    "hub.md": "See [[old]] and [old](old.md).\n",
    "far/leaf.md": "Up: [[old|label]]\n",
}


APPLY = {"action": "apply", "schemaVersion": "1.0", "confirmation": "apply", "confirm": True}


def _apply_rename(peer: Peer, plan: dict[str, Any]) -> dict[str, Any]:
    """Apply the rename of notes/old.md to "renamed" the preview ``plan`` showed; its result,
    checked against the contract."""
    done: dict[str, Any] = call(
        peer,
        "gno_rename_note",
        ref="notes/old.md",
        name="renamed",
        planDigest=plan["planDigest"],
        **APPLY,
    )["structuredContent"]
    assert_valid("file-refactor-apply-result", done)
    return done


def test_preview_twice_then_a_wrong_digest_then_the_right_one() -> None:
    peer, made = write_peer(NOTES)
    first = call(peer, "gno_rename_note", action="preview", ref="notes/old.md", name="renamed")
    second = call(peer, "gno_rename_note", action="preview", ref="notes/old.md", name="renamed")
    plan = first["structuredContent"]
    assert_valid("file-refactor-preview", plan)
    assert plan["planDigest"] == second["structuredContent"]["planDigest"]
    assert plan["canApply"] is True and len(plan["edits"]) == 3
    untouched = dict(made.tree._files)
    wrong = call(
        peer, "gno_rename_note", ref="notes/old.md", name="renamed", planDigest="f" * 64, **APPLY
    )
    assert_valid("file-refactor-apply-result", wrong["structuredContent"])
    assert wrong["structuredContent"]["status"] == "stale_plan"
    assert dict(made.tree._files) == untouched
    done = _apply_rename(peer, plan)
    assert (done["status"], done["target"]["relPath"]) == ("applied", "renamed.md")
    links = call(peer, "gno_backlinks", ref="notes/renamed.md")["structuredContent"]
    assert len(links["backlinks"]) == 3


def test_an_apply_missing_a_confirmation_fails_before_mutation() -> None:
    peer, made = write_peer(NOTES)
    untouched = dict(made.tree._files)
    digest = "a" * 64
    refused = call(
        peer,
        "gno_rename_note",
        action="apply",
        ref="notes/old.md",
        name="x",
        planDigest=digest,
        schemaVersion="1.0",
        confirmation="apply",
    )
    assert refused["isError"] is True and refused["_meta"][ERROR_META]["code"] == "VALIDATION"
    assert dict(made.tree._files) == untouched


def test_editing_a_referencing_note_after_the_preview_makes_the_apply_stale() -> None:
    peer, made = write_peer(NOTES)
    plan = call(peer, "gno_move_note", action="preview", ref="notes/old.md", folderPath="far")[
        "structuredContent"
    ]
    made.tree.write("/notes/hub.md", "See [[old]] and [old](old.md). Edited.\n")
    stale = call(
        peer,
        "gno_move_note",
        ref="notes/old.md",
        folderPath="far",
        planDigest=plan["planDigest"],
        **APPLY,
    )["structuredContent"]
    assert (stale["status"], stale["filesystem"]["state"]) == ("stale_plan", "unchanged")
    assert made.tree.file_at("/notes/old.md") is not None


def test_duplicate_and_a_cross_collection_move() -> None:
    peer, made = write_peer(NOTES)
    copy = call(peer, "gno_duplicate_note", ref="notes/hub.md", folderPath="far")[
        "structuredContent"
    ]
    assert_valid("file-refactor-apply-result", copy)
    assert copy["status"] == "applied" and copy["target"]["relPath"] == "far/hub-copy.md"
    assert made.tree.read("/notes/far/hub-copy.md", 1000) == b"See [[old]] and [old](../old.md).\n"
    other = call(
        peer, "gno_move_note", action="preview", ref="notes/old.md", folderPath="gno://else/x"
    )
    assert other["structuredContent"]["safety"]["blockers"] == ["cross_collection_unsupported"]


def test_without_the_write_gate_the_refactor_tools_do_not_exist() -> None:
    peer = Peer(enable_write=False)
    peer.initialize()
    names = {t["name"] for t in peer.request("tools/list", {})["result"]["tools"]}
    assert not names & {"gno_rename_note", "gno_move_note", "gno_duplicate_note"}


def test_the_preview_edits_a_note_sync_could_not_index_and_names_one_it_cannot_read() -> None:
    broken = "---\ntitle: [unclosed\n---\nSee [[old]] and [o](old.md).\n"
    peer, made = write_peer({**NOTES, "broken.md": broken, "bin.md": b"\x00 [[old]]\n"})
    plan = call(peer, "gno_rename_note", action="preview", ref="notes/old.md", name="renamed")[
        "structuredContent"
    ]
    assert_valid("file-refactor-preview", plan)
    edits = {d["relPath"]: d["edits"] for d in plan["affectedDocuments"]}
    assert edits["broken.md"] == 2 and "bin.md" not in edits
    assert plan["canApply"] is True
    [warning] = plan["safety"]["warnings"]
    assert "notes/bin.md" in warning and "BINARY" in warning
    done = _apply_rename(peer, plan)
    assert done["status"] == "applied" and "notes/bin.md" in done["message"]
    assert made.tree.read("/notes/broken.md", 1 << 20) == broken.replace("old", "renamed").encode()
