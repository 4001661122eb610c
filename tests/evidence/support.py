"""A small in-memory corpus for the evidence tests: notes with headings, code fences holding
backtick runs, comparisons and names, so facets, fences and the share cap all have work."""

from __future__ import annotations

from gno_adapters.bootstrap import Adapters, build, in_memory
from gno_core.facade import Gno

NOTES: dict[str, str] = {
    "foam.md": (
        "---\ntags: [tools]\n---\n# Foam\n\nFoam is a note tool built on VS Code.\n\n"
        "## Links\n\nFoam links notes with wikilinks and shows backlinks.\n\n"
        "## Graph\n\nThe Foam graph view draws every note and link.\n"
    ),
    "obsidian.md": (
        "# Obsidian\n\nObsidian is a Markdown editor for local vaults.\n\n"
        "## Plugins\n\nObsidian has community plugins; Dataview queries notes.\n\n"
        "```js\nconst fence = '```';\n```\n"
    ),
    "launch.md": (
        "# Launch decision\n\nAlice owns the launch decision for 2026.\n\n"
        "The launch happens in March after the review by Bob.\n"
    ),
    "sub/deep.md": (
        "# Deep note\n\n"
        + "\n\n".join(f"Paragraph {i} about caching and retries." for i in range(40))
    ),
}


def evidence_adapters(notes: dict[str, str] | None = None) -> Adapters:
    made = in_memory(notes if notes is not None else NOTES)
    with build(made) as gno:
        gno.sync()
        gno.embed()
    return made


def facade(made: Adapters) -> Gno:
    return build(made)
