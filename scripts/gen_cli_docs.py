"""Regenerate docs/reference/cli.md from the CLI's own ``--help`` (a test fails on drift)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from gno_cli.exit_codes import markdown_table
from gno_cli.main import build_parser

DOC = Path(__file__).resolve().parents[1] / "docs" / "reference" / "cli.md"
HEADER = """# CLI reference

Generated from `gno --help` by `python scripts/gen_cli_docs.py`; do not edit by hand.
Every command also accepts `--index NAME`, `--config PATH`, `--json` and `-q`.

## Exit codes

"""


def _walk(parser: argparse.ArgumentParser, path: list[str]) -> list[tuple[str, str]]:
    out = [(" ".join(path), parser.format_help())]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                out.extend(_walk(sub, [*path, name]))
    return out


def render() -> str:
    os.environ["COLUMNS"] = "100"  # stable wrapping
    parts = [HEADER, markdown_table()]
    for name, text in _walk(build_parser(), ["gno"]):
        parts.append(f"\n## `{name}`\n\n```text\n{text.rstrip()}\n```\n")
    return "".join(parts)


def main() -> int:
    DOC.write_text(render(), encoding="utf-8")
    print(f"wrote {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
