"""The Web UI in a real browser: DOMContentLoaded of the dashboard, the search page and a
7,000-line note, beside the REST call that returns the same data, in the same run.

    python benchmarks/webui.py [--corpus tldr|foam|dendron] [--runs 30] [--home DIR]

The tldr pages (38,405, extracted to a temp dir), foam-docs or dendron-site are indexed into a temporary
index (keyword only: no embedding), together with one generated 7,000-line Markdown note, and
served by ``gno serve --port 0``. Debian's Chromium (``/usr/bin/chromium``, driven by Playwright)
opens each page ``--runs`` times in one tab after a warm-up; the figure is the navigation
timing's ``domContentLoadedEventEnd`` (request sent to DOM ready: server time, transfer and
parsing); for the dashboard also the time until its script has filled in the counts from
``/api/status`` ("dash full"); for the graph page, the time from the navigation's start to the first frame drawn on
the canvas (after ``/api/graph`` is fetched and laid out once). The REST figures are
``GET /api/status``, ``POST /api/search``, ``GET /api/doc`` and ``GET /api/graph`` over one
keep-alive httpx client. ``--home DIR`` keeps the index there and reuses it. Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import SHARED, extract_tldr
from benchmarks.metrics import percentile

GNO = [sys.executable, "-m", "gno_cli.main"]
QUERIES = {
    "tldr": ["extract tar archive", "git commit", "list files", "docker container", "ssh key"],
    "foam": ["daily notes", "graph view", "wikilinks", "templates", "publishing"],
    "dendron": ["schema", "vault", "publishing", "lookup", "backlinks"],
}
#: Milliseconds from the navigation's start to the dashboard's counts filled in from
#: ``/api/status`` (``dashboard.js``).
FILLED = "() => Number(document.getElementById('status-panel').dataset.loaded)"
#: Milliseconds from the navigation's start to the graph's first frame (``graph.js``).
FIRST_FRAME = "() => Number(document.getElementById('graph').dataset.firstFrame)"
BIG_LINES = 7000
RAISED = "gateway:\n  rateLimitPerMinute: 100000000\n  maxConnectionsPerPeer: 0\n"
DCL = (
    "() => { const n = performance.getEntriesByType('navigation')[0];"
    " return n.domContentLoadedEventEnd - n.startTime; }"
)


def gno(env: dict[str, str], *argv: str) -> str:
    done = subprocess.run([*GNO, *argv], env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"gno {' '.join(argv)} failed: {done.stderr}")
    return done.stdout


def big_note(folder: Path) -> None:
    """A long note of headings, paragraphs, lists, code and links, 7,000 lines."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["---", "title: Big note", "tags: [bench]", "---", "# Big note", ""]
    section = 0
    while len(lines) < BIG_LINES:
        section += 1
        lines += [
            f"## Section {section}",
            "",
            f"Paragraph {section} with **bold**, `code` and a [link](https://example.org/{section}).",
            "A second line of the same paragraph.",
            "",
            "- item one",
            "- item two [[missing-note]]",
            "",
            "```python",
            f"print({section})",
            "```",
            "",
        ]
    (folder / "big.md").write_text("\n".join(lines[:BIG_LINES]) + "\n", encoding="utf-8")


def build(env: dict[str, str], home: Path, corpus: str) -> None:
    if corpus == "tldr":
        folder = extract_tldr(home / "tldr")
    else:
        folder = SHARED / ("foam-docs" if corpus == "foam" else "dendron-site")
    big_note(home / "big")
    gno(env, "collection", "add", str(folder), "--name", corpus)
    gno(env, "collection", "add", str(home / "big"), "--name", "big")
    started = time.perf_counter()
    gno(env, "update")
    print(f"index: {corpus} + big in {time.perf_counter() - started:.1f} s")


def summary(values: list[float]) -> str:
    return (
        f"p50 {statistics.median(values):.1f} ms, p95 {percentile(values, 95):.1f} ms, "
        f"n={len(values)}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", choices=("tldr", "foam", "dendron"), default="tldr")
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--home", type=Path, help="keep the index here and reuse it when it is already there"
    )
    args = parser.parse_args()

    import httpx
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="gno-webui-bench-") as tmp:
        home = args.home or Path(tmp)
        reuse = (home / "data").is_dir()
        env = {
            **os.environ,
            "GNO_CONFIG_DIR": str(home / "config"),
            "GNO_DATA_DIR": str(home / "data"),
            "GNO_CACHE_DIR": str(home / "cache"),
            "GNO_EMBED_MODEL": "none",
        }
        env.pop("GNO_MCP_ENABLE_WRITE", None)
        if not reuse:
            build(env, home, args.corpus)
        # One browser is one socket peer: lift the per-peer rate cap (120 requests a minute by
        # default) so that the figures measure the server, not the cap.
        config = home / "config" / "index.yml"
        kept = config.read_text(encoding="utf-8").split("gateway:")[0]
        config.write_text(kept + RAISED, encoding="utf-8")
        status = json.loads(gno(env, "serve", "--port", "0", "--detach", "--json"))
        base = f"http://127.0.0.1:{status['port']}"
        try:
            rest = measure_rest(httpx.Client(base_url=base, timeout=120), args)
            with sync_playwright() as driver:
                browser = driver.chromium.launch(
                    executable_path=os.environ.get("GNO_CHROMIUM", "/usr/bin/chromium"),
                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
                )
                pages = measure_pages(browser, base, args)
                browser.close()
        finally:
            gno(env, "serve", "--stop")
        docs = json.loads(gno(env, "status", "--json"))["totalDocuments"]
        print(f"documents: {docs}; Chromium, DOMContentLoaded, after one warm-up each:")
        for name, values in pages.items():
            print(f"  page {name:<10} {summary(values)}")
        for name, values in rest.items():
            print(f"  REST {name:<10} {summary(values)}")


def measure_pages(browser: object, base: str, args: argparse.Namespace) -> dict[str, list[float]]:
    page = browser.new_page()  # type: ignore[attr-defined]
    queries = QUERIES[args.corpus]
    targets = {
        "search": [f"/search?q={quote(q)}" for q in queries],
        "doc 7000": ["/doc?ref=gno://big/big.md&line=3500"],
    }
    found: dict[str, list[float]] = {}
    # The dashboard: each visit waits for its own /api/status before the next one, so that no
    # earlier visit's status call still holds a server worker when the page is asked for.
    filled: list[float] = []
    ready: list[float] = []
    for run in range(args.runs + 1):
        page.goto(base + "/")
        page.wait_for_function(
            "() => document.getElementById('status-panel').dataset.loaded", timeout=60_000
        )
        if run:  # the first is the warm-up
            ready.append(float(page.evaluate(DCL)))
            filled.append(float(page.evaluate(FILLED)))
    found["dashboard"] = ready
    found["dash full"] = filled
    for name, paths in targets.items():
        page.goto(base + paths[0])  # warm-up
        values = []
        for i in range(args.runs):
            page.goto(base + paths[i % len(paths)])
            values.append(float(page.evaluate(DCL)))
        found[name] = values
    if args.corpus == "tldr":
        return found  # tldr pages link to nothing: no graph to draw
    page.goto(f"{base}/graph?collection={args.corpus}")  # warm-up
    values = []
    for _ in range(max(3, args.runs // 5)):
        page.goto(f"{base}/graph?collection={args.corpus}")
        page.wait_for_function(
            "() => document.getElementById('graph').dataset.firstFrame", timeout=60_000
        )
        values.append(float(page.evaluate(FIRST_FRAME)))
    found["graph 1st"] = values
    return found


def measure_rest(client: object, args: argparse.Namespace) -> dict[str, list[float]]:
    queries = QUERIES[args.corpus]
    calls = {
        "status": lambda i: client.get("/api/status"),  # type: ignore[attr-defined]
        "search": lambda i: client.post(  # type: ignore[attr-defined]
            "/api/search", json={"query": queries[i % len(queries)], "limit": 20}
        ),
        "doc 7000": lambda i: client.get("/api/doc", params={"ref": "gno://big/big.md"}),  # type: ignore[attr-defined]
    }
    if args.corpus != "tldr":
        calls["graph"] = lambda i: client.get(  # type: ignore[attr-defined]
            "/api/graph", params={"collection": args.corpus, "limit": 2000, "edgeLimit": 20000}
        )
    found: dict[str, list[float]] = {}
    for name, call in calls.items():
        call(0).raise_for_status()  # warm-up
        values = []
        for i in range(args.runs):
            started = time.perf_counter()
            call(i).raise_for_status()
            values.append((time.perf_counter() - started) * 1000)
        found[name] = values
    return found


if __name__ == "__main__":
    main()
