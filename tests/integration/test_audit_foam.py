"""On a copy of foam-docs with links broken on purpose, every broken link an independent
resolver finds (``benchmarks/link_oracle.py``: its own scanner and resolution, no gno code)
is a ``links.local-targets`` finding, and every finding is one of them: 0 missed, 0 invented."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import gno_core
from benchmarks.corpora import SHARED
from benchmarks.link_oracle import break_links, broken
from gno_core.config import CollectionConfig
from gno_core.contracts.integrity_requests import AuditRequest

FOAM = SHARED / "foam-docs"


@pytest.mark.skipif(not FOAM.is_dir(), reason="foam-docs is not in ../shared/data")
def test_local_targets_match_an_independent_resolver(tmp_path: Path) -> None:
    vault = tmp_path / "foam"
    shutil.copytree(FOAM, vault)
    made = break_links(vault, 25, seed=25)
    assert len(made) == 25
    # gno reports the target without its #anchor (the anchor is its own evidence item)
    oracle = {(rel, line, target.split("#")[0]) for rel, line, _, target in broken(vault)}
    assert {(rel, line, t.split("#")[0]) for rel, line, _, t in made} <= oracle
    home = tmp_path / "home"
    env = {k: str(home / v) for k, v in (("GNO_CONFIG_DIR", "c"), ("GNO_DATA_DIR", "d"))}
    with gno_core.open(env={**env, "GNO_CACHE_DIR": str(home / "k")}) as gno:
        gno.add_collection(CollectionConfig(name="foam", path=str(vault)))
        gno.sync()
        report = gno.audit(AuditRequest(category="links", max_findings=1000))
    found = {
        (
            f.subject.rel_path,
            f.location.line if f.location else 0,
            next(e.value for e in f.evidence if e.kind == "targetRef"),
        )
        for f in report.findings
        if f.rule == "links.local-targets"
    }
    assert sorted(oracle - found) == []  # missed
    assert sorted(found - oracle) == []  # invented
    assert len(found) == len(oracle) == 30
