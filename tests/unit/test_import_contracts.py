"""Every import-linter contract in ``pyproject.toml`` fails on a deliberate violation.

The three packages and ``pyproject.toml`` are copied to a temporary folder, one offending
module per contract is added there, and ``lint-imports`` runs on the copy: each contract must
be reported broken, naming the injected import (so it is that import, not some other drift,
that breaks it). ``lint-imports`` on the real tree, clean, is the CI gate.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("gno_core", "gno_adapters", "gno_cli")
LINT = Path(sys.executable).with_name("lint-imports")

#: contract name -> (module added to the copy, the import it makes, what the report names).
VIOLATIONS = {
    "Layers: cli above adapters above core": (
        "gno_core/_violation_layers.py",
        "import gno_adapters.files",
        "gno_core._violation_layers -> gno_adapters.files",
    ),
    "Core is free of I/O and framework packages": (
        "gno_core/text/_violation_io.py",
        "import pathlib",
        "gno_core.text._violation_io -> pathlib",
    ),
    "Adapters are independent of each other (wiring is bootstrap's)": (
        "gno_adapters/files/_violation_independence.py",
        "import gno_adapters.sqlite",
        "gno_adapters.files._violation_independence -> gno_adapters.sqlite",
    ),
    "Storage, model and file adapters and the MCP engine import no HTTP or REST transport": (
        "gno_adapters/mcp/_violation_http.py",
        "import gno_adapters.http.settings",
        "gno_adapters.mcp._violation_http -> gno_adapters.http.settings",
    ),
    "Transports import no bootstrap, storage, model runtime or fakes": (
        "gno_adapters/rest/_violation_bootstrap.py",
        "import gno_adapters.bootstrap",
        "gno_adapters.rest._violation_bootstrap -> gno_adapters.bootstrap",
    ),
    "Bootstrap only wires adapter sets: no transport, no process it is run by": (
        "gno_adapters/bootstrap/_violation_process.py",
        "import gno_adapters.resident.gateway",
        "gno_adapters.bootstrap._violation_process -> gno_adapters.resident.gateway",
    ),
    "The resident server, the embedding child and client setup import no bootstrap": (
        "gno_adapters/resident/_violation_bootstrap.py",
        "import gno_adapters.bootstrap.local",
        "gno_adapters.resident._violation_bootstrap -> gno_adapters.bootstrap.local",
    ),
    "The CLI reaches adapters only through bootstrap, the process packages and the stdio entry point": (
        "gno_cli/_violation_storage.py",
        "import gno_adapters.sqlite",
        "gno_cli._violation_storage -> gno_adapters.sqlite",
    ),
    "Shared leaf modules import no adapter": (
        "gno_adapters/clock.py",
        "import gno_adapters.inmemory",
        "gno_adapters.clock -> gno_adapters.inmemory",
    ),
    "Engine adapters import from gno_core only ports and the floor, no use case": (
        "gno_adapters/sqlite/_violation_use_case.py",
        "import gno_core.retrieval.query",
        "gno_adapters.sqlite._violation_use_case -> gno_core.retrieval.query",
    ),
    "Transports import no use case beyond the shared renderers and the job manager": (
        "gno_adapters/rest/_violation_use_case.py",
        "import gno_core.retrieval.modes",
        "gno_adapters.rest._violation_use_case -> gno_core.retrieval.modes",
    ),
    "Core: facade above use cases above ports above domain": (
        "gno_core/ports/_violation_layers.py",
        "import gno_core.retrieval",
        "gno_core.ports._violation_layers -> gno_core.retrieval",
    ),
}


#: Further violations of one contract, injected in the same run: the use cases are ordered layers
#: (an arrow back up breaks them) and the use cases of one layer are independent of each other.
MORE_VIOLATIONS = (
    (
        "Core: facade above use cases above ports above domain",
        "gno_core/retrieval/_violation_up.py",
        "import gno_core.documents",
        "gno_core.retrieval._violation_up -> gno_core.documents",
    ),
    (
        "Core: facade above use cases above ports above domain",
        "gno_core/evidence/_violation_sibling.py",
        "import gno_core.links.reads",
        "gno_core.evidence._violation_sibling -> gno_core.links.reads",
    ),
    (
        "Core: facade above use cases above ports above domain",
        "gno_core/indexing/_violation_up.py",
        "import gno_core.memory.remember",
        "gno_core.indexing._violation_up -> gno_core.memory.remember",
    ),
)


def test_every_contract_has_a_violation_here() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    names = [c["name"] for c in config["tool"]["importlinter"]["contracts"]]
    assert sorted(names) == sorted(VIOLATIONS)


#: What an engine adapter may import from gno_core (the ports and the floor below them).
ADAPTER_FLOOR = frozenset(
    {
        "ports",
        "domain",
        "read_values",
        "facts",
        "fact_files",
        "model_registry",
        "metadata",
        "journal",
        "egress",
        "traces",  # its values; its use case (traces.capability) is forbidden below
        "contracts",
        "errors",
        "identity",
        "text",
        "sources",
        "config",
        "defaults",
        "surface",
        "version",
    }
)
FLOOR_CONTRACT = "Engine adapters import from gno_core only ports and the floor, no use case"


def test_every_core_module_is_floor_or_forbidden_to_engine_adapters() -> None:
    """A new top-level module of gno_core must be placed: on the adapters' floor (this list) or
    among the modules the floor contract forbids them (pyproject), never silently in neither."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    (contract,) = [
        c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == FLOOR_CONTRACT
    ]
    named = {name.removeprefix("gno_core.") for name in contract["forbidden_modules"]}
    # A dotted name forbids the use case inside a floor package (``traces.capability``).
    forbidden = {name for name in named if "." not in name}
    assert all(name.split(".")[0] in ADAPTER_FLOOR for name in named - forbidden)
    modules = {
        path.stem if path.suffix == ".py" else path.name
        for path in (ROOT / "gno_core").iterdir()
        if (path.suffix == ".py" or (path / "__init__.py").exists()) and path.stem != "__init__"
    }
    assert not forbidden & ADAPTER_FLOOR
    assert modules == forbidden | ADAPTER_FLOOR


@pytest.mark.skipif(not LINT.exists(), reason="lint-imports is not installed beside python")
def test_each_contract_breaks_on_its_violation(tmp_path: Path) -> None:
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    injected = [(m, st) for m, st, _ in VIOLATIONS.values()]
    injected += [(m, st) for _, m, st, _ in MORE_VIOLATIONS]
    for module, statement in injected:
        path = tmp_path / module
        before = path.read_text(encoding="utf-8") if path.exists() else ""
        path.write_text(f"{before}\n{statement}  # noqa\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        [str(LINT), "--no-cache", str(tmp_path / "pyproject.toml")],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = " ".join(done.stdout.split())  # long names wrap in the summary
    assert done.returncode == 1, done.stdout + done.stderr
    for name, (_, _, edge) in VIOLATIONS.items():
        assert f"{name} BROKEN" in report, name
        assert edge in report, edge
    for name, _, _, edge in MORE_VIOLATIONS:
        assert edge in report, (name, edge)
    assert "0 kept" in report
