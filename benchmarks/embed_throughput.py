"""Embedding figures for the default model: chunks/s at 256 tokens, load time, first query, RSS.

Usage: ``python benchmarks/embed_throughput.py [--precision int8|fp32] [--chunks 96]
[--rounds 3] [--model NAME_OR_DIR] [--against NAME_OR_DIR]``. ``--against`` times a second
model in the same process, rounds interleaved, so a busy machine slows both alike. Texts are SciFact abstracts (title + abstract) from the shared corpora, read in
place. The graph is first built into a fresh temporary cache (the one-time "cold" load); a
child process then loads it from that cache and measures load, queries, throughput and peak
RSS of normal operation. Each throughput figure is the best of ``--rounds`` timed rounds,
because other processes on a small machine only ever make a round slower. Never run by the
test suite.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gno_adapters.model_files import ModelStore
from gno_adapters.onnx import OnnxEmbedder
from gno_core.model_registry import ModelRole

SCIFACT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "beir-scifact"


def _texts(corpus: Path, limit: int) -> list[str]:
    out: list[str] = []
    with corpus.open(encoding="utf-8") as handle:
        for line in handle:
            doc = json.loads(line)
            out.append(f"{doc['title'].strip()}\n{doc['text'].strip()}")
            if len(out) >= limit:
                break
    return out


def _best_rate(embedder: OnnxEmbedder, texts: list[str], rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        start = time.perf_counter()
        embedder.embed_batch(texts)
        best = min(best, time.perf_counter() - start)
    return len(texts) / best


def _peak_rss_mb() -> float:
    # getrusage's ru_maxrss survives fork+exec, so a child would report its parent's graph
    # build; Linux's VmHWM belongs to this process image alone.
    status = Path("/proc/self/status")
    if status.is_file():
        for line in status.read_text(encoding="utf-8").splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _warm(args: argparse.Namespace) -> None:
    """Runs in the child: everything a normal process pays once the graph is cached."""
    location = ModelStore(args.warm).resolve(ModelRole.EMBED, args.model)
    embedder = OnnxEmbedder(location, precision=args.precision)
    start = time.perf_counter()
    embedder.load()
    load = time.perf_counter() - start

    start = time.perf_counter()
    embedder.embed_batch(["how do vaccines train the immune system"])
    first_query_ms = (time.perf_counter() - start) * 1000
    later_ms = []
    for q in ("statins and heart disease", "DNA repair in yeast", "obesity risk factors"):
        start = time.perf_counter()
        embedder.embed_batch([q])
        later_ms.append((time.perf_counter() - start) * 1000)

    from gno_adapters.onnx.tokenize import load_tokenizer

    tokenizer = load_tokenizer(location.tokenizer, 1 << 20, model_id=location.model_id)
    pool = _texts(args.corpus, 4 * args.chunks + 200)
    counts = [len(ids) for ids in tokenizer.encode_batch(pool)]
    full = [t for t, n in zip(pool, counts, strict=True) if n >= 256][: args.chunks]
    mixed = pool[: args.chunks]
    mixed_tokens = sum(min(n, 256) for n in counts[: args.chunks]) / len(mixed)
    full_rate = _best_rate(embedder, full, args.rounds)
    mixed_rate = _best_rate(embedder, mixed, args.rounds)
    peak_mb = _peak_rss_mb()

    print(f"model                 {embedder.model_id} ({location.origin})")
    print(f"load, cached graph    {load:.2f} s")
    print(f"first query           {first_query_ms:.1f} ms (next: {min(later_ms):.1f} ms)")
    print(f"256-token chunks      {full_rate:.1f} chunks/s ({len(full)}, best of {args.rounds})")
    print(f"SciFact abstracts     {mixed_rate:.1f} chunks/s (mean {mixed_tokens:.0f} tokens)")
    print(f"peak RSS              {peak_mb:.0f} MB")
    if args.against:
        _interleaved(embedder, args, full)


def _interleaved(embedder: OnnxEmbedder, args: argparse.Namespace, texts: list[str]) -> None:
    """256-token chunks/s of this model and ``--against``, one round of each in turn."""
    other = OnnxEmbedder(
        ModelStore(args.warm).resolve(ModelRole.EMBED, args.against), precision=args.precision
    )
    other.load()
    rates: dict[str, list[float]] = {embedder.model_id: [], other.model_id: []}
    for _ in range(args.rounds):
        for model in (other, embedder):
            start = time.perf_counter()
            model.embed_batch(texts)
            rates[model.model_id].append(len(texts) / (time.perf_counter() - start))
    for model_id, values in rates.items():
        ordered = sorted(values)
        print(
            f"interleaved           {model_id}: best {ordered[-1]:.1f}, "
            f"median {ordered[len(ordered) // 2]:.1f} chunks/s ({len(values)} rounds)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--precision", choices=("fp32", "int8"), default="int8")
    parser.add_argument("--chunks", type=int, default=96, help="256-token chunks per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=SCIFACT / "corpus.jsonl")
    parser.add_argument("--model", help="registry name or model directory (default: bundled)")
    parser.add_argument("--against", help="a second model to time, rounds interleaved")
    parser.add_argument("--warm", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if not args.corpus.is_file():
        print(f"corpus not found: {args.corpus}", file=sys.stderr)
        return 2
    if args.warm is not None:
        _warm(args)
        return 0

    with tempfile.TemporaryDirectory(prefix="gno-embed-bench-") as tmp:
        models = Path(tmp) / "models"
        store = ModelStore(models)
        cold = OnnxEmbedder(store.resolve(ModelRole.EMBED, args.model), precision=args.precision)
        start = time.perf_counter()
        cold.load()
        print(f"load, cold (build)    {time.perf_counter() - start:.2f} s")
        del cold
        child = [sys.executable, __file__, "--warm", str(models), "--precision", args.precision]
        child += ["--chunks", str(args.chunks), "--rounds", str(args.rounds)]
        child += ["--corpus", str(args.corpus)]
        child += ["--model", args.model] if args.model else []
        if args.against:  # built here too, so the child times only cached loads
            OnnxEmbedder(
                store.resolve(ModelRole.EMBED, args.against), precision=args.precision
            ).load()
            child += ["--against", args.against]
        return subprocess.run(child, check=False).returncode


if __name__ == "__main__":
    raise SystemExit(main())
