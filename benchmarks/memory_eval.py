"""The memory evaluation: a judged fact set, remembered and recalled through the real facade.

Usage: python -m benchmarks.memory_eval [--facts 10000] [--semantic]
(prints figures; exits 1 when an exactness check fails)

The judged set is built here, deterministically (seeded): 60 people and projects with eight
attributes each across four scopes, stated as facts in one of several phrasings; a quarter of
them are later corrected (the correction supersedes the first statement). Every query asks for
one attribute the way a person would ask, with other words than the fact uses (``When does
Ada's team meet?`` for ``Ada's standup is at 9:30``), and is judged by construction: the
current fact for that person and attribute, in its scope.

Figures: recall@5 of the judged facts (lexical, and with the bundled embedder with
``--semantic``); the share of recalls that returned a superseded fact; facts returned from a
scope the caller did not name; upserts answered ``existing``; fencing (a replay with the
receipt, a ``gno://`` origin); recall p50/p95 over 200 calls with ``--facts`` stored facts (the
distractors are written as files and synced); remember (write + searchable) p50.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SCOPES = ("team:core", "team:web", "project:atlas", "personal")
NAMES = (
    "Ada Okafor Bruno Lindqvist Chen Wei Dara Murphy Elif Yildiz Farid Haddad Greta Novak "
    "Hiro Tanaka Ines Duarte Jonas Weber Kemal Aydin Lena Fischer Mateo Rossi Nadia Petrova "
    "Omar Saleh Priya Natarajan Quinn Harper Rosa Jimenez Sami Virtanen Tomas Horak "
    "Uma Krishnan Viktor Sokolov Wanda Kowalski Xavier Dumont Yara Haddad Zane Cooper"
).split()
PEOPLE = [f"{NAMES[i]} {NAMES[i + 1]}" for i in range(0, len(NAMES), 2)]
PROJECTS = [
    "Atlas",
    "Borealis",
    "Cobalt",
    "Delta",
    "Ember",
    "Fjord",
    "Granite",
    "Helix",
    "Iris",
    "Juniper",
    "Kestrel",
    "Lumen",
    "Mistral",
    "Nimbus",
    "Onyx",
    "Pylon",
    "Quartz",
    "Ridge",
    "Sable",
    "Tundra",
    "Umber",
    "Vertex",
    "Willow",
    "Xenon",
    "Yonder",
    "Zephyr",
    "Aurora",
    "Basalt",
    "Cedar",
    "Dune",
    "Echo",
    "Falcon",
    "Garnet",
    "Harbor",
    "Indigo",
]
# attribute -> (fact phrasings, question phrasings, values)
PERSON_ATTRIBUTES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "standup": (
        ("{s}'s standup is at {v}", "{s} holds the daily standup at {v}"),
        ("When does {s}'s team meet each morning?", "What time is {s}'s daily meeting?"),
        ("9:00", "9:30", "10:00", "10:15", "11:00"),
    ),
    "editor": (
        ("{s} writes code in {v}", "{s}'s preferred editor is {v}"),
        ("Which editor does {s} use?", "What does {s} program with?"),
        ("Neovim", "Emacs", "VS Code", "Helix", "IntelliJ"),
    ),
    "office": (
        ("{s} works from the {v} office", "{s} is based in the {v} office"),
        ("Where does {s} work?", "Which office is {s} in?"),
        ("Lisbon", "Berlin", "Toronto", "Nairobi", "Osaka"),
    ),
    "oncall": (
        ("{s} is on call in week {v}", "{s} has the pager during week {v}"),
        ("Which week is {s} on call?", "When does {s} carry the pager?"),
        ("12", "19", "27", "33", "48"),
    ),
}
PROJECT_ATTRIBUTES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "release": (
        ("Project {s} ships on {v}", "The {s} release is planned for {v}"),
        ("When does {s} ship?", "What is the launch date of {s}?"),
        ("March 3", "April 14", "June 2", "September 9", "November 20"),
    ),
    "database": (
        ("{s} stores its data in {v}", "The {s} backend uses {v}"),
        ("Which database does {s} use?", "Where does {s} keep its data?"),
        ("PostgreSQL", "SQLite", "DuckDB", "Cassandra", "Redis"),
    ),
    "owner": (
        ("{s} is owned by the {v} team", "The {v} team maintains {s}"),
        ("Who owns {s}?", "Which team is responsible for {s}?"),
        ("platform", "payments", "search", "mobile", "growth"),
    ),
    "budget": (
        ("{s} has a budget of {v} euros", "The {s} budget is {v} euros"),
        ("How much money does {s} have?", "What is the spend limit for {s}?"),
        ("40,000", "75,000", "120,000", "250,000", "18,000"),
    ),
}


def judged_set(seed: int = 7) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(facts in write order, queries); a correction names the fact it supersedes by key."""
    rng = random.Random(seed)
    facts: list[dict[str, Any]] = []
    queries: list[dict[str, Any]] = []
    subjects = [(p, PERSON_ATTRIBUTES) for p in PEOPLE] + [
        (p, PROJECT_ATTRIBUTES) for p in PROJECTS
    ]
    for subject, table in subjects:
        scope = rng.choice(SCOPES)
        for attribute, (phrasings, questions, values) in table.items():
            key = f"{subject}/{attribute}"
            first, second = rng.sample(values, 2)
            facts.append(
                {
                    "key": key,
                    "text": rng.choice(phrasings).format(s=subject, v=first),
                    "scope": scope,
                    "supersedes": None,
                }
            )
            current = facts[-1]
            if rng.random() < 0.25:
                facts.append(
                    {
                        "key": key + "#2",
                        "text": rng.choice(phrasings).format(s=subject, v=second),
                        "scope": scope,
                        "supersedes": key,
                    }
                )
                current = facts[-1]
            queries.append(
                {
                    "question": rng.choice(questions).format(s=subject),
                    "expect": current["key"],
                    "scope": scope,
                }
            )
    return facts, queries


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--facts", type=int, default=10_000, help="facts stored for latency")
    parser.add_argument("--semantic", action="store_true", help="also with the bundled embedder")
    args = parser.parse_args()
    import gno_core
    from gno_core.contracts.memory_requests import RecallRequest, RememberRequest
    from gno_core.errors import GnoError
    from gno_core.fact_files import content_hash, fact_path, record_id, render_fact
    from gno_core.facts import FactRecord, MemoryIdentity

    work = Path(tempfile.mkdtemp(prefix="gno-memory-eval-"))
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(work / "c"),
        "GNO_DATA_DIR": str(work / "d"),
        "GNO_CACHE_DIR": str(work / "k"),
    }
    if not args.semantic:
        env["GNO_EMBED_MODEL"] = "none"
    folder = work / "memory"
    folder.mkdir()
    me = MemoryIdentity(caller="eval", session="eval-1")
    facts, queries = judged_set()
    failures: list[str] = []
    with gno_core.open(env=env) as gno:
        from gno_core.config import CollectionConfig

        gno.add_collection(CollectionConfig(name="mem", path=str(folder), memory_managed=True))
        gno.init()
        uri_of: dict[str, str] = {}
        hash_of: dict[str, str] = {}
        write_ms: list[float] = []
        for fact in facts:
            fields: dict[str, Any] = {
                "text": fact["text"],
                "collection": "mem",
                "scopes": [fact["scope"]],
                "decision": "add",
            }
            if fact["supersedes"]:
                fields.update(
                    decision="supersede",
                    predecessorUri=uri_of[fact["supersedes"]],
                    predecessorHash=hash_of[fact["supersedes"]],
                )
            t0 = time.perf_counter()
            out = gno.remember(RememberRequest.model_validate(fields), me)
            write_ms.append((time.perf_counter() - t0) * 1000)
            assert out.record is not None
            uri_of[fact["key"]], hash_of[fact["key"]] = out.record.uri, out.record.content_hash
        if args.semantic:
            gno.embed()
        key_of = {uri: key for key, uri in uri_of.items()}
        superseded = {uri_of[f["supersedes"]] for f in facts if f["supersedes"]}
        hits = stale = leaks = returned = 0
        receipts: list[Any] = []
        for q in queries:
            res = gno.recall(
                RecallRequest.model_validate(
                    {
                        "query": q["question"],
                        "collection": "mem",
                        "scopes": [q["scope"]],
                        "maxFacts": 5,
                        "maxTokens": 8192,
                    }
                ),
                me,
            )
            got = [key_of.get(f.uri, "?") for f in res.facts]
            hits += q["expect"] in got
            returned += len(res.facts)
            stale += sum(f.uri in superseded for f in res.facts)
            leaks += sum(q["scope"] not in f.scopes for f in res.facts)
            receipts.append(res)
        mode = receipts[0].retrieval.mode
        print(
            f"judged set: {len(facts)} facts ({sum(1 for f in facts if f['supersedes'])} "
            f"corrections), {len(queries)} queries, 4 scopes; recall mode {mode}"
        )
        print(f"recall@5: {hits / len(queries):.3f} ({hits}/{len(queries)})  target >= 0.8")
        print(f"superseded facts returned: {stale} of {returned} returned  target 0")
        print(f"facts from a scope not asked for: {leaks}  target 0")
        # Upserts, fencing.
        same = sum(
            gno.remember(
                RememberRequest.model_validate(
                    {
                        "text": f["text"],
                        "collection": "mem",
                        "scopes": [f["scope"]],
                        "decision": "add",
                    }
                ),
                me,
            ).outcome
            == "existing"
            for f in facts[:100]
            if f["key"] not in {x["supersedes"] for x in facts}
        )
        tried = sum(1 for f in facts[:100] if f["key"] not in {x["supersedes"] for x in facts})
        print(f"upsert of stored text answered existing: {same}/{tried}")
        fenced = derived = attempts = 0
        for res in receipts[:100]:
            for f in res.facts[:1]:
                attempts += 1
                for kind, extra in (
                    ("replay", {"receipt": res.receipt.wire()}),
                    ("derived", {"derivedFrom": [f.uri]}),
                ):
                    try:
                        gno.remember(
                            RememberRequest.model_validate(
                                {
                                    "text": f.text + " indeed" if kind == "derived" else f.text,
                                    "collection": "mem",
                                    "scopes": ["personal", "team:web"],
                                    "decision": "add",
                                    **extra,
                                }
                            ),
                            me,
                        )
                    except GnoError as exc:
                        fenced += kind == "replay" and exc.code == "MEMORY_FENCED_REPLAY"
                        derived += kind == "derived" and exc.code == "MEMORY_FENCED_DERIVED"
        print(
            f"fencing: replays refused {fenced}/{attempts}, gno:// origins refused "
            f"{derived}/{attempts}"
        )
        print(
            f"remember (write + searchable) p50 {statistics.median(write_ms):.1f} ms, "
            f"p95 {sorted(write_ms)[int(0.95 * len(write_ms))]:.1f} ms over {len(write_ms)}"
        )
        # Latency at scale: distractor facts written as files, synced.
        rng = random.Random(11)
        for i in range(args.facts - len(facts)):
            text = (
                f"Note {i}: {rng.choice(PEOPLE)} mentioned {rng.choice(PROJECTS)} "
                f"and {rng.choice(PROJECTS)} on day {i % 365}"
            )
            digest = content_hash(text)
            created = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T08:00:00Z"
            rid = record_id(digest, created, "bulk", "bulk")
            path = folder / fact_path(created, rid)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(
                render_fact(
                    FactRecord(rid, text, (rng.choice(SCOPES),), "bulk", "bulk", created, digest)
                ),
                encoding="utf-8",
            )
        t0 = time.perf_counter()
        gno.sync()
        print(f"synced {args.facts} facts in {time.perf_counter() - t0:.1f} s")
        times = []
        for i in range(200):
            q = queries[i % len(queries)]
            t0 = time.perf_counter()
            gno.recall(
                RecallRequest.model_validate(
                    {"query": q["question"], "collection": "mem", "scopes": [q["scope"]]}
                ),
                me,
            )
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print(
            f"recall over {args.facts} facts, 200 calls: p50 {times[100]:.1f} ms, "
            f"p95 {times[190]:.1f} ms  target p95 <= 25 ms"
        )
        if stale or leaks:
            failures.append("superseded or out-of-scope facts recalled")
        if fenced != attempts or derived != attempts or same != tried:
            failures.append("fencing or upsert not exact")
    for f in failures:
        print(f"FAIL: {f}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
