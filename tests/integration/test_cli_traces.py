"""Retrieval traces from the real CLI over SQLite: ``Trace: <id>`` on stderr (stdout unchanged)
for search, query, get and context (vsearch and ask: the MCP test) when ``retrievalTraces.enabled``; nothing and
no trace when off; ``get --trace-id`` records the exact span it printed and nothing for an
out-of-range or failed get."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gno_adapters.bootstrap import open_gno
from tests.integration.cli_helpers import Cli

NOTES = {
    "alpha.md": "# Alpha\n\nalpha beta gamma\n\nmore alpha\n\nlast line\n",
    "beta.md": "# Beta\n\nbeta only here, alpha once\n",
}
TRACE = re.compile(r"^Trace: (trc_[0-9a-f]{32})$", re.M)


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    notes = tmp_path / "notes"
    notes.mkdir()
    for name, text in NOTES.items():
        (notes / name).write_text(text, encoding="utf-8")
    run = Cli(tmp_path / "home", monkeypatch, capsys)
    run.ok("collection", "add", str(notes), "--name", "notes")
    run.ok("update")
    return run


def enable(cli: Cli, mode: str = "metadata") -> None:
    (config,) = (cli.home / "config").rglob("*.yml")
    text = config.read_text(encoding="utf-8")
    off = "retrievalTraces:\n  enabled: false\n  redactionMode: metadata\n"
    assert off in text
    on = f"retrievalTraces:\n  enabled: true\n  redactionMode: {mode}\n"
    config.write_text(text.replace(off, on), encoding="utf-8")


def traces(cli: Cli) -> int:
    with open_gno() as gno:
        return gno.handle.index.traces.usage().traces


COMMANDS = [
    ["search", "alpha"],
    ["search", "alpha", "--json"],
    ["query", "alpha", "--fast"],
    ["query", "alpha", "--json"],
    ["get", "notes/alpha.md", "--from", "3", "-l", "2"],
    ["context", "alpha", "--budget", "4000"],
]


def test_off_prints_no_trace_and_records_nothing(cli: Cli) -> None:
    for argv in COMMANDS:
        run = cli(*argv)
        assert run.code == 0, (argv, run.err)
        assert "Trace:" not in run.err
    assert traces(cli) == 0


def test_on_prints_the_trace_id_on_stderr_and_stdout_is_unchanged(cli: Cli) -> None:
    before = [cli.ok(*argv).out for argv in COMMANDS]
    enable(cli)
    ids = []
    for argv, out in zip(COMMANDS, before, strict=True):
        run = cli.ok(*argv)
        found = TRACE.findall(run.err)
        assert len(found) == 1, (argv, run.err)
        assert found[0] not in run.out
        if "context" not in argv:  # a capsule records when it was compiled
            assert run.out == out, argv
        ids.append(found[0])
    assert len(set(ids)) == len(ids) == traces(cli)


def test_get_with_trace_id_records_the_span_it_printed(cli: Cli) -> None:
    enable(cli, "replay")
    (trace_id,) = TRACE.findall(cli.ok("search", "alpha").err)
    got = cli.ok("get", "notes/alpha.md", "--from", "3", "-l", "2", "--trace-id", trace_id)
    assert TRACE.findall(got.err) == [trace_id]
    assert got.out == "alpha beta gamma\n\n"
    past = cli("get", "notes/alpha.md", "--from", "99", "--trace-id", trace_id)
    failed = cli("get", "notes/nope.md", "--trace-id", trace_id)
    assert failed.code != 0 and "Trace:" not in past.err + failed.err
    with open_gno() as gno:
        detail = gno.tracing.show(trace_id)
    opened = [(e.start_line, e.end_line) for e in detail.events if e.kind == "opened"]
    assert opened == [(3, 4)]
    assert detail.header.query_text == "alpha"


def test_trace_commands_list_show_label_delete_purge(cli: Cli) -> None:
    import json

    enable(cli, "replay")
    (first,) = TRACE.findall(cli.ok("search", "alpha").err)
    (second,) = TRACE.findall(cli.ok("query", "beta", "--fast").err)
    listed = cli.ok("trace", "list", "--json").json()
    assert [t["traceId"] for t in listed["traces"]] == [second, first]
    assert "alpha" not in cli.ok("trace", "list").out  # summaries never show the query
    shown = cli.ok("trace", "show", first, "--json").json()
    assert shown["trace"]["query"] == "alpha" and shown["totals"]["events"] == 2
    event = shown["events"][0]["eventId"]
    assert f"event {event} result" in cli.ok("trace", "show", first).out
    labelled = cli.ok("trace", "label", first, "relevant", "--event", str(event)).out
    assert json.loads(labelled)["created"] is True
    again = cli.ok("trace", "label", first, "relevant", "--event", str(event), "--json").json()
    assert again["created"] is False
    bad = cli("trace", "label", first, "missing_expected", "--document", "/etc/passwd")
    assert bad.code == 1 and "docid" in bad.err
    assert cli.ok("trace", "delete", second, "--json").json() == {
        "traceId": second,
        "deleted": True,
    }
    assert cli("trace", "purge").code == 1
    assert cli.ok("trace", "purge", "--yes", "--json").json() == {"deleted": 1}
    assert cli("trace", "show", first).code != 0


def test_export_and_replay_from_the_cli(cli: Cli) -> None:
    import json

    enable(cli, "replay")
    (trace_id,) = TRACE.findall(cli.ok("search", "alpha").err)
    shown = cli.ok("trace", "show", trace_id, "--json").json()
    first, second = (e["eventId"] for e in shown["events"][:2])
    cli.ok("trace", "label", trace_id, "irrelevant", "--event", str(first))
    cli.ok("trace", "label", trace_id, "relevant", "--event", str(second))
    refused = cli("trace", "export", trace_id, "--format", "qrels")
    assert refused.code == 1 and "open" in refused.err.lower()
    with open_gno() as gno:  # five minutes later, as far as the store can tell
        gno.handle.index.traces.finish(trace_id, "completed")
    out = cli.ok("trace", "export", trace_id, "--format", "qrels").out
    qrels = json.loads(out)
    assert [len(t["qrels"]) for t in qrels["traces"]] == [2]
    replay = cli.ok("trace", "replay", "--mode", "bm25", "--json").json()
    (item,) = replay["traces"]
    assert item["traceId"] == trace_id and item["outcome"] == "unchanged"
    assert "0 regressed" in cli.ok("trace", "replay", "--mode", "bm25").out


def test_done_when_an_agent_session_over_stdio_then_the_person_judges_exports_and_replays(
    cli: Cli,
) -> None:
    """Issue 27's done-when: an agent searches and reads over stdio with tracing on; the person
    lists, shows and labels its trace, exports the qrels and replays them."""
    import json
    import os
    import subprocess
    import sys

    enable(cli, "replay")
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(cli.home / "config"),
        "GNO_DATA_DIR": str(cli.home / "data"),
        "GNO_CACHE_DIR": str(cli.home / "cache"),
    }
    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "agent", "version": "1"},
    }
    frames = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "gno_search", "arguments": {"query": "alpha"}},
        },
    ]
    agent = subprocess.Popen(
        [sys.executable, "-m", "gno_cli.main", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        text=True,
    )
    assert agent.stdin is not None and agent.stdout is not None
    for frame in frames:
        agent.stdin.write(json.dumps(frame) + "\n")
    agent.stdin.flush()
    replies = [json.loads(agent.stdout.readline()) for _ in range(2)]
    searched = replies[1]["result"]
    trace_id = searched["_meta"]["gno"]["retrievalTrace"]["traceId"]
    top = searched["structuredContent"]["results"][0]
    get = {"ref": top["uri"], "fromLine": 3, "lineCount": 1, "traceId": trace_id}
    agent.stdin.write(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 3,
                "method": "tools/call",
                "params": {"name": "gno_get", "arguments": get},
            }
        )
        + "\n"
    )
    agent.stdin.flush()
    got = json.loads(agent.stdout.readline())["result"]
    assert got["_meta"]["gno"]["retrievalTrace"]["traceId"] == trace_id
    agent.stdin.close()
    assert agent.wait(timeout=60) == 0
    agent.stdout.close()

    # The person, afterwards.
    assert [t["traceId"] for t in cli.ok("trace", "list", "--json").json()["traces"]] == [trace_id]
    shown = cli.ok("trace", "show", trace_id, "--json").json()
    kinds = [e["kind"] for e in shown["events"]]
    assert kinds.count("opened") == 1 and shown["trace"]["query"] == "alpha"
    results = [e for e in shown["events"] if e["kind"] == "result"]
    cli.ok("trace", "label", trace_id, "irrelevant", "--event", str(results[0]["eventId"]))
    cli.ok("trace", "label", trace_id, "relevant", "--event", str(results[1]["eventId"]))
    with open_gno() as gno:  # the five-minute window, as the store sees it
        gno.handle.index.traces.finish(trace_id, "completed")
    qrels = json.loads(cli.ok("trace", "export", trace_id, "--format", "qrels").out)
    assert len(qrels["trec"]) == 2 and qrels["traces"][0]["status"] == "completed"
    replay = cli.ok("trace", "replay", "--mode", "bm25", "--json").json()
    assert replay["counts"]["unreplayable"] == 0 and len(replay["traces"]) == 1
