"""Drive ``gno mcp`` (stdio) with the MCP inspector CLI, a second independent client.

    python scripts/inspector.py [--cache DIR]

Installs node 22 and ``@modelcontextprotocol/inspector@2.12.0`` with npm into ``--cache`` once,
builds a small index in a temporary directory, then in each protocol era (legacy, auto, modern)
lists tools, calls ``gno_search`` and ``gno_get``, and reads a document resource. Exits 1 on the
first unexpected answer. Run by the optional ``nox -s inspector`` session.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conformance import NODE_VERSION, node_package

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
ERAS = ("legacy", "auto", "modern")


def install(cache: Path) -> tuple[Path, Path]:
    """(node binary, inspector CLI entry), installed with npm into ``cache`` when missing."""
    npm = shutil.which("npm") or sys.exit("inspector: npm is required")
    node = cache / "node22" / "node_modules" / node_package() / "bin" / "node"
    pkg = cache / "inspector" / "node_modules" / "@modelcontextprotocol" / "inspector"
    for prefix, spec, target in (
        (cache / "node22", f"{node_package()}@{NODE_VERSION}", node),
        (cache / "inspector", INSPECTOR, pkg / "package.json"),
    ):
        if not target.exists():
            prefix.mkdir(parents=True, exist_ok=True)
            print(f"inspector: npm install {spec} (once, into {prefix})", flush=True)
            subprocess.run(
                [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", spec],
                check=True,
                stdout=subprocess.DEVNULL,
            )
    bins = json.loads((pkg / "package.json").read_text(encoding="utf-8"))["bin"]
    entry = bins["mcp-inspector"] if isinstance(bins, dict) else bins
    return node, pkg / entry


def build_index(home: Path, env: dict[str, str]) -> None:
    notes = home / "notes"
    notes.mkdir(parents=True)
    (notes / "alpha.md").write_text(
        "---\ntags: [demo]\n---\n# Alpha\n\nThe inspector reads this note about zebras.\n",
        encoding="utf-8",
    )
    (notes / "beta.md").write_text("# Beta\n\nNothing about striped horses.\n", encoding="utf-8")
    gno = [sys.executable, "-m", "gno_cli.main"]
    subprocess.run(
        [*gno, "collection", "add", str(notes), "--name", "notes", "-q"], env=env, check=True
    )
    subprocess.run([*gno, "update", "-q"], env=env, check=True)


def call(node: Path, entry: Path, era: str, env: dict[str, str], *args: str) -> Any:
    cmd = [str(node), str(entry), "--cli", "--protocol-era", era, "--format", "json", "-q"]
    # The inspector starts the server with a minimal environment: pass gno's directories on.
    for key in ("GNO_CONFIG_DIR", "GNO_DATA_DIR", "GNO_CACHE_DIR"):
        cmd += ["-e", f"{key}={env[key]}"]
    cmd += [sys.executable, "-m", "gno_cli.main", "mcp", *args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120, check=False)
    if done.returncode != 0:
        raise SystemExit(
            f"inspector ({era}) {' '.join(args)} exited {done.returncode}: {done.stderr}"
        )
    return json.loads(done.stdout)["result"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cache", default=str(Path(tempfile.gettempdir()) / "gno-inspector"))
    args = parser.parse_args()
    node, entry = install(Path(args.cache))
    with tempfile.TemporaryDirectory(prefix="gno-inspector-") as tmp:
        home = Path(tmp)
        env = {
            **os.environ,
            "HOME": str(home),  # the inspector writes ~/.mcp-inspector/
            "GNO_CONFIG_DIR": str(home / "config"),
            "GNO_DATA_DIR": str(home / "data"),
            "GNO_CACHE_DIR": str(home / "cache"),
            "PATH": f"{node.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        }
        build_index(home, env)
        for era in ERAS:
            tools = [
                t["name"] for t in call(node, entry, era, env, "--method", "tools/list")["tools"]
            ]
            assert "gno_search" in tools and "gno_get" in tools, tools
            found = call(
                node,
                entry,
                era,
                env,
                "--method",
                "tools/call",
                "--tool-name",
                "gno_search",
                "--tool-arg",
                "query=zebras",
            )
            hits = found["structuredContent"]["results"]
            assert hits and hits[0]["uri"] == "gno://notes/alpha.md", hits
            got = call(
                node,
                entry,
                era,
                env,
                "--method",
                "tools/call",
                "--tool-name",
                "gno_get",
                "--tool-args-json",
                json.dumps({"ref": hits[0]["uri"], "fromLine": hits[0]["line"], "lineCount": 1}),
            )
            assert "zebras" in got["structuredContent"]["content"], got
            res = call(
                node, entry, era, env, "--method", "resources/read", "--uri", "gno://notes/beta.md"
            )
            assert "striped horses" in res["contents"][0]["text"], res
            print(f"inspector {era}: {len(tools)} tools, gno_search/gno_get/resources/read ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
