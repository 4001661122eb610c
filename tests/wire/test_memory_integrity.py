"""Memory integrity over the real facade on the in-memory adapters, through the MCP tools: a
fact file is written by ``remember`` alone. Capture, move, rename, duplicate and create-folder
refuse the facts area of a memory collection; a fact file ``remember`` did not write (hand-built,
edited, copied) is reported and never recalled; a supersession holds only within one collection
and a shared scope; text that cannot be stored is refused before anything is written."""

from __future__ import annotations

from typing import Any

import pytest

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_adapters.bootstrap.in_memory_set import NOTES_ROOT
from gno_adapters.mcp.tools.common import ERROR_META
from gno_core.config import CollectionConfig
from gno_core.contracts.memory_requests import RecallRequest, RememberRequest
from gno_core.errors import MEMORY_ERRORS
from gno_core.fact_files import content_hash, fact_path, legacy_record_id, render_fact
from gno_core.facts import FactRecord, MemoryIdentity
from tests.schema_check import assert_valid
from tests.wire.real_facade import Peer

ME = MemoryIdentity(caller="agent", session="s-1")
REAL = "The deploy window is Tuesday 14:00 UTC"
CREATED = "2026-01-01T00:00:00Z"
APPLY = {"action": "apply", "schemaVersion": "1.0", "confirmation": "apply", "confirm": True}
OTHER_ROOT = "/other"


def forged(
    text: str, *scopes: str, supersedes: tuple[str, ...] = (), caller: str = "mallory"
) -> tuple[str, str]:
    """A fact file built by hand the way the old ``remember`` wrote one (its id and path
    computed with the published formula): (relPath, file text)."""
    digest = content_hash(text)
    rid = legacy_record_id(digest, CREATED, caller, "s-x")
    record = FactRecord(rid, text, scopes, caller, "s-x", CREATED, digest, None, supersedes)
    return fact_path(CREATED, rid), render_fact(record)


def memory(*, other: bool = False) -> tuple[Adapters, str]:
    """A memory collection ``notes`` holding one fact remembered in scope ``team`` (and a
    second memory collection ``other`` when asked): the adapters and the fact's URI."""
    adapters = in_memory({"plain.md": "# Plain\n\nAn ordinary note.\n"}, embedder=False)
    config = adapters.config.load()
    collections = [config.collections[0].model_copy(update={"memory_managed": True})]
    if other:
        adapters.tree.mkdir(OTHER_ROOT)
        collections.append(CollectionConfig(name="other", path=OTHER_ROOT, memory_managed=True))
    adapters.config.save(config.model_copy(update={"collections": collections}))
    with build(adapters) as gno:
        gno.sync()
        added = gno.remember(
            RememberRequest(text=REAL, collection="notes", scopes=["team"], decision="add"), ME
        )
    return adapters, added.record.uri


def recalled(adapters: Adapters, *scopes: str, collection: str = "notes") -> list[str]:
    with build(adapters) as gno:
        out = gno.recall(
            RecallRequest(query="deploy window", collection=collection, scopes=list(scopes)), ME
        )
    return [f.text for f in out.facts]


def diagnostics(adapters: Adapters) -> list[tuple[str, str]]:
    with build(adapters) as gno:
        status = gno.status()
    assert status.memory is not None
    return [(d.rel_path, d.code) for d in status.memory.diagnostics]


def writer(adapters: Adapters, profile: str = "full") -> Peer:
    peer = Peer(enable_write=True, profile=profile, facade=lambda: build(adapters))
    peer.initialize()
    return peer


def call(peer: Peer, tool: str, **arguments: Any) -> dict[str, Any]:
    params = {"name": tool, "arguments": arguments}
    result: dict[str, Any] = peer.request("tools/call", params)["result"]
    return result


def error_code(result: dict[str, Any]) -> str:
    assert result.get("isError") is True, result
    code: str = result["_meta"][ERROR_META]["code"]
    return code


def sync(adapters: Adapters) -> None:
    with build(adapters) as gno:
        gno.sync()


# -- the write tools refuse the facts area ---------------------------------------------------


def test_capture_of_a_hand_built_fact_file_is_refused() -> None:
    adapters, real = memory()
    rel, text = forged("The deploy window is Friday 18:00 UTC", "team", supersedes=(real,))
    peer = writer(adapters, profile="core")
    refused = call(peer, "gno_capture", collection="notes", path=rel, content=text)
    assert error_code(refused) == "INVALID_PATH"
    assert "only gno remember writes" in refused["content"][0]["text"]
    # In any case, in any folder of the area, and in the folder itself.
    for path in ("Facts/2026-01-01/x.md", "facts/note.md"):
        args = {"collection": "notes", "path": path, "content": "a note"}
        assert error_code(call(peer, "gno_capture", **args)) == "INVALID_PATH"
    folder = {"collection": "notes", "folderPath": "facts/2026-01-01", "content": "a note"}
    assert error_code(call(peer, "gno_capture", **folder)) == "INVALID_PATH"
    assert recalled(adapters, "team") == [REAL]


def test_a_fact_file_remember_did_not_write_is_reported_and_never_recalled() -> None:
    adapters, real = memory()
    # Any record id at the path it names, any caller, a supersedes: not remember's file.
    rid = "mem-00000000000000ab"
    _, text = forged("The deploy window is Friday 18:00 UTC", "team", supersedes=(real,))
    text = text.replace(text.split('recordId: "')[1].split('"')[0], rid)
    adapters.tree.write(f"{NOTES_ROOT}/facts/2026-01-01/{rid}.md", text)
    sync(adapters)
    assert recalled(adapters, "team") == [REAL]
    assert (f"facts/2026-01-01/{rid}.md", "MEMORY_RECORD_ID_MISMATCH") in diagnostics(adapters)


def test_move_rename_and_duplicate_refuse_the_facts_area() -> None:
    adapters, real = memory()
    rel, text = forged("The deploy window is Friday 18:00 UTC", "team", supersedes=(real,))
    folder, name = rel.rsplit("/", 1)
    adapters.tree.write(f"{NOTES_ROOT}/draft.md", text)
    sync(adapters)
    peer = writer(adapters)
    preview = call(
        peer,
        "gno_move_note",
        action="preview",
        ref="notes/draft.md",
        folderPath=folder,
        name=name,
    )
    plan = preview["structuredContent"]
    assert_valid("file-refactor-preview", plan)
    assert plan["canApply"] is False and "unsafe_target" in plan["safety"]["blockers"]
    moved = call(
        peer,
        "gno_move_note",
        ref="notes/draft.md",
        folderPath=folder,
        name=name,
        planDigest=plan["planDigest"],
        **APPLY,
    )["structuredContent"]
    assert moved["status"] == "unsupported"
    assert not (adapters.tree.file_at(f"{NOTES_ROOT}/{rel}") is not None)
    fact_rel = real.removeprefix("gno://notes/")
    renamed = call(peer, "gno_rename_note", action="preview", ref=real, name="renamed")
    blockers = renamed["structuredContent"]["safety"]["blockers"]
    assert "read_only_document" in blockers
    away = call(peer, "gno_move_note", action="preview", ref=real, folderPath="elsewhere")
    assert "read_only_document" in away["structuredContent"]["safety"]["blockers"]
    copy = call(peer, "gno_duplicate_note", ref=real)["structuredContent"]
    assert copy["status"] == "unsupported"
    copy_in = call(peer, "gno_duplicate_note", ref="notes/plain.md", folderPath=folder)
    assert copy_in["structuredContent"]["status"] == "unsupported"
    assert adapters.tree.file_at(f"{NOTES_ROOT}/{fact_rel}") is not None
    assert recalled(adapters, "team") == [REAL]


def test_create_folder_refuses_the_facts_area() -> None:
    adapters, _ = memory()
    peer = writer(adapters)
    for args in ({"name": "facts"}, {"name": "x", "parentPath": "facts"}, {"name": "FACTS"}):
        refused = call(peer, "gno_create_folder", collection="notes", **args)
        assert error_code(refused) == "INVALID_PATH"
    assert "isError" not in call(peer, "gno_create_folder", collection="notes", name="factsheet")


# -- identity: edited and copied files ------------------------------------------------------


def test_a_copied_or_edited_fact_is_reported_and_never_recalled() -> None:
    adapters, real = memory()
    rel = real.removeprefix("gno://notes/")
    original = adapters.tree.read(f"{NOTES_ROOT}/{rel}", 100_000).decode()
    # A copy at another path: one fact, the copy reported.
    adapters.tree.write(f"{NOTES_ROOT}/facts/2026-01-01/copy.md", original)
    # The same fact widened to another scope by hand, in a copy named as a fact.
    widened = original.replace('scopes: ["team"]', 'scopes: ["team", "home"]')
    adapters.tree.write(f"{NOTES_ROOT}/{rel}", widened)
    sync(adapters)
    assert recalled(adapters, "home") == []
    found = dict(diagnostics(adapters))
    assert found["facts/2026-01-01/copy.md"] == "MEMORY_PATH_MISMATCH"
    assert found[rel] == "MEMORY_RECORD_ID_MISMATCH"
    # The text edited with a matching hash is not remember's fact either.
    edited = original.replace(REAL, "The deploy window is Monday").replace(
        content_hash(REAL), content_hash("The deploy window is Monday")
    )
    adapters.tree.write(f"{NOTES_ROOT}/{rel}", edited)
    sync(adapters)
    assert recalled(adapters, "team") == []
    assert dict(diagnostics(adapters))[rel] == "MEMORY_RECORD_ID_MISMATCH"
    adapters.tree.write(f"{NOTES_ROOT}/{rel}", original)  # restored: the fact again
    adapters.tree.remove(f"{NOTES_ROOT}/facts/2026-01-01/copy.md")
    sync(adapters)
    assert recalled(adapters, "team") == [REAL]
    assert diagnostics(adapters) == []


def test_facts_of_the_previous_format_still_verify() -> None:
    adapters, _ = memory()
    rel, text = forged("The deploy window moved to Wednesday", "ops", caller="cli:alice")
    adapters.tree.write(f"{NOTES_ROOT}/{rel}", text)
    sync(adapters)
    assert recalled(adapters, "ops") == ["The deploy window moved to Wednesday"]
    assert diagnostics(adapters) == []


# -- supersession: one collection, a shared scope -------------------------------------------


def test_remember_cannot_supersede_a_fact_of_another_scope() -> None:
    adapters, real = memory()
    peer = writer(adapters, profile="core")
    with build(adapters) as gno:
        hit = gno.recall(
            RecallRequest(query="deploy window", collection="notes", scopes=["team"]), ME
        )
    digest = hit.facts[0].content_hash
    refused = call(
        peer,
        "gno_remember",
        text="The deploy window is whenever",
        collection="notes",
        scopes=["home"],
        decision="supersede",
        predecessorUri=real,
        predecessorHash=digest,
    )
    assert error_code(refused) == "MEMORY_PREDECESSOR_NOT_FOUND"
    assert recalled(adapters, "team") == [REAL]
    out = call(peer, "gno_recall", query="deploy window", collection="notes", scopes=["team"])
    assert [f["text"] for f in out["structuredContent"]["facts"]] == [REAL]


def test_a_supersedes_across_scopes_or_collections_is_ignored_and_reported() -> None:
    adapters, real = memory(other=True)
    # A fact of another memory collection naming this one, and one of this collection in
    # another scope naming it: neither hides it.
    rel_o, text_o = forged("Deploys are frozen", "team", supersedes=(real,))
    adapters.tree.write(f"{OTHER_ROOT}/{rel_o}", text_o)
    rel_h, text_h = forged("Deploy window at home is never", "home", supersedes=(real,))
    adapters.tree.write(f"{NOTES_ROOT}/{rel_h}", text_h)
    sync(adapters)
    assert recalled(adapters, "team") == [REAL]
    assert recalled(adapters, "home") == ["Deploy window at home is never"]
    found = diagnostics(adapters)
    assert (rel_o, "MEMORY_SUPERSEDES_IGNORED") in found
    assert (rel_h, "MEMORY_SUPERSEDES_IGNORED") in found
    with build(adapters) as gno:
        status = gno.status()
    assert status.memory is not None and status.memory.superseded_facts == 0


# -- text that cannot be stored ---------------------------------------------------------------


def test_text_with_nul_or_a_control_character_is_refused_before_writing() -> None:
    adapters, _ = memory()
    peer = writer(adapters, profile="core")
    before = set(adapters.tree._files)
    for text in ("The deploy key is \x00 secret", "bell \x07 rings", "csi \x9b here"):
        args = {"text": text, "collection": "notes", "scopes": ["team"], "decision": "add"}
        assert error_code(call(peer, "gno_remember", **args)) == "MEMORY_TEXT_INVALID"
    # Half a surrogate pair is no string to the MCP schema: refused before gno sees it.
    args = {"text": "half \ud800 pair", "collection": "notes", "scopes": ["t"], "decision": "add"}
    assert error_code(call(peer, "gno_remember", **args)) == "VALIDATION"
    assert set(adapters.tree._files) == before
    request = RememberRequest(text="a\x00b", collection="notes", scopes=["t"], decision="add")
    with build(adapters) as gno, pytest.raises(MEMORY_ERRORS["MEMORY_TEXT_INVALID"]) as caught:
        gno.remember(request, ME)
    assert caught.value.details["field"] == "text"
    assert set(adapters.tree._files) == before


def test_a_refactor_that_would_edit_a_fact_linking_to_the_note_is_blocked() -> None:
    adapters, _ = memory()
    text = "The deploy checklist is in [[plain]]"
    with build(adapters) as gno:
        gno.remember(
            RememberRequest(text=text, collection="notes", scopes=["ops"], decision="add"), ME
        )
    peer = writer(adapters)
    preview = call(peer, "gno_rename_note", action="preview", ref="notes/plain.md", name="ordinary")
    plan = preview["structuredContent"]
    assert plan["canApply"] is False and "read_only_document" in plan["safety"]["blockers"]
    done = call(
        peer,
        "gno_rename_note",
        ref="notes/plain.md",
        name="ordinary",
        planDigest=plan["planDigest"],
        **APPLY,
    )["structuredContent"]
    assert done["status"] == "unsupported"
    with build(adapters) as gno:
        out = gno.recall(
            RecallRequest(query="deploy checklist", collection="notes", scopes=["ops"]), ME
        )
    assert [f.text for f in out.facts] == [text]
