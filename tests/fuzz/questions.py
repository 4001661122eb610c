"""Real-world questions for the natural-language fuzz suite, and two small indexes to ask them.

``QUESTIONS`` is written here (people's questions on notes, films, code, science, several
scripts), so the suite never depends on anything outside the repository. ``real_sentences``
adds what ``../shared/data`` holds when it is there: the SciFact claims and the questions of the
FastAPI documentation in 13 languages (backticks, Markdown links, CJK punctuation).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"

QUESTIONS = [
    'When did Joanna first watch "Eternal Sunshine of the Spotless Mind?',
    "When did Joanna first watch Eternal Sunshine of the Spotless Mind?",
    "What did Melanie paint after her trip to the lake?",
    "How long has Caroline been practising the violin?",
    "Who recommended the book about sourdough to Tim?",
    "Where does the tram 28 go in Lisbon?",
    "Why do tomatoes need full sun?",
    "What's the difference between gpt-4 and gpt-3.5-turbo?",
    "Is DEC-0054 still the decision for the release train?",
    "How do I run `git push --force-with-lease` safely?",
    "What does the -v flag do in grep?",
    "Can I use C++ or C# for the plugin (or only Python)?",
    "What is 2*3, and is 5* a rating?",
    "Which notes mention NOT, AND or OR in capitals?",
    "What does NEAR(foam graph) mean in FTS5?",
    "title: Weekly review -- what did we decide?",
    "Did we say 10:00 or 9:30 for the standup?",
    "What's the e-mail of the on-call person (ops@example.com)?",
    "How much is 3^2 + 4^2?",
    "What did she mean by “the best summer ever”?",
    "Was it «Amélie» or ‘Amélie’ that Joanna loved?",
    "¿Dónde está la documentación de la API?",
    "Quelle est la différence entre async et await ?",
    "Wie funktioniert die Abhängigkeitsinjektion?",
    "依赖注入是什么？",
    "「タイミング攻撃」とは何でしょうか？",
    "의존성 주입은 어떻게 작동하나요?",
    "Что такое внедрение зависимостей?",
    "Which café near the Alfama serves pastéis de nata?",
    "Why did the build fail with error E0502 (cannot borrow)?",
    "What is the path of ~/notes/2026/*.md files?",
    "Who owns the launch decision for 2026 - Alice or Bob?",
    "How are wikilinks like [[foam]] resolved?",
    "What's in section #3.2 of the spec?",
    "He is 5'10\" tall, isn't he?",
    "Joanna's favourite films: Her, Arrival, Moon...",
    "Remind me - what did I promise Sam on Friday?",
    "What does 'idempotent' mean for a PUT request?",
    "Should real-time sync use inotify or polling?",
    "List everything tagged #work/project that is overdue!",
]


@cache
def real_sentences() -> tuple[str, ...]:
    """SciFact claims and documentation questions from ``../shared/data`` (empty without it)."""
    out: list[str] = []
    queries = DATA / "beir-scifact" / "queries.jsonl"
    if queries.is_file():
        for line in queries.read_text(encoding="utf-8").splitlines():
            out.append(json.loads(line)["text"])
    docs = DATA / "fastapi-docs"
    if docs.is_dir():
        question = re.compile(r"^[^#`|<!{*\-\s].{10,300}[?？]$")
        for path in sorted(docs.rglob("*.md")):
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                if question.match(line.strip()):
                    out.append(line.strip())
    return tuple(out)


NOTES = {
    "films.md": (
        "# Films\n\nJoanna first watched Eternal Sunshine of the Spotless Mind in May 2019.\n\n"
        "She says “the best summer ever” was the one with Her, Arrival and Moon.\n"
    ),
    "garden.md": "---\ntags: [outdoors]\n---\n# Garden\n\nTomatoes need full sun.\n",
    "code.md": (
        "# Code\n\nUse `git push --force-with-lease`, never -f. gpt-4 and DEC-0054 are ids.\n"
        "NOT, AND, OR and NEAR are FTS5 operators; C++ and C# are languages.\n"
    ),
    "lisbon.md": "# Lisbon\n\nTram 28 climbs through Alfama. 依赖注入是一种设计模式。\n",
    "science.md": (
        "# Claims\n\n0-dimensional biomaterials lack inductive properties.\n\n"
        "1 in 5 million in UK have abnormal PrP positivity.\n"
    ),
}
FACTS = [
    ("Joanna first watched Eternal Sunshine of the Spotless Mind in May 2019", "people"),
    ("The standup moved to 10:00 on Fridays", "team"),
    ("Sam was promised the release notes by Friday", "people"),
]


def write_facts(root: Path) -> None:
    from gno_core.fact_files import content_hash, fact_path, record_id, render_fact
    from gno_core.facts import FactRecord

    created = "2026-12-01T09:00:00Z"
    for text, scope in FACTS:
        digest = content_hash(text)
        rid = record_id(digest, created, "cli:fuzz", "s-0", (scope,))
        rel = fact_path(created, rid)
        record = FactRecord(rid, text, (scope,), "cli:fuzz", "s-0", created, digest)
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(render_fact(record), encoding="utf-8")


def sqlite_gno(home: Path) -> Any:
    """The real SQLite (FTS5) index, with the hash embedder, the overlap reranker and the
    extractive generator: every retrieval surface runs without a model download. Collections
    ``notes`` and ``mem`` (memory-managed); synced and embedded."""
    from gno_adapters.bootstrap import Adapters, build
    from gno_adapters.clock import SystemClock
    from gno_adapters.config import YamlConfigRepository, resolve_paths
    from gno_adapters.files.frontmatter import YamlFrontmatterParser
    from gno_adapters.files.lease import FileWriteLease
    from gno_adapters.files.notes import LocalNoteFiles
    from gno_adapters.files.walker import LocalSourceTree
    from gno_adapters.generation.extractive import ExtractiveGenerator
    from gno_adapters.inmemory.embedder import HashEmbedder
    from gno_adapters.inmemory.reranker import OverlapReranker
    from gno_adapters.inmemory.resident import FixedResidentProbe
    from gno_adapters.sqlite import ApswIndexProvider
    from gno_core.config import CollectionConfig

    notes, memory = home / "notes", home / "memory"
    notes.mkdir(parents=True)
    for rel, text in NOTES.items():
        (notes / rel).write_text(text, encoding="utf-8")
    write_facts(memory)
    env = {
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
    }
    paths = resolve_paths(None, None, env)
    clock = SystemClock()
    gno = build(
        Adapters(
            index_name=paths.index_name,
            config=YamlConfigRepository(paths.config_file, paths.cache_dir),
            provider=ApswIndexProvider(paths.db_path, clock),
            tree=LocalSourceTree(),
            frontmatter=YamlFrontmatterParser(),
            clock=clock,
            resident=FixedResidentProbe(),
            lease=FileWriteLease(paths.data_dir),
            notes=LocalNoteFiles(),
            embedder=HashEmbedder(),
            reranker=OverlapReranker(),
            generator=ExtractiveGenerator(),
        )
    )
    gno.add_collection(CollectionConfig(name="notes", path=str(notes)))
    gno.add_collection(CollectionConfig(name="mem", path=str(memory), memory_managed=True))
    gno.sync()
    gno.embed()
    return gno


def memory_gno() -> Any:
    """The in-memory fakes (lexical BM25 fake, hash embedder): one memory-managed collection
    ``notes`` holding the notes and the facts."""
    import tempfile

    from gno_adapters.bootstrap import build, in_memory

    with tempfile.TemporaryDirectory() as tmp:
        write_facts(Path(tmp))
        facts = {
            str(p.relative_to(tmp)): p.read_text(encoding="utf-8") for p in Path(tmp).rglob("*.md")
        }
    made = in_memory({**NOTES, **facts})
    config = made.config.load()
    first = config.collections[0].model_copy(update={"memory_managed": True})
    made.config.save(config.model_copy(update={"collections": [first]}))
    gno = build(made)
    gno.sync()
    gno.embed()
    return gno
