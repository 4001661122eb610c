"""The code under test is the installed wheel, whole: imported from the package venv (never the
source tree, never an editable install), its three console scripts, every runtime file the
source tree ships (model files, ``py.typed``) and schemas equal to the committed contracts."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

from pkg_support import BIN, CONTRACTS, SOURCE, VENV, gno

PACKAGES = ("gno_core", "gno_adapters", "gno_cli")
SITE = Path(sysconfig.get_paths()["purelib"]).resolve()


def test_the_code_under_test_is_the_installed_wheel() -> None:
    import gno_adapters
    import gno_cli
    import gno_core

    assert Path(sys.prefix) == VENV
    for module in (gno_core, gno_adapters, gno_cli):
        where = Path(module.__file__ or "").resolve()
        assert where.is_relative_to(SITE), where
        assert not where.is_relative_to(SOURCE / module.__name__), where
    assert not Path.cwd().resolve().is_relative_to(SOURCE)
    dist = metadata.distribution("gno")
    direct = dist.read_text("direct_url.json")
    if direct is not None:  # pip records how it installed: never an editable (source) install
        assert not json.loads(direct).get("dir_info", {}).get("editable", False), direct


def test_the_console_scripts_run_the_installed_code(gno_env: dict[str, str]) -> None:
    dist = metadata.distribution("gno")
    scripts = {ep.name: ep.value for ep in dist.entry_points if ep.group == "console_scripts"}
    assert scripts == {
        "gno": "gno_cli.main:main",
        "gno-mcp": "gno_cli.main:mcp_main",
        "gno-daemon": "gno_cli.main:daemon_main",
    }
    for name in scripts:
        script = BIN / name
        assert script.is_file(), script
        shebang = script.read_text().splitlines()[0]
        assert shebang == f"#!{VENV / 'bin' / 'python'}", shebang
    version = gno(gno_env, "--version")
    assert version.returncode == 0 and version.stdout.strip() == f"gno {dist.version}"
    where = gno(gno_env, "-c", "import gno_core; print(gno_core.__file__)", exe="python")
    assert Path(where.stdout.strip()).resolve().is_relative_to(SITE), where
    assert gno(gno_env, "--help", exe="gno-mcp").returncode == 0
    idle = gno(gno_env, "--status", exe="gno-daemon")
    assert idle.returncode == 3 and "gno daemon is not running" in idle.stdout


def source_files() -> set[str]:
    """The runtime files of the source tree: the files git tracks in its packages (in a copy
    without git: every file there but caches and bytecode)."""
    tracked = subprocess.run(
        ["git", "-C", str(SOURCE), "ls-files", "-z", "--", *PACKAGES],
        check=False,
        capture_output=True,
        text=True,
    )
    if tracked.returncode == 0 and tracked.stdout:
        return set(filter(None, tracked.stdout.split("\0")))
    found: set[str] = set()
    for package in PACKAGES:
        for path in (SOURCE / package).rglob("*"):
            if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc":
                found.add(path.relative_to(SOURCE).as_posix())
    return found


def test_every_runtime_file_of_the_source_tree_is_installed() -> None:
    """Package data included: the bundled model's vocabulary and config, licences, ``py.typed``
    (a file added to a package but missed by ``[tool.setuptools.package-data]`` fails here)."""
    dist = metadata.distribution("gno")
    installed = {
        str(f) for f in dist.files or () if str(f).split("/")[0] in PACKAGES and f.suffix != ".pyc"
    }
    wanted = source_files()
    assert wanted - installed == set(), "files the wheel leaves out"
    assert installed - wanted == set(), "files the wheel has that the source tree does not"
    for name in sorted(installed):
        assert (SITE / name).is_file(), name
    assert "gno_adapters/onnx/minilm_l6/vocab.txt" in installed


def test_the_installed_schemas_are_the_committed_contracts() -> None:
    from gno_core.contracts.schemas import all_schema_files

    generated = all_schema_files()
    committed = {p.name: p.read_text(encoding="utf-8") for p in CONTRACTS.glob("*.schema.json")}
    assert sorted(generated) == sorted(committed)
    for name, text in generated.items():
        assert text == committed[name], name


def test_the_bundled_model_embeds_from_the_installed_package(gno_env: dict[str, str]) -> None:
    models = json.loads(gno(gno_env, "models", "list", "--json").stdout)
    text = json.dumps(models)
    assert "all-MiniLM-L6-v2" in text, text[:500]
    found = gno(gno_env, "vsearch", "daily notes", "--json", "-n", "3")
    assert found.returncode == 0, found.stderr
    assert json.loads(found.stdout)["results"], found.stdout
