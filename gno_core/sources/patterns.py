"""Which files of a collection are indexed: its glob ``pattern`` over POSIX relative paths, the
extensions it ``include``s, and the names or paths it ``exclude``s. Pure, so that every
``SourceTree`` adapter selects exactly the same files."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Callable
from functools import lru_cache

__all__ = ["compile_glob", "exclusions"]


@lru_cache(maxsize=64)
def compile_glob(pattern: str) -> re.Pattern[str]:
    """A regex for a glob over POSIX relative paths: ``**`` crosses directories (``**/`` also
    matches nothing), ``*`` and ``?`` stay within a segment, ``[...]`` classes and ``{a,b}``
    alternatives are supported. Matching is case-sensitive."""
    out: list[str] = []
    i, n, depth = 0, len(pattern), 0
    while i < n:
        ch = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:[^/]*/)*")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            end = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "]") else i + 1)
            if end == -1:
                out.append(re.escape(ch))
            else:
                body = pattern[i + 1 : end]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = end
        elif ch == "{":
            out.append("(?:")
            depth += 1
        elif ch == "}" and depth:
            out.append(")")
            depth -= 1
        elif ch == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(ch))
        i += 1
    out.append(")" * depth)
    return re.compile("".join(out), re.DOTALL)


def exclusions(
    exclude: tuple[str, ...],
) -> tuple[Callable[[str], bool], Callable[[str], bool] | None]:
    """(test on one path segment, test on a relative path or None). Entries without ``/`` match
    any segment (``fnmatch`` globs allowed); entries with ``/`` match a relative path and
    everything under it."""
    names = [e for e in exclude if e and "/" not in e]
    paths = [e.strip("/") for e in exclude if "/" in e and e.strip("/")]
    literal = frozenset(n for n in names if not any(c in n for c in "*?["))
    globs = [n for n in names if n not in literal]
    if globs:
        rx = re.compile("|".join(fnmatch.translate(g) for g in globs))

        def by_name(name: str) -> bool:
            return name in literal or rx.match(name) is not None

    else:

        def by_name(name: str) -> bool:
            return name in literal

    if not paths:
        return by_name, None
    path_rx = re.compile("|".join(f"(?:{compile_glob(p).pattern})" for p in paths))
    return by_name, lambda rel: path_rx.fullmatch(rel) is not None
