"""Converter throughput: ``python -m benchmarks.converters [--files 200] [--pages 500]``.

Builds a folder of mixed office files (PDF, DOCX, XLSX, PPTX, HTML, ODT; generated, so the run
needs no corpus), indexes it with ``gno update`` through the real facade (sandboxed converter
process, SQLite), and prints files/s and the peak RSS of the index process and of the converter
process. Then indexes one generated PDF of ``--pages`` pages on its own (target: 500 pages under
30 s on 2 cores) and checks a sentence from its last page is found at the right line.
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from tests import docgen


def _words(seed: int, count: int) -> str:
    vocabulary = (
        "budget roadmap quarterly launch review metric hiring design audit vendor invoice "
        "latency storage backup privacy migration kernel cluster release incident"
    ).split()
    return " ".join(vocabulary[(seed * 7 + i * 3) % len(vocabulary)] for i in range(count))


def _xlsx(i: int) -> bytes:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["id", "item", "amount"])
    for row in range(40):
        sheet.append([row, _words(i + row, 3), row * 17 % 101])
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _pptx(i: int) -> bytes:
    from pptx import Presentation

    deck = Presentation()
    for n in range(6):
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = f"Slide {n} {_words(i + n, 2)}"
        slide.placeholders[1].text = _words(i * n + 1, 25)
    buf = io.BytesIO()
    deck.save(buf)
    return buf.getvalue()


def build_folder(root: Path, files: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    makers = {
        ".pdf": lambda i: docgen.pdf(
            [[_words(i + p + n, 12) for n in range(40)] for p in range(8)]
        ),
        ".docx": lambda i: docgen.docx(
            [f"Report {i}", *(_words(i + n, 30) for n in range(30))],
            [["k", "v"], *([_words(i + r, 2), str(r)] for r in range(20))],
        ),
        ".xlsx": _xlsx,
        ".pptx": _pptx,
        ".html": lambda i: (
            f"<html><head><title>Page {i}</title></head><body><h1>Page {i}</h1>"
            + "".join(f"<p>{_words(i + n, 40)}</p>" for n in range(40))
            + "<table>"
            + "".join(f"<tr><td>{_words(r, 2)}</td><td>{r}</td></tr>" for r in range(20))
            + "</table></body></html>"
        ).encode(),
        ".odt": lambda i: docgen.odt(f"Notes {i}", [_words(i + n, 30) for n in range(30)]),
    }
    exts = list(makers)
    for i in range(files):
        ext = exts[i % len(exts)]
        (root / f"file{i:04d}{ext}").write_bytes(makers[ext](i))
        counts[ext] = counts.get(ext, 0) + 1
    return counts


def _index(root: Path, home: Path, name: str) -> tuple[float, object]:
    os.environ["GNO_CONFIG_DIR"] = str(home / "config")
    os.environ["GNO_DATA_DIR"] = str(home / "data")
    os.environ["GNO_CACHE_DIR"] = str(home / "cache")
    from gno_adapters.bootstrap import open_gno
    from gno_core.config import CollectionConfig

    with open_gno(name) as gno:
        include = (".pdf", ".docx", ".xlsx", ".pptx", ".html", ".odt")
        gno.add_collection(CollectionConfig(name=name, path=str(root), include=include))
        started = time.perf_counter()
        result = gno.sync()
        return time.perf_counter() - started, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--pages", type=int, default=500)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="gno-conv-bench-") as tmp:
        root, home = Path(tmp) / "mixed", Path(tmp) / "home"
        root.mkdir()
        counts = build_folder(root, args.files)
        size = sum(p.stat().st_size for p in root.iterdir())
        seconds, result = _index(root, home, "mixed")
        synced = result.collections[0]  # type: ignore[attr-defined]
        print(f"mixed folder: {args.files} files {counts}, {size / 1e6:.1f} MB")
        print(
            f"  indexed {synced.added} (failed {synced.failed}) in {seconds:.2f} s: "
            f"{args.files / seconds:.1f} files/s"
        )
        self_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        child_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        print(
            f"  peak RSS: index process {self_mib:.0f} MiB, converter process {child_mib:.0f} MiB"
        )

        big = Path(tmp) / "big"
        big.mkdir()
        pages = [[_words(p + n, 12) for n in range(45)] for p in range(args.pages)]
        pages[-1].append("The final zanzibar sentence sits on the last page.")
        (big / "long.pdf").write_bytes(docgen.pdf(pages))
        size = (big / "long.pdf").stat().st_size
        seconds, result = _index(big, home, "big")
        synced = result.collections[0]  # type: ignore[attr-defined]
        from gno_adapters.bootstrap import open_gno
        from gno_core.contracts.requests import SearchRequest

        with open_gno("big") as gno:
            hit = gno.search(SearchRequest(query="zanzibar")).results[0]
        verdict = "PASS" if seconds < 30 and synced.added == 1 else "FAIL"
        print(
            f"{args.pages}-page PDF ({size / 1e6:.1f} MB): indexed in {seconds:.2f} s "
            f"(target < 30 s: {verdict}); 'zanzibar' at line {hit.line} of {hit.uri}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
