"""The graph reads on a generated vault (``benchmarks/links.py``'s generator: 6 links per
note, a hub 2,500 notes link to): ``gno_graph`` (the whole graph and its report, through the
MCP tool's work: request, answer, text and JSON bytes; and ``Gno.graph``, the Python API), the
shortest path between random pairs of notes (``Gno.graph_path``), neighbours and a typed
traversal, each as p50 / p95 over ``--rounds`` calls, with the graph's size. Targets are printed
beside the measured figures, with a baseline from the same run (streaming every resolved link
once, ``LinkStore.edges``: what each of these reads cost when it walked the whole edge stream)
and the process CPU time beside the wall time (the machine is shared).

Usage: python benchmarks/graph.py [--notes 6500] [--rounds 20] [--work DIR]
Prints figures; asserts nothing. Data is generated under a temporary folder (or ``--work``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.links import PER_FOLDER, Timed, _add, _open, _timed, generate  # noqa: E402
from benchmarks.metrics import summary_ms  # noqa: E402

REPORT_TARGET_MS = 1000.0
PATH_TARGET_MS = 50.0


def _figure(label: str, timed: Timed, target_ms: float | None = None) -> None:
    wall, cpu = timed
    text = f"  {label}: {summary_ms(wall)}, CPU p50 {statistics.median(cpu) * 1000:.1f} ms"
    if target_ms is not None:
        met = statistics.median(wall) * 1000 <= target_ms
        text += f"; target p50 <= {target_ms:.0f} ms: {'met' if met else 'NOT met'}"
    print(text)


def _mcp_graph(gno, arguments: dict[str, int]) -> bytes:  # type: ignore[no-untyped-def]
    """What the ``gno_graph`` handler and its transport do, without the JSON-RPC framing: the
    request validated, the answer in its wire form, the text, and the frame's JSON bytes."""
    from gno_adapters.mcp.frames import json_bytes
    from gno_adapters.mcp.tools.common import tool_result
    from gno_adapters.mcp.tools.graph import render_graph
    from gno_core.contracts.requests import GraphRequest

    res = gno.graph_wire(GraphRequest.model_validate(arguments))
    return json_bytes(tool_result(render_graph(res.wire()), res))


def run(notes: int, rounds: int, work: Path) -> None:
    from gno_core.contracts.requests import (
        GraphNeighborsRequest,
        GraphPathRequest,
        GraphQueryRequest,
        GraphRequest,
    )

    folder = work / "vault"
    written = generate(folder, notes, links=True)
    gno = _open(work / "home")
    if not gno.list_collections().collections:  # a --work folder of an earlier run
        _add(gno, "gen", folder)
    started = time.perf_counter()
    gno.sync()
    print(
        f"generated {notes} notes with {written} links; sync {time.perf_counter() - started:.1f} s"
    )

    def ref(i: int) -> str:
        return f"gen/f{i // PER_FOLDER:03d}/note-{i}.md"

    graph = gno.graph(GraphRequest(limit=5000, edge_limit=50_000))
    meta = graph.meta
    print(
        f"  graph: {meta.total_nodes} nodes, {meta.total_edges} merged links "
        f"({sum(graph.report.edge_types.values())} resolved links), "
        f"{graph.report.total_communities} communities, truncated={meta.truncated}"
    )
    links = gno.handle.index.links
    times = _timed(rounds, lambda _: sum(1 for _ in links.edges()))
    _figure("baseline, every resolved link streamed once (LinkStore.edges)", times)
    largest = {"limit": 5000, "edgeLimit": 50_000}
    times = _timed(rounds, lambda _: _mcp_graph(gno, largest))
    _figure(
        "gno_graph, MCP tool's work (report, limit 5000 / 50000 edges)", times, REPORT_TARGET_MS
    )
    times = _timed(rounds, lambda _: _mcp_graph(gno, {}))
    _figure("gno_graph, MCP tool's work (defaults 2000 / 10000)", times, REPORT_TARGET_MS)
    times = _timed(rounds, lambda _: gno.graph(GraphRequest(limit=5000, edge_limit=50_000)))
    _figure("Gno.graph, Python API, models (limit 5000 / 50000 edges)", times)

    rng = random.Random(11)
    pairs = [(rng.randrange(notes), rng.randrange(notes)) for _ in range(rounds + 1)]
    hops: list[int] = []

    def path(i: int) -> None:
        a, b = pairs[i]
        res = gno.graph_path(
            GraphPathRequest.model_validate(
                {"from": ref(a), "to": ref(b), "limit": 5000, "edgeLimit": 50_000}
            )
        )
        hops.append(res.hops if res.hops is not None else -1)

    times = _timed(rounds, path)
    _figure(f"gno_graph_path (random pairs, hops {sorted(hops)})", times, PATH_TARGET_MS)
    times = _timed(
        rounds,
        lambda i: gno.graph_neighbors(GraphNeighborsRequest(ref=ref(pairs[i][0]))),
    )
    _figure("gno_graph_neighbors (random notes)", times)
    times = _timed(
        rounds, lambda _: gno.graph_neighbors(GraphNeighborsRequest(ref="gen/hub/hub.md"))
    )
    _figure("gno_graph_neighbors (the hub, 2,500 links in)", times)
    times = _timed(
        rounds,
        lambda i: gno.graph_query(GraphQueryRequest(ref=ref(pairs[i][0]), max_depth=3)),
    )
    _figure("gno_graph_query (depth 3, 100 nodes)", times)
    gno.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--notes", type=int, default=6500)
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    if args.work is not None:
        args.work.mkdir(parents=True, exist_ok=True)
        run(args.notes, args.rounds, args.work)
        return
    with tempfile.TemporaryDirectory(prefix="gno-graph-bench-") as tmp:
        run(args.notes, args.rounds, Path(tmp))


if __name__ == "__main__":
    main()
