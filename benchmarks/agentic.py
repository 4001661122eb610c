"""The agentic benchmark: a deterministic scripted agent answers fixed questions over the
FastAPI docs (English, ``../shared/data/fastapi-docs/en``) two ways, through the real MCP tools:

- raw: ``gno_query`` (limit 5), then ``gno_get`` of the top three results around their line
  anchors (``fromLine`` = anchor - 5, ``lineCount`` 40), as the Agent Retrieval Playbook says;
- capsule: one ``gno_context`` call (``budgetTokens`` below) and nothing else.

Both ways answer with the same rule (the sentence the agent read that shares most words with
the question), so the difference is only what the agent had to read. Reported per way: tool
calls, model-visible bytes (tool arguments plus the text content of every result, what a model
reads), and the support rate (answers holding every expected term of the task). The capsule
way also runs ``gno_ask`` (extractive generator) per task and counts claims returned as
supported whose text is not in their cited passage (must be 0); with no semantic verifier
configured no claim is supported at all.

    python benchmarks/agentic.py [--budget 3000] [--no-embed]

Prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.corpora import SHARED

FASTAPI_EN = SHARED / "fastapi-docs" / "en" / "docs"

#: (question, the document that answers it)
TASKS: tuple[tuple[str, str], ...] = (
    ("How do I declare the HTTP status code of a response?", "tutorial/response-status-code.md"),
    (
        "How do I run work after returning a response with BackgroundTasks?",
        "tutorial/background-tasks.md",
    ),
    ("How do I enable CORS in a FastAPI application?", "tutorial/cors.md"),
    ("What does OAuth2PasswordBearer do?", "tutorial/security/first-steps.md"),
    ("When should I use UploadFile for file uploads?", "tutorial/request-files.md"),
    ("How do I test a FastAPI app with TestClient?", "tutorial/testing.md"),
    ("What are lifespan events used for?", "advanced/events.md"),
    (
        "How do I add extra validation like max_length to a query parameter?",
        "tutorial/query-params-str-validations.md",
    ),
    ("How do I configure root_path behind a proxy?", "advanced/behind-a-proxy.md"),
    ("How do I test WebSockets?", "advanced/testing-websockets.md"),
    (
        "What happens to an exception raised in a dependency with yield?",
        "tutorial/dependencies/dependencies-with-yield.md",
    ),
    ("How do I use response_model to filter output data?", "tutorial/response-model.md"),
)
_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[^\W_]+")
#: ``gno_get`` numbers its lines (``12: text``); the number is no part of the sentence.
_NUMBERED = re.compile(r"^\s*\d+: ", re.MULTILINE)
_NOT_PROSE = re.compile(r"^\s*(?:#|```|\{\*|\||<|!\[)")
_STOP = frozenset(
    "a an and are as at be by do does for how i in is it of on or the to what when with".split()
)


@contextmanager
def fastapi_index(*, embed: bool) -> Iterator[dict[str, str]]:
    """The English FastAPI docs indexed in a temporary directory, for the block's duration."""
    if not FASTAPI_EN.is_dir():
        sys.exit(f"missing corpus: {FASTAPI_EN}")
    with tempfile.TemporaryDirectory() as tmp:
        yield build_index(Path(tmp), embed=embed)


def build_index(root: Path, *, embed: bool) -> dict[str, str]:
    """A data/config/cache dir under ``root`` with the English FastAPI docs synced (and
    embedded); returns the environment that points gno at it."""
    from gno_adapters.bootstrap import open_gno
    from gno_core.config import CollectionConfig

    env = {
        "GNO_CONFIG_DIR": str(root / "config"),
        "GNO_DATA_DIR": str(root / "data"),
        "GNO_CACHE_DIR": str(root / "cache"),
    }
    import os

    os.environ.update(env)
    with open_gno(env={**os.environ, **env}) as gno:
        gno.init()
        gno.add_collection(CollectionConfig(name="fastapi", path=str(FASTAPI_EN)))
        gno.sync()
        if embed:
            gno.embed()
    return env


class Client:
    """An in-process MCP client of the real engine over the local facade, counting calls and
    model-visible bytes."""

    def __init__(self, env: dict[str, str]) -> None:
        from gno_adapters.bootstrap import open_gno
        from gno_adapters.mcp.context import Connection
        from gno_adapters.mcp.server import GnoHandlers, build_engine

        self.handlers = GnoHandlers(lambda: open_gno(env=env), profile="full", enable_write=False)
        self.engine = build_engine(self.handlers)
        self.connection = Connection.pinned_by_first_request("bench")
        self.calls = 0
        self.bytes = 0
        self._id = 0
        self._send(
            "initialize",
            {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "bench", "version": "1"},
            },
        )
        self.engine.handle(
            self.connection, {"jsonrpc": "2.0", "method": "notifications/initialized"}
        )

    def _send(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._id += 1
        reply = self.engine.handle(
            self.connection, {"jsonrpc": "2.0", "id": self._id, "method": method, "params": params}
        )
        response = reply.work() if reply.work is not None else reply.response
        assert response is not None
        result: dict[str, Any] = response["result"]
        return result

    def tool(self, name: str, arguments: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        result = self._send("tools/call", {"name": name, "arguments": arguments})
        text = "".join(part["text"] for part in result["content"])
        self.calls += 1
        self.bytes += len(json.dumps(arguments).encode()) + len(text.encode())
        if result.get("isError"):
            raise RuntimeError(f"{name} failed: {text}")
        return text, result.get("structuredContent") or {}


def answer(question: str, texts: list[str]) -> str:
    """The prose sentence read that shares most words with the question (first on ties);
    headings, code and include lines are no answer."""
    wanted = {w for w in _WORD.findall(question.casefold()) if w not in _STOP}
    best, best_hits = "", 0
    for text in texts:
        for raw in _SPLIT.split(text):
            sentence = _NUMBERED.sub("", raw)
            if _NOT_PROSE.match(sentence) or len(_WORD.findall(sentence)) < 4:
                continue
            hits = len(wanted & set(_WORD.findall(sentence.casefold())))
            if hits > best_hits:
                best, best_hits = sentence.strip(), hits
    return best


def supported(sentence: str, gold: str) -> bool:
    """The answer is a sentence of the document that answers the task."""
    fold = " ".join(sentence.split()).casefold()
    text = " ".join((FASTAPI_EN / gold).read_text(encoding="utf-8").split()).casefold()
    return bool(fold) and fold in text


def raw_way(client: Client, question: str) -> str:
    _, results = client.tool("gno_query", {"query": question, "limit": 5})
    texts = []
    for hit in results["results"][:3]:
        start = max(1, (hit.get("line") or 1) - 5)
        text, _ = client.tool("gno_get", {"ref": hit["uri"], "fromLine": start, "lineCount": 40})
        texts.append(text)
    return answer(question, texts)


def capsule_way(client: Client, question: str, budget: int) -> str:
    text, _ = client.tool("gno_context", {"goal": question, "budgetTokens": budget})
    # The compact projection, then (without embeddings) the vector-gap note after it.
    projection, _ = json.JSONDecoder().raw_decode(text)
    return answer(question, [e[6] for e in projection["e"]])


def false_support(client: Client, question: str) -> tuple[int, int, bool]:
    """(claims returned as supported, of them not quoted from a cited passage, answered)."""
    _, result = client.tool("gno_ask", {"query": question, "verify": True})
    evidence = {e["evidenceId"]: e["text"] for e in result["verification"]["capsule"]["evidence"]}
    fold = lambda t: " ".join(t.split()).casefold()  # noqa: E731
    claims = [c for c in result["verification"]["claims"]["claims"] if c["status"] == "supported"]
    wrong = sum(
        1
        for c in claims
        if not any(fold(c["text"]) in fold(evidence[e]) for e in c["supportEvidenceIds"])
    )
    return len(claims), wrong, result["answerStatus"] == "answered"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--budget", type=int, default=3000)
    parser.add_argument("--no-embed", action="store_true")
    args = parser.parse_args()
    with fastapi_index(embed=not args.no_embed) as env:
        raw, capsule, asker = Client(env), Client(env), Client(env)
        raw_ok = capsule_ok = claims = wrong = answered = 0
        for question, expect in TASKS:
            a = raw_way(raw, question)
            b = capsule_way(capsule, question, args.budget)
            raw_ok += supported(a, expect)
            capsule_ok += supported(b, expect)
            n, w, done = false_support(asker, question)
            claims, wrong, answered = claims + n, wrong + w, answered + done
            print(
                f"{question[:60]:<60} raw={supported(a, expect)!s:<5} capsule={supported(b, expect)!s:<5}"
            )
        n = len(TASKS)
        print(f"tasks {n}, capsule budget {args.budget} tokens, embeddings {not args.no_embed}")
        print(
            f"raw:     calls {raw.calls} ({raw.calls / n:.1f}/task), model-visible bytes {raw.bytes} ({raw.bytes // n}/task), support {raw_ok}/{n}"
        )
        print(
            f"capsule: calls {capsule.calls} ({capsule.calls / n:.1f}/task), model-visible bytes {capsule.bytes} ({capsule.bytes // n}/task), support {capsule_ok}/{n}"
        )
        print(
            f"reduction: calls {100 * (1 - capsule.calls / raw.calls):.1f} %, bytes {100 * (1 - capsule.bytes / raw.bytes):.1f} %"
        )
        print(
            f"ask (extractive): answered {answered}/{n}, supported claims {claims}, of them not quoted from their citation {wrong}"
        )


if __name__ == "__main__":
    main()
