"""Time each ingest stage (walk, read, hash, canonicalize, frontmatter, language, chunking) on a
folder, without a store: ``python -m benchmarks.ingest_stages <folder> [pattern]``.

Prints figures; asserts nothing. Extract ``tldr-pages.tar.gz`` to a temp dir for the scale run.
"""

from __future__ import annotations

import hashlib
import posixpath
import sys
import time
from collections import defaultdict

from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_adapters.files.walker import LocalSourceTree
from gno_core.config import ChunkingConfig
from gno_core.defaults import DEFAULT_EXCLUDES, DEFAULT_PATTERN
from gno_core.indexing.ingest import MARKDOWN_EXTENSIONS, decode_text
from gno_core.text.canonical import canonicalize, mirror_hash
from gno_core.text.chunking import CODE_EXTENSIONS, chunk_text
from gno_core.text.frontmatter import document_meta, split_frontmatter
from gno_core.text.language import detect_language


def main(root: str, pattern: str = DEFAULT_PATTERN) -> None:
    tree, parser, chunking = LocalSourceTree(), YamlFrontmatterParser(), ChunkingConfig()
    spent: dict[str, float] = defaultdict(float)
    clock = time.perf_counter

    started = clock()
    files = list(tree.walk(root, pattern, (), DEFAULT_EXCLUDES))
    spent["walk"] = clock() - started
    chunks = 0
    for source in files:
        t0 = clock()
        data = tree.read(source.abs_path, 10 * 1024 * 1024)
        t1 = clock()
        hashlib.sha256(data).hexdigest()
        t2 = clock()
        text = canonicalize(decode_text(data, source.rel_path))
        mirror_hash(text)
        t3 = clock()
        ext = posixpath.splitext(source.rel_path)[1].lower()
        yaml, body = split_frontmatter(text) if ext in MARKDOWN_EXTENSIONS else (None, text)
        front = parser.parse(yaml) if yaml is not None else {}
        t4 = clock()
        language = detect_language(body)
        t5 = clock()
        document_meta(front, body, source.rel_path, language)
        t6 = clock()
        chunks += len(chunk_text(text, chunking.max_tokens, code=ext in CODE_EXTENSIONS))
        t7 = clock()
        spent["read"] += t1 - t0
        spent["hash"] += t2 - t1
        spent["decode+canonical+mirror hash"] += t3 - t2
        spent["frontmatter split+parse"] += t4 - t3
        spent["language"] += t5 - t4
        spent["meta"] += t6 - t5
        spent["chunking"] += t7 - t6
    total = clock() - started
    n = max(len(files), 1)
    print(f"{len(files)} files, {chunks} chunks, {total:.2f} s, {len(files) / total:.0f} docs/s")
    for stage, seconds in spent.items():
        print(f"  {stage:32} {seconds:7.3f} s  {seconds / n * 1e6:7.1f} us/doc")


if __name__ == "__main__":
    main(*sys.argv[1:])
