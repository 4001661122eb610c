"""Links a rename cannot see in the index's stored links are seen or named (issue 21, failure
6): notes that failed ingest (broken YAML frontmatter, too large, binary or not UTF-8) and links
past the extractor's cap of 20,000 per note. A failed note that is still UTF-8 text is read as
text and rewritten byte for byte like any referrer, under its precondition hash; one that cannot
be read as text is named in the preview's warnings and in the apply result; a note with more
links than the cap is parsed whole."""

from __future__ import annotations

from typing import Any

import pytest

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_core.config import CollectionConfig, GnoConfig, IngestConfig
from gno_core.contracts.refactors import (
    MoveNoteRequest,
    RefactorApplyResult,
    RefactorPreview,
    RenameNoteRequest,
)
from gno_core.facade import Gno
from gno_core.links.extract import MAX_LINKS
from gno_core.refactors import reading
from tests.refactors.test_refactor_plans import _apply
from tests.schema_check import assert_valid

ROOT = "/notes"
OLD = "# Old\n"


def _gno(notes: dict[str, str | bytes], max_file_bytes: int | None = None) -> tuple[Gno, Adapters]:
    adapters = in_memory(notes)
    if max_file_bytes is not None:
        adapters.config.save(
            GnoConfig(
                collections=[CollectionConfig(name="notes", path=ROOT)],
                ingest=IngestConfig(max_file_bytes=max_file_bytes),
            )
        )
    gno = build(adapters)
    gno.sync()
    return gno, adapters


def _file(adapters: Adapters, rel: str) -> bytes:
    tree: Any = adapters.tree
    data: bytes = tree.read(f"{ROOT}/{rel}", 1 << 30)
    return data


def _rename(gno: Gno, name: str = "new") -> tuple[RefactorPreview, RefactorApplyResult]:
    request = RenameNoteRequest(ref="notes/old.md", name=name)
    preview = gno.rename_note(request)
    assert isinstance(preview, RefactorPreview)
    assert_valid("file-refactor-preview", preview.wire())
    result = gno.rename_note(_apply(request, preview.plan_digest))
    assert isinstance(result, RefactorApplyResult)
    assert_valid("file-refactor-apply-result", result.wire())
    return preview, result


def _failed(gno: Gno) -> dict[str, str]:
    ledger = gno.refactors.handle.index.ledger
    return {f.rel_path: f.code for f in ledger.failures("notes")}


def _referrer(preview: RefactorPreview, rel: str) -> int:
    found = [
        d.edits for d in preview.affected_documents if d.rel_path == rel and d.role == "referrer"
    ]
    assert found, f"{rel} is not among the affected documents"
    return found[0]


BROKEN = (
    '---\ntitle: [unclosed\nrelated: "[[old]]"\n---\r\n'
    "Body [[old|label]], ![[old]] and [md](./old.md#x).\r\n"
)


def test_a_referrer_with_broken_yaml_is_rewritten_as_text() -> None:
    gno, adapters = _gno({"old.md": OLD, "broken.md": BROKEN, "hub.md": "See [[old]]\n"})
    assert _failed(gno) == {"broken.md": "FRONTMATTER"}
    preview, result = _rename(gno)
    assert preview.can_apply and preview.safety.warnings == []
    assert _referrer(preview, "broken.md") == 4
    assert {p.rel_path: p.state for p in preview.preconditions}["broken.md"] == "present"
    assert result.status == "applied" and result.message is None
    assert _file(adapters, "broken.md") == (
        BROKEN.replace("[[old", "[[new").replace("./old.md", "./new.md").encode()
    )
    assert _file(adapters, "hub.md") == b"See [[new]]\n"


def test_a_referrer_too_large_to_index_is_rewritten_within_the_scan_bound() -> None:
    big = "[[old]] and [x](old.md)\n" + "filler words\n" * 200 + "end ![[old#H]]\n"
    assert len(big) > 1024
    gno, adapters = _gno({"old.md": OLD, "big.md": big}, max_file_bytes=1024)
    assert _failed(gno) == {"big.md": "TOO_LARGE"}
    preview, result = _rename(gno)
    assert preview.can_apply and _referrer(preview, "big.md") == 3
    assert result.status == "applied"
    assert _file(adapters, "big.md") == big.replace("old", "new").encode()


def test_a_note_over_the_hard_scan_bound_is_named_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    big = "[[old]]\n" + "filler words\n" * 200
    gno, adapters = _gno({"old.md": OLD, "big.md": big}, max_file_bytes=1024)
    monkeypatch.setattr(reading, "SCAN_MAX_BYTES", 2048)
    preview, result = _rename(gno)
    assert preview.can_apply
    assert len(preview.safety.warnings) == 1
    warning = preview.safety.warnings[0]
    assert "notes/big.md" in warning and "TOO_LARGE" in warning
    assert result.status == "applied" and result.message is not None
    assert "notes/big.md" in result.message
    assert _file(adapters, "big.md") == big.encode()  # never written


@pytest.mark.parametrize(
    ("data", "code"),
    [(b"\x00binary [[old]]\n", "BINARY"), (b"caf\xe9 [[old]]\n", "ENCODING")],
)
def test_a_referrer_that_is_not_text_is_named_in_the_preview_and_the_result(
    data: bytes, code: str
) -> None:
    gno, adapters = _gno({"old.md": OLD, "bin.md": data, "photo.png": b"\x00[[old]]"})
    assert _failed(gno).get("bin.md") == code
    preview, result = _rename(gno)
    assert [w for w in preview.safety.warnings if "notes/bin.md" in w and code in w]
    assert not [w for w in preview.safety.warnings if "photo.png" in w]  # never a note
    assert result.status == "applied" and result.message is not None
    assert "notes/bin.md" in result.message
    assert _file(adapters, "bin.md") == data  # never written


def _crowd(*extra: str) -> str:
    filler = " ".join(f"[[n{i}]]" for i in range(MAX_LINKS))
    return "\n".join((*extra[:1], filler, *extra[1:])) + "\n"


def test_links_past_the_extraction_cap_are_rewritten() -> None:
    crowd = _crowd("", "last [[old]] and [md](old.md)")
    gno, adapters = _gno({"old.md": OLD, "crowd.md": crowd})
    preview, result = _rename(gno)
    assert preview.can_apply and _referrer(preview, "crowd.md") == 2
    assert result.status == "applied"
    assert (
        _file(adapters, "crowd.md")
        == crowd.replace("[[old]]", "[[new]]").replace("(old.md)", "(new.md)").encode()
    )


def test_a_referrer_found_before_the_cap_has_its_links_past_it_rewritten_too() -> None:
    crowd = _crowd("first [[old]]", "last [[old|x]]")
    gno, adapters = _gno({"old.md": OLD, "crowd.md": crowd})
    preview, result = _rename(gno)
    assert preview.can_apply and _referrer(preview, "crowd.md") == 2
    assert result.status == "applied"
    assert _file(adapters, "crowd.md") == crowd.replace("[[old", "[[new").encode()


def test_the_moved_note_own_links_past_the_cap_are_recalculated() -> None:
    own = _crowd("# Old", "[deep](sub/deep.md) and [[old]]")
    gno, _ = _gno({"old.md": own, "sub/deep.md": "# Deep\n"})
    preview = gno.refactors.preview("move", MoveNoteRequest(ref="notes/old.md", folder_path="sub"))
    assert preview.can_apply
    edits = [(e.rel_path, e.replacement) for e in preview.edits]
    assert ("sub/old.md", "deep.md") in edits
