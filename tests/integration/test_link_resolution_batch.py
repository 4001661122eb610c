"""The batch resolution of a sync (``resolve_pending``: plain rows, one name map per batch)
gives every link of the real vaults (and of a small vault that takes every rule) the targets,
confidences and methods the per-link rules (``resolve_link`` over the port's ``candidates``)
give it."""

from __future__ import annotations

from pathlib import Path

import gno_core
from gno_core.config import CollectionConfig
from gno_core.links.resolve import resolve_link, resolve_pending


def test_batch_resolution_equals_the_per_link_rules_on_the_real_vaults(
    tmp_path: Path, shared_data: Path
) -> None:
    rules = tmp_path / "rules"
    (rules / "sub").mkdir(parents=True)
    for folder in ("x", "y"):
        (rules / folder).mkdir()
        (rules / folder / "index.md").write_text("# Index\n", "utf-8")
    (rules / "b.md").write_text("# B\n", "utf-8")
    (rules / "sub" / "deep.md").write_text(
        "---\ntitle: My Title\naliases: [an alias]\n---\nDeep.\n", "utf-8"
    )
    (rules / "a.md").write_text(
        "[[b]] [[B]] [[sub.deep]] [[SUB/DEEP]] [[My Title]] [[an alias]] [[index]] "
        "[[x|b]] [[label|sub.deep]] [[dendron:b]] [b](b.md) [d](sub/deep.md#top) [[ghost]]\n",
        "utf-8",
    )
    env = {k: str(tmp_path / k) for k in ("GNO_CONFIG_DIR", "GNO_DATA_DIR", "GNO_CACHE_DIR")}
    gno = gno_core.open(env=env)
    try:
        for name, path in (
            ("dendron", shared_data / "dendron-site" / "vault"),
            ("foam", shared_data / "foam-docs"),
            ("rules", rules),
        ):
            gno.add_collection(CollectionConfig(name=name, path=str(path)))
        gno.sync()
        index = gno.handle.index
        # Renaming a collection sends every link of the index back to resolution.
        index.ledger.rename_collection("foam", "foam2")
        pending = index.links.pending(1_000_000)
        assert len(pending) > 3000
        expected = {}
        for p in pending:
            scope = p.link.target_collection or p.source.collection
            hits = index.links.candidates(scope, p.link.keys)
            expected[(p.source.collection, p.source.rel_path, p.link.seq)] = [
                (t.document.collection, t.document.rel_path, t.confidence, t.method)
                for t in resolve_link(p.link, p.source, hits)
            ]
        assert resolve_pending(index.links) == len(pending)
        actual = {}
        for collection, rel_path in {key[:2] for key in expected}:
            for record in index.links.outgoing(collection, rel_path):
                if (collection, rel_path, record.link.seq) in expected:
                    actual[(collection, rel_path, record.link.seq)] = [
                        (t.document.collection, t.document.rel_path, t.confidence, t.method)
                        for t in record.targets
                    ]
        assert actual == expected
        methods = {t[3] for targets in actual.values() for t in targets}
        assert {"path", "name", "path-nocase", "dendron", "title", "alias"} <= methods, methods
        assert {"path+label-first", "dendron+label-first"} <= methods, methods
        assert any(len(targets) > 1 for targets in actual.values())
        assert sum(1 for targets in actual.values() if targets) > 3000
    finally:
        gno.close()
