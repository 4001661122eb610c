"""The single entry point for checks: ``nox`` runs lint, typecheck, imports, tests, the MCP
conformance suite and the packaged gateway conformance suite."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import nox

nox.options.sessions = ["lint", "typecheck", "imports", "tests", "conformance", "package"]
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True

PYTHON = "3.11"
ROOT = Path(__file__).resolve().parent
#: The test-only requirements of ``tests/package`` (the wheel brings everything else).
PACKAGE_TEST_DEPS = ("pytest>=8", "mcp==2.3.0")


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """ruff: lint and formatting."""
    session.install("ruff>=0.6")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    """mypy --strict on the core and the adapters."""
    session.install("-e", ".[test]", "mypy>=1.11")
    session.run("mypy", "gno_core", "gno_adapters")


@nox.session(python=PYTHON)
def imports(session: nox.Session) -> None:
    """import-linter: gno_cli > gno_adapters > gno_core, and a core free of I/O frameworks; then
    each contract is shown to fail on a deliberate violation (the test needs lint-imports beside
    its python, which only this session has)."""
    session.install("-e", ".[test]", "import-linter>=2.1")
    session.run("lint-imports")
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests/unit/test_import_contracts.py")


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """The whole test suite (unit, contract, wire, integration). The Debian packages the tests
    drive for real (nginx) are installed first by ``scripts/test_packages.sh``."""
    session.run("bash", "scripts/test_packages.sh", external=True)
    session.install("-e", ".[test]")
    args = session.posargs or ["-n", "2", "-q"]
    session.run("pytest", *args)


@nox.session(python=PYTHON)
def conformance(session: nox.Session) -> None:
    """The official MCP conformance suite (node 22 + the suite from npm, cached under .nox/)
    against a live ``gno serve``, for both protocol revisions."""
    session.install("-e", ".")
    cache = Path(session.cache_dir) / "conformance"
    session.run("python", "scripts/conformance.py", "--cache", str(cache), *session.posargs)


@nox.session(python=PYTHON, default=False)
def fuzz(session: nox.Session) -> None:
    """Optional: the fuzz suites with many more examples than CI runs (``HYPOTHESIS_PROFILE=long``;
    pass ``-- --hypothesis-seed=N`` to replay a seed)."""
    session.install("-e", ".[test]")
    session.env["HYPOTHESIS_PROFILE"] = "long"
    session.run("pytest", "-q", "-p", "no:cacheprovider", "tests/fuzz", *session.posargs)


@nox.session(python=PYTHON, default=False)
def inspector(session: nox.Session) -> None:
    """Optional: the MCP inspector CLI (node 22 from npm) drives ``gno mcp`` over stdio in the
    legacy, auto and modern eras."""
    session.install("-e", ".")
    cache = Path(session.cache_dir) / "conformance"
    session.run("python", "scripts/inspector.py", "--cache", str(cache))


@nox.session(python=PYTHON)
def package(session: nox.Session) -> None:
    """Packaged gateway conformance: build the sdist and, from it, the wheel; install the wheel
    (not editable) into this session's venv; run ``tests/package`` from a scratch directory with
    the source tree off ``sys.path``, against the installed ``gno``, ``gno-mcp`` and
    ``gno-daemon`` (docs/reference/testing.md)."""
    tmp = Path(session.create_tmp()).resolve()
    dist = tmp / "dist"
    shutil.rmtree(dist, ignore_errors=True)
    session.install("build>=1.2")
    session.run("python", "-m", "build", "--outdir", str(dist), str(ROOT), silent=True)
    wheels = sorted(dist.glob("gno-*.whl"))
    assert len(wheels) == 1, wheels
    session.install(str(wheels[0]), *PACKAGE_TEST_DEPS)
    # A reused venv may hold an older build of the same version: this one replaces it.
    session.install("--force-reinstall", "--no-deps", str(wheels[0]))
    # The tests run from a scratch folder outside the checkout: nothing importable beside them.
    scratch = Path(tempfile.mkdtemp(prefix="gno-package-"))
    session.chdir(scratch)
    tests = ROOT / "tests" / "package"
    try:
        session.run(
            "pytest",
            "-c",
            str(tests / "pytest.ini"),
            "--rootdir",
            str(scratch),
            "-p",
            "no:cacheprovider",
            "-q",
            str(tests),
            *session.posargs,
            env={
                "GNO_PACKAGE_VENV": session.virtualenv.location,
                "GNO_SOURCE_TREE": str(ROOT),
                "PYTHONPATH": None,
                "PYTHONHOME": None,
            },
        )
    finally:
        session.chdir(ROOT)
        shutil.rmtree(scratch, ignore_errors=True)
