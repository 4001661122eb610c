"""``changes_wire`` builds the ``changes@1.0`` page straight in its wire form: it must be the
validated model's wire form exactly, and valid against the committed schema, for every kind."""

from __future__ import annotations

from gno_adapters.bootstrap import build, in_memory
from gno_core.contracts.delta_requests import ChangesRequest, DiffRequest
from gno_core.domain import SyncBatch
from tests.schema_check import assert_valid


def test_the_prebuilt_page_is_the_model_page() -> None:
    made = in_memory({"a.md": "# A\n\n[[b]]\n", "b.md": "---\ntitle: Bee\n---\n# B\n"})
    with build(made) as gno:
        gno.sync()
        ledger = gno.handle.index.ledger
        ledger.apply_batch(SyncBatch("notes", deactivate=("a.md",)))
        pre = gno.changes_wire(ChangesRequest())
        assert pre.wire() == pre.model().wire() == gno.changes(ChangesRequest()).wire()
        assert_valid("changes", pre.wire())
        kinds = [c["kind"] for c in pre.wire()["changes"]]
        assert kinds == ["create", "create", "inactivate"]
        assert pre.wire()["changes"][2]["current"]["active"] is False
        untitled = gno.changes_wire(ChangesRequest(limit=1)).wire()
        assert untitled["page"]["truncated"] is True
        assert_valid("document-diff", gno.diff(DiffRequest(ref="notes/a.md")).wire())
