"""Whether an SQLite index writes the change journal is a setting of the index it opens
(``open_apsw_index(..., journal=False)``, ``ApswIndexProvider(..., journal=False)``), for the
journal benchmark alone; not a module switch that would turn it off for every index of the
process."""

from __future__ import annotations

from pathlib import Path

from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.sqlite import ApswIndexProvider, open_apsw_index
from gno_adapters.sqlite import ledger as ledger_module
from gno_core.domain import SyncBatch
from tests.contract.store_support import make_doc


def test_the_journal_is_a_setting_of_each_index(tmp_path: Path) -> None:
    clock = FixedClock()
    with (
        open_apsw_index(str(tmp_path / "off.sqlite"), clock, journal=False) as off,
        open_apsw_index(str(tmp_path / "on.sqlite"), clock) as on,
    ):
        for index in (off, on):
            index.ledger.apply_batch(SyncBatch("notes", upserts=(make_doc("a.md", "# A\n"),)))
            index.ledger.apply_batch(
                SyncBatch(
                    "notes",
                    upserts=(make_doc("b.md", "# A\n"),),
                    deactivate=("a.md",),
                    renamed=(("a.md", "b.md"),),
                )
            )
            index.ledger.rename_collection("notes", "kept")
            index.ledger.deactivate_collection("kept")
        assert off.journal.entries(limit=100) == []
        assert off.journal.bounds().latest == 0
        assert [e.kind for e in on.journal.entries(limit=100)] == [
            "create",
            "rename",
            "rename",
            "inactivate",
        ]
    assert not hasattr(ledger_module, "JOURNAL")  # no process-wide switch


def test_the_provider_passes_the_setting_on(tmp_path: Path) -> None:
    provider = ApswIndexProvider(tmp_path / "index.sqlite", FixedClock(), journal=False)
    with provider.open() as index:
        index.ledger.apply_batch(SyncBatch("notes", upserts=(make_doc("a.md", "# A\n"),)))
        assert index.journal.entries() == []
        assert index.documents.get_document("notes", "a.md") is not None
