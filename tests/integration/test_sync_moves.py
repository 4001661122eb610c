"""A file moved outside gno (a shell ``mv``, an editor's rename) is one ``rename`` entry of the
change journal, not an inactivate and a create: sync pairs a path gone with a path new in the
same collection and the same pass when their source bytes are the same. Run over the real sync
use case with both index adapters (in-memory and SQLite) and a tree held in memory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.inmemory.index import in_memory_index
from gno_adapters.inmemory.tree import InMemorySourceTree
from gno_adapters.sqlite import open_apsw_index
from gno_core.config import ChunkingConfig, CollectionConfig, IngestConfig
from gno_core.contracts.collections import SyncResult
from gno_core.indexing.sync import Syncer
from gno_core.ports.index import Index

ROOT = "/vault"


@pytest.fixture(params=["memory", "apsw"])
def index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Index]:
    clock = FixedClock()
    if request.param == "memory":
        with in_memory_index(clock) as mem:
            yield mem
    else:
        with open_apsw_index(str(tmp_path / "index.sqlite"), clock) as db:
            yield db


class Vault:
    def __init__(self, index: Index, batch_size: int = 500) -> None:
        self.index = index
        self.tree = InMemorySourceTree()
        self.tree.mkdir(ROOT)
        self.ingest = IngestConfig(batch_size=batch_size)
        self.seen = 0

    def write(self, rel: str, text: str) -> None:
        self.tree.write(f"{ROOT}/{rel}", text)

    def move(self, old: str, new: str) -> None:
        data = self.tree.read(f"{ROOT}/{old}", 1 << 20)
        self.tree.remove(f"{ROOT}/{old}")
        self.tree.write(f"{ROOT}/{new}", data)

    def sync(self, batch_size: int | None = None) -> SyncResult:
        if batch_size is not None:
            self.ingest = IngestConfig(batch_size=batch_size)
        syncer = Syncer(
            self.index.ledger, self.tree, YamlFrontmatterParser(), FixedClock(), self.index.links
        )
        return syncer.sync(
            [CollectionConfig(name="notes", path=ROOT)], ChunkingConfig(), self.ingest
        )

    def changes(self) -> list[tuple[str, str]]:
        """The entries since the last call: (kind, path or old->new)."""
        out = []
        for e in self.index.journal.entries(after=self.seen, limit=1000):
            self.seen = e.seq
            if e.kind == "rename":
                assert e.previous is not None and e.current is not None
                out.append((e.kind, f"{e.previous.rel_path}->{e.current.rel_path}"))
            else:
                out.append((e.kind, e.rel_path))
        return out


def test_a_shell_move_is_one_rename_with_both_snapshots(index: Index) -> None:
    v = Vault(index)
    v.write("a.md", "# A\n\nSee [[b]].\n")
    v.write("b.md", "# B\n")
    v.sync()
    v.changes()
    v.move("a.md", "sub/moved.md")
    result = v.sync()
    assert v.changes() == [("rename", "a.md->sub/moved.md")]
    (entry,) = index.journal.entries(limit=1000)[-1:]
    assert entry.previous is not None and entry.current is not None
    assert (entry.previous.rel_path, entry.previous.active) == ("a.md", True)
    assert (entry.current.rel_path, entry.current.active) == ("sub/moved.md", True)
    assert entry.previous.source_hash == entry.current.source_hash
    assert entry.delta.empty  # the same bytes: nothing in it changed
    # the index itself is as after a delete and a create: old path gone, new one served
    assert index.documents.get_document("notes", "a.md") is None
    moved = index.documents.get_document("notes", "sub/moved.md")
    assert moved is not None and moved.docid == "#" + entry.current.source_hash[:8]
    assert (result.total_added, result.total_removed) == (1, 1)
    assert index.journal.latest_for("notes", "a.md") == entry
    v.sync()
    assert v.changes() == []  # and a sync after it finds nothing


def test_a_move_that_also_edits_stays_a_delete_and_a_create(index: Index) -> None:
    v = Vault(index)
    v.write("a.md", "# A\n")
    v.sync()
    v.changes()
    v.tree.remove(f"{ROOT}/a.md")
    v.write("b.md", "# A\n\nedited while moved\n")
    v.sync()
    assert sorted(v.changes()) == [("create", "b.md"), ("inactivate", "a.md")]


def test_moves_pair_across_batches_and_folders(index: Index) -> None:
    """A folder renamed with many notes, synced in batches of 2: every note one rename, the
    new path's upsert and the old path's deactivation in one batch (whichever batch the new
    path falls in), never a create."""
    v = Vault(index)
    for i in range(7):
        v.write(f"old/n{i}.md", f"# N{i}\n")
    v.write("keep.md", "# Keep\n")
    v.sync()
    v.changes()
    for i in range(7):
        v.move(f"old/n{i}.md", f"new/n{i}.md")
    v.write("fresh.md", "# Fresh\n")
    v.sync(batch_size=2)
    got = v.changes()
    assert sorted(got) == [
        ("create", "fresh.md"),
        *[("rename", f"old/n{i}.md->new/n{i}.md") for i in range(7)],
    ]


def test_identical_candidates_pair_in_path_order(index: Index) -> None:
    """Several files with the same bytes: the k-th new path (in path order) takes the k-th
    gone path (in path order); what is left over is a create or an inactivate."""
    v = Vault(index)
    for name in ("x/a.md", "x/b.md", "x/c.md"):
        v.write(name, "same\n")
    v.write("other.md", "# Other\n")
    v.sync()
    v.changes()
    v.move("x/a.md", "y/a.md")
    v.move("x/b.md", "y/b.md")
    v.write("y/z.md", "same\n")  # a third copy appears, nothing else goes
    v.sync()
    assert sorted(v.changes()) == [
        ("create", "y/z.md"),
        ("rename", "x/a.md->y/a.md"),
        ("rename", "x/b.md->y/b.md"),
    ]
    # more gone than new: the first gone (in path order) is renamed, the rest inactivated
    v.tree.remove(f"{ROOT}/x/c.md")
    v.tree.remove(f"{ROOT}/y/a.md")
    v.tree.remove(f"{ROOT}/y/z.md")
    v.write("w.md", "same\n")
    v.sync()
    assert sorted(v.changes()) == [
        ("inactivate", "y/a.md"),
        ("inactivate", "y/z.md"),
        ("rename", "x/c.md->w.md"),
    ]


def test_a_move_onto_a_removed_path_is_a_rename(index: Index) -> None:
    """The new path had a document once (inactive now): the move is still one rename."""
    v = Vault(index)
    v.write("a.md", "# A\n")
    v.write("b.md", "# B\n")
    v.sync()
    v.tree.remove(f"{ROOT}/b.md")
    v.sync()
    v.changes()
    v.move("a.md", "b.md")
    v.sync()
    assert v.changes() == [("rename", "a.md->b.md")]


def test_no_pairing_across_collections(index: Index) -> None:
    v = Vault(index)
    v.tree.mkdir("/other")
    v.write("a.md", "# A\n")
    syncer = Syncer(index.ledger, v.tree, YamlFrontmatterParser(), FixedClock(), index.links)
    both = [
        CollectionConfig(name="notes", path=ROOT),
        CollectionConfig(name="other", path="/other"),
    ]
    syncer.sync(both, ChunkingConfig(), v.ingest)
    v.changes()
    data = v.tree.read(f"{ROOT}/a.md", 1 << 20)
    v.tree.remove(f"{ROOT}/a.md")
    v.tree.write("/other/a.md", data)
    syncer.sync(both, ChunkingConfig(), v.ingest)
    assert sorted(v.changes()) == [("create", "a.md"), ("inactivate", "a.md")]
