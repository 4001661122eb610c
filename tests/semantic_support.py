"""A ``Gno`` facade over in-memory fakes (store, config, embedder, reranker) and real files in a
temporary folder, for the semantic retrieval tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gno_adapters.bootstrap.adapters import ChosenModels
from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_adapters.files.notes import LocalNoteFiles
from gno_adapters.files.walker import LocalSourceTree
from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.inmemory.config import InMemoryConfigRepository
from gno_adapters.inmemory.embedder import HashEmbedder
from gno_adapters.inmemory.index import in_memory_index
from gno_adapters.inmemory.lease import InMemoryWriteLease
from gno_adapters.inmemory.reranker import OverlapReranker
from gno_adapters.inmemory.resident import FixedResidentProbe
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.errors import RuntimeFailure
from gno_core.facade import Gno
from gno_core.ports import Embedder, Index, Reranker
from gno_core.ports.embedder import Vector


class MemoryStores:
    """``IndexProvider`` handing out one in-memory ``Index``."""

    def __init__(self) -> None:
        self.store = in_memory_index(FixedClock())

    @property
    def location(self) -> str:
        return "memory://index"

    def exists(self) -> bool:
        return True

    def open(self) -> Index:
        return self.store


class FlakyEmbedder(HashEmbedder):
    """Fails every batch holding a text that contains ``poison``."""

    def __init__(self, poison: str = "POISON") -> None:
        super().__init__()
        self.poison = poison

    def embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        if any(self.poison in t for t in texts):
            raise RuntimeFailure("the model choked on a batch")
        return super().embed_batch(texts)


@dataclass
class Env:
    root: Path
    gno: Gno
    stores: MemoryStores

    def write(self, rel: str, text: str, collection: str = "notes") -> Path:
        path = self.root / collection / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return path


def make_env(
    root: Path,
    files: dict[str, str],
    *,
    embedder: Embedder | None = None,
    reranker: Reranker | None = None,
    collections: Sequence[str] = ("notes",),
) -> Env:
    """Files are ``collection/rel_path`` -> text; a path without ``/`` goes to ``notes``."""
    config = GnoConfig(
        collections=[CollectionConfig(name=c, path=str(root / c)) for c in collections]
    )
    stores = MemoryStores()
    gno = Gno(
        index_name="default",
        config=InMemoryConfigRepository(config),
        provider=stores,
        tree=LocalSourceTree(),
        frontmatter=YamlFrontmatterParser(),
        clock=FixedClock(),
        resident=FixedResidentProbe(),
        models=ChosenModels(embedder, reranker),
        lease=InMemoryWriteLease(),
        notes=LocalNoteFiles(),
    )
    env = Env(root, gno, stores)
    for c in collections:
        (root / c).mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        collection, rel = name.split("/", 1) if "/" in name else ("notes", name)
        env.write(rel, text, collection)
    return env


def default_env(root: Path, **kwargs: object) -> Env:
    return make_env(root, CORPUS, **kwargs)  # type: ignore[arg-type]


CORPUS = {
    "cats.md": "# Cats\n\nCats are small domestic felines that purr and hunt mice.\n",
    "dogs.md": "# Dogs\n\nDogs are loyal domestic canines that bark and fetch.\n",
    "space.md": "# Rockets\n\nRockets burn fuel to reach orbit around the earth.\n",
    "cooking.md": (
        "# Bread\n\nKnead the dough, let it rise, then bake the bread.\n\n"
        "Cats should stay out of the kitchen while baking.\n"
    ),
    "work/plan.md": "# Plan\n\nThe quarterly plan covers rockets and orbit budgets.\n",
}

__all__ = ["CORPUS", "Env", "FlakyEmbedder", "HashEmbedder", "OverlapReranker", "make_env"]
