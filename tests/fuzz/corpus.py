"""A small real index for the fuzz suites, built once per session through the real facade."""

from __future__ import annotations

from pathlib import Path

NOTES = {
    "garden.md": "---\ntags: [outdoors, food]\n---\n# Garden\n\nTomatoes need full sun.\n",
    "kitchen.md": "# Kitchen\n\nA sourdough starter wants flour and water daily.\n",
    "travel/lisbon.md": "# Lisbon\n\nTram 28 climbs through Alfama. 依赖注入\n",
}


def build_index(home: Path) -> dict[str, str]:
    """Index ``NOTES`` under ``home``; returns the environment that opens it."""
    from gno_adapters.bootstrap import open_gno
    from gno_core.config import CollectionConfig

    notes = home / "notes"
    for rel, text in NOTES.items():
        (notes / rel).parent.mkdir(parents=True, exist_ok=True)
        (notes / rel).write_text(text, encoding="utf-8")
    env = {
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
    }
    with open_gno(env=env) as gno:
        gno.add_collection(CollectionConfig(name="notes", path=str(notes)))
        assert gno.sync().total_added == len(NOTES)
    return env
