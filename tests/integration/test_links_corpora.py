"""Links on real vaults through the CLI: every link the independent reading in
``tests/link_expectations.py`` resolves, gno resolves to the same file (and what it leaves
unresolved, gno does too); backlinks and links as JSON against the contracts; a note renamed on
disk takes its backlinks along; a folder of malformed links syncs safely."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

import gno_core
from tests.integration.cli_helpers import Cli
from tests.link_expectations import Expectation, dendron_expected, foam_expected
from tests.schema_check import assert_valid

#: The independent reading of dendron-site/vault (``tests/link_expectations.py``).
EXPECTED_DENDRON_LINKS = 3142
EXPECTED_DENDRON_RESOLVED = 2993


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path, monkeypatch, capsys)


def _actual(*, label_first: bool, markdown: bool = True) -> Counter[Expectation]:
    """(source, target as written, resolved path) of gno's body links, as the expectations
    spell them (Dendron's label-first targets included)."""
    from gno_core.links.names import label_first_target

    out: Counter[Expectation] = Counter()
    with gno_core.open() as gno:
        store = gno.handle.index.links
        for doc in gno.handle.index.documents.list_documents():
            for rec in store.outgoing(doc.collection, doc.rel_path):
                link = rec.link
                if link.edge_source == "frontmatter-relation" or link.external:
                    continue
                written = link.target_ref
                method = rec.targets[0].method if rec.targets else ""
                if method.endswith("+label-first") or (
                    label_first and not rec.targets and link.alias
                ):
                    written = label_first_target(link.alias or "")
                if link.link_type == "markdown" and not (markdown and written.endswith(".md")):
                    continue
                target = rec.targets[0].document.rel_path if len(rec.targets) == 1 else None
                out[(doc.rel_path, written, target)] += 1
    return out


def test_dendron_resolution_matches_the_independent_reading(cli: Cli, shared_data: Path) -> None:
    vault = shared_data / "dendron-site" / "vault"
    expected = dendron_expected(vault)
    cli.ok("collection", "add", str(vault), "--name", "dendron")
    cli.ok("update")
    wiki = _actual(label_first=True, markdown=False)
    assert sum(expected.values()) == EXPECTED_DENDRON_LINKS
    # The one reading that differs (docs/reference/links.md): a broken Dendron block reference
    # ``[[Changelog|changelog^kSChN1jT6OMc]]``, whose label gno resolves case-insensitively.
    assert expected - wiki == Counter({("changelog.md", "changelog^kSChN1jT6OMc", None): 1})
    assert wiki - expected == Counter({("changelog.md", "Changelog", "changelog.md"): 1})
    resolved = sum(n for k, n in expected.items() if k[2] is not None)
    assert resolved == EXPECTED_DENDRON_RESOLVED

    hub = "dendron/dendron.topic.lookup.md"
    back = cli.ok("backlinks", hub, "--json").json()
    assert_valid("backlinks", back)
    assert back["meta"]["totalBacklinks"] >= 20
    first = back["backlinks"][0]
    source = vault / first["sourceDocUri"].removeprefix("gno://dendron/")
    assert "dendron.topic.lookup" in first["context"]
    assert source.is_file()
    out = cli.ok("links", "dendron/dendron.topic.lookup.md", "--json").json()
    assert_valid("links", out)
    assert cli.ok("links", "dendron/dendron.topic.lookup.md").out.startswith(
        f"{out['meta']['totalLinks']} outgoing links in gno://dendron/dendron.topic.lookup.md"
    )
    status = cli.ok("status", "--json").json()
    assert_valid("status", status)
    assert status["links"]["resolved"] + status["links"]["ambiguous"] >= 2993
    assert "Links: " in cli.ok("status").out

    again = cli.ok("update", "--json").json()
    assert again["totalUpdated"] == 0 and again["totalAdded"] == 0
    with gno_core.open() as gno:
        assert gno.handle.index.links.pending(1) == []


def test_foam_resolution_matches_the_independent_reading(cli: Cli, shared_data: Path) -> None:
    root = shared_data / "foam-docs"
    expected = foam_expected(root)
    cli.ok("collection", "add", str(root), "--name", "foam")
    cli.ok("update")
    actual = _actual(label_first=False)
    assert sum(expected.values()) >= 200
    assert actual == expected
    back = cli.ok("backlinks", "foam/user/features/wikilinks.md", "--json").json()
    assert_valid("backlinks", back)
    assert back["meta"]["totalBacklinks"] > 5


def test_a_note_renamed_on_disk_takes_its_backlinks(cli: Cli, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    (notes / "old").mkdir(parents=True)
    (notes / "a.md").write_text("# A\n\nsee [[target]]\n", encoding="utf-8")
    (notes / "b.md").write_text("# B\n\n[[target|the target]] and [[target#part]]\n")
    (notes / "old" / "target.md").write_text("# Target\n", encoding="utf-8")
    cli.ok("collection", "add", str(notes), "--name", "notes")
    cli.ok("update")
    before = cli.ok("backlinks", "notes/old/target.md", "--json").json()
    assert [b["sourceDocUri"] for b in before["backlinks"]] == [
        "gno://notes/a.md",
        "gno://notes/b.md",
        "gno://notes/b.md",
    ]
    (notes / "new").mkdir()
    (notes / "old" / "target.md").rename(notes / "new" / "target.md")
    cli.ok("update")
    assert cli("backlinks", "notes/old/target.md", "--json").code != 0
    after = cli.ok("backlinks", "notes/new/target.md", "--json").json()
    assert [b["sourceDocUri"] for b in after["backlinks"]] == [
        b["sourceDocUri"] for b in before["backlinks"]
    ]
    assert after["backlinks"][2]["targetAnchor"] == "part"


def test_malformed_links_sync_safely(cli: Cli, tmp_path: Path) -> None:
    notes = tmp_path / "hostile"
    notes.mkdir()
    (notes / "unclosed.md").write_text("[[" * 20_000 + "\n[[never closed\n", encoding="utf-8")
    (notes / "many.md").write_text("[[b]] " * 10_000 + "\n", encoding="utf-8")
    (notes / "escape.md").write_text(
        "[x](../../etc/passwd) [[../../../etc/passwd]] [y](/../../etc/shadow) "
        "[z](file:///etc/passwd)\n",
        encoding="utf-8",
    )
    (notes / "nul.md").write_bytes(b"text " * 3000 + b"[[b\x00c]] [[b]]\x00\n")
    (notes / "b.md").write_text("# B\n", encoding="utf-8")
    outside = tmp_path / "etc"
    outside.mkdir()
    (outside / "passwd.md").write_text("secret", encoding="utf-8")
    cli.ok("collection", "add", str(notes), "--name", "hostile")
    sync = cli.ok("update", "--json").json()
    assert sync["totalFailed"] == 0 and sync["totalAdded"] == 5
    escape = cli.ok("links", "hostile/escape.md", "--json").json()
    assert [k["resolution"] for k in escape["links"]] == [
        "unresolved",
        "unresolved",
        "unresolved",
        "external",
    ]
    assert cli.ok("links", "hostile/unclosed.md", "--json").json()["meta"]["totalLinks"] == 0
    many = cli.ok("backlinks", "hostile/b.md", "--json").json()
    assert many["meta"]["totalBacklinks"] >= 10_000
    shutil.rmtree(outside)
