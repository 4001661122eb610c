"""The links a careful reader resolves in the two real vaults, computed independently of gno's
parser and resolver: line-by-line regexes over the raw files (fences toggled by ``` / ~~~ lines,
inline code removed) and plain file-existence checks on disk, by each tool's own convention.

- Dendron (``dendron-site/vault``): ``[[label|note.name#anchor]]`` names the note second,
  ``[[note.name]]`` first; ``dendron://vault/`` prefixes are dropped; a link resolves when
  ``vault/<note.name>.md`` (or a file called ``<note.name>``) exists. HTML comments
  (single or multi-line) are removed first.
- Foam (``foam-docs``): ``[[name]]`` resolves when exactly one ``.md`` file is called
  ``name.md``; ``[text](relative.md)`` and a link reference definition
  ``[label]: relative.md 'Title'`` (one link per definition line) when the relative file
  exists.

Each expectation is ``(source rel_path, target text, expected target rel_path or None)``.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

_WIKI = re.compile(r"!?\[\[([^\[\]]+)\]\]")
_INLINE_CODE = re.compile(r"`[^`]*`")
_MD_LINK = re.compile(r"(?<!!)\[[^\[\]]*\]\(([^()\s]+\.md)(?:#[^()\s]*)?\)")
_DEFINITION = re.compile(r"^ {0,3}\[[^\[\]]+\]:\s+<?([^\s<>]+\.md)(?:#\S*)?>?(?:\s|$)")

Expectation = tuple[str, str, "str | None"]


def _prose_lines(text: str) -> list[str]:
    text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        end = next((i for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
        lines = lines[end + 1 :]
    out: list[str] = []
    fence = ""
    for line in (raw.rstrip() for raw in lines):
        run = re.match(r"\s*(`{3,}|~{3,})", line)
        if run and not fence:
            fence = run.group(1)
            continue
        if run and fence and run.group(1).startswith(fence) and not line.strip(fence[0]).strip():
            fence = ""
            continue
        if not fence:
            out.append(_INLINE_CODE.sub("", line))
    return out


def dendron_expected(vault: Path) -> Counter[Expectation]:
    expected: Counter[Expectation] = Counter()
    for path in sorted(vault.glob("*.md")):
        for line in _prose_lines(path.read_text(encoding="utf-8")):
            for inner in _WIKI.findall(line):
                target = inner.split("|", 1)[1] if "|" in inner else inner
                target = target.split("#", 1)[0].strip()
                target = re.sub(r"^dendron://[^/]*/", "", target)
                if not target:
                    continue
                # A note name, or (``[[x|note.md]]``) the file name itself.
                names = [n for n in (f"{target}.md", target) if (vault / n).is_file()]
                expected[(path.name, target, names[0] if names else None)] += 1
    return expected


def foam_expected(root: Path) -> Counter[Expectation]:
    by_stem: dict[str, list[str]] = {}
    files = sorted(p for p in root.rglob("*.md"))
    for p in files:
        by_stem.setdefault(p.stem, []).append(p.relative_to(root).as_posix())
    expected: Counter[Expectation] = Counter()
    for path in files:
        rel = path.relative_to(root).as_posix()
        for line in _prose_lines(path.read_text(encoding="utf-8")):
            for inner in _WIKI.findall(line):
                target = inner.split("|", 1)[0].split("#", 1)[0].strip()
                if not target:
                    continue
                hits = by_stem.get(target, [])
                expected[(rel, target, hits[0] if len(hits) == 1 else None)] += 1
            for dest in _MD_LINK.findall(line) + _DEFINITION.findall(line):
                if "://" in dest:
                    continue
                joined = os.path.normpath(os.path.join(os.path.dirname(rel), dest))
                found = (root / joined).is_file() and not joined.startswith("..")
                expected[(rel, dest, joined if found else None)] += 1
    return expected
