"""Memory records: normalisation, hashes, ids, scopes, the fact file round trip and every
diagnostic a broken file gets; fencing, receipts, matching and the recall budget."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_core.errors import MEMORY_CODES, MEMORY_ERRORS, MemoryFailure, memory_error
from gno_core.fact_files import (
    FactRecord,
    InvalidFact,
    content_hash,
    fact_path,
    fact_record_id,
    legacy_record_id,
    normalize_fact_text,
    normalize_scopes,
    read_fact,
    record_id,
    render_fact,
    require_fact_text,
)
from gno_core.memory.area import in_facts_area
from gno_core.memory.budget import Budget, estimate_tokens, take
from gno_core.memory.matching import jaccard, label
from gno_core.memory.receipts import Receipt, fence
from gno_core.text.frontmatter import split_frontmatter

YAML = YamlFrontmatterParser()
CREATED = "2026-12-01T10:00:00Z"


def fact(text: str = "The deploy window is Tuesday 14:00 UTC", **changes: Any) -> FactRecord:
    normal = normalize_fact_text(text)
    digest = content_hash(normal)
    values: dict[str, Any] = {
        "record_id": "",
        "text": normal,
        "scopes": ("project:gno", "ops"),
        "caller": "cli:alice",
        "session": "ppid:42",
        "created_at": CREATED,
        "content_hash": digest,
    }
    values.update(changes)
    record = FactRecord(**values)
    return record if record.record_id else replace(record, record_id=fact_record_id(record))


def parse(file_text: str, rel_path: str | None = None) -> FactRecord | InvalidFact:
    """The fact ``file_text`` states at ``rel_path`` (by default where its record id says)."""
    yaml, body = split_frontmatter(file_text)
    meta = dict(YAML.parse(yaml)) if yaml is not None else None
    if rel_path is None:
        stated = (meta or {}).get("memory")
        rid = stated.get("recordId") if isinstance(stated, dict) else None
        rel_path = fact_path(CREATED, rid) if isinstance(rid, str) else "facts/x.md"
    return read_fact(meta, body, rel_path)


def test_text_is_nfc_whitespace_collapsed_and_trimmed_before_hashing() -> None:
    assert normalize_fact_text("  Caf\u0065\u0301\n\tis   open ") == "Caf\u00e9 is open"
    assert content_hash("Café is open") == content_hash(" Cafe\u0301  is\nopen")
    assert content_hash("a b") != content_hash("a  c")


def test_fact_text_limits() -> None:
    with pytest.raises(MEMORY_ERRORS["MEMORY_TEXT_REQUIRED"]):
        require_fact_text(" \n\t")
    assert require_fact_text("é" * 2048) == "é" * 2048  # 4096 bytes exactly
    with pytest.raises(MEMORY_ERRORS["MEMORY_TEXT_TOO_LARGE"]) as caught:
        require_fact_text("é" * 2048 + "x")
    assert caught.value.details == {"bytes": 4097, "limit": 4096}
    for bad in ("nul \x00 here", "bell \x07", "del \x7f", "c1 \x9b", "half \ud800 pair"):
        with pytest.raises(MEMORY_ERRORS["MEMORY_TEXT_INVALID"]) as invalid:
            require_fact_text(bad)
        assert invalid.value.details["field"] == "text"
    # White space controls are collapsed like any white space, so they are no problem.
    assert require_fact_text("a\tb\x0bc\x1fd\x85e") == "a b c d e"


def test_record_id_and_path_are_derived_from_the_record() -> None:
    rid = record_id("h" * 64, CREATED, "cli:alice", "ppid:42", ["ops"])
    assert rid.startswith("mem-") and len(rid) == 20
    assert rid == record_id("h" * 64, CREATED, "cli:alice", "ppid:42", ("ops",))
    # Every field the file states is part of it.
    for other in (
        record_id("h" * 64, CREATED, "cli:alice", "ppid:43", ["ops"]),
        record_id("h" * 64, CREATED, "cli:alice", "ppid:42", ["ops", "team"]),
        record_id("h" * 64, CREATED, "cli:alice", "ppid:42", ["ops"], ["gno://m/facts/a.md"]),
        record_id("h" * 64, CREATED, "cli:alice", "ppid:42", ["ops"], (), "standup"),
        legacy_record_id("h" * 64, CREATED, "cli:alice", "ppid:42"),
    ):
        assert other != rid
    assert fact_path(CREATED, rid) == f"facts/2026-12-01/{rid}.md"
    assert fact_record_id(fact()) == fact().record_id


def test_the_facts_area_in_any_case() -> None:
    for inside in ("facts", "facts/", "facts/2026/x.md", "Facts/x.md", "FACTS", "/facts/a"):
        assert in_facts_area(inside), inside
    for outside in ("factsheet.md", "notes/facts/x.md", "fact/x.md", "inbox/facts"):
        assert not in_facts_area(outside), outside


def test_a_fact_remember_did_not_write_there_is_not_a_fact() -> None:
    record = fact()
    good = render_fact(record)
    home = fact_path(CREATED, record.record_id)
    assert parse(good, home) == record
    cases = {
        # Built by hand: a record id of the right shape that nothing derives.
        "MEMORY_RECORD_ID_MISMATCH": good.replace(record.record_id, "mem-0123456789abcdef"),
        # Widened to another scope, given a successor's role, or given a source by hand.
        "scopes": good.replace('"ops"]', '"ops", "home"]'),
        "supersedes": good.replace(
            "---\nThe", 'relations:\n  supersedes: ["gno://m/a.md"]\n---\nThe'
        ),
        "source": good.replace("  contentHash", '  source: "trust me"\n  contentHash'),
    }
    for name, text in cases.items():
        result = parse(text, home)
        assert isinstance(result, InvalidFact), name
        assert result.code == "MEMORY_RECORD_ID_MISMATCH", (name, result)
    # The same file at another path (a copy, a move) is not a fact either.
    for elsewhere in (f"facts/2026-12-01/{record.record_id}-copy.md", "facts/x.md"):
        moved = parse(good, elsewhere)
        assert isinstance(moved, InvalidFact) and moved.code == "MEMORY_PATH_MISMATCH"
    # A file of the previous format (its id over hash, time, caller and session) verifies.
    legacy = replace(
        record, record_id=legacy_record_id(record.content_hash, CREATED, "cli:alice", "ppid:42")
    )
    assert parse(render_fact(legacy), fact_path(CREATED, legacy.record_id)) == legacy


def test_scopes_are_normalised_and_bounded() -> None:
    assert normalize_scopes([" Project:GNO ", "ops", "project:gno", "Ä@x/y-z.1_2"]) == (
        "project:gno",
        "ops",
        "ä@x/y-z.1_2",
    )
    assert normalize_scopes(["a" * 64]) == ("a" * 64,)
    for bad in (["a" * 65], [""], ["-lead"], ["has space"], ["semi;colon"], [3]):
        with pytest.raises(MEMORY_ERRORS["MEMORY_SCOPES_INVALID"]):
            normalize_scopes(bad)  # type: ignore[arg-type]
    with pytest.raises(MEMORY_ERRORS["MEMORY_SCOPES_INVALID"]):
        normalize_scopes([f"s{i}" for i in range(9)])
    assert len(normalize_scopes([f"s{i}" for i in range(8)] + ["S0"])) == 8
    for empty in (None, []):
        with pytest.raises(MEMORY_ERRORS["MEMORY_SCOPES_REQUIRED"]):
            normalize_scopes(empty)


def test_a_rendered_fact_reads_back_as_the_same_record() -> None:
    record = fact(source='said "yes" at standup', supersedes=("gno://mem/facts/a.md",))
    text = render_fact(record)
    assert text.startswith('---\ntitle: "The deploy window is Tuesday 14:00 UTC"\nmemory:\n')
    assert text.endswith("---\nThe deploy window is Tuesday 14:00 UTC\n")
    assert parse(text) == record


@given(
    text=st.text(min_size=1, max_size=300).filter(lambda t: normalize_fact_text(t) != ""),
    scopes=st.lists(
        st.text(alphabet="abcxyz019._:/@-", min_size=1, max_size=20).filter(
            lambda s: s[0].isalnum()
        ),
        min_size=1,
        max_size=8,
    ),
    source=st.none() | st.text(max_size=80),
)
def test_any_fact_round_trips_through_its_file(
    text: str, scopes: list[str], source: str | None
) -> None:
    record = fact(text, scopes=normalize_scopes(scopes), source=source)
    assert parse(render_fact(record)) == record


def test_broken_files_get_their_diagnostic_and_never_a_record() -> None:
    good = render_fact(fact())
    body_only = "The deploy window is Tuesday 14:00 UTC\n"
    cases = {
        "MEMORY_FRONTMATTER_MISSING": body_only,
        "MEMORY_FRONTMATTER_INVALID": "---\ntitle: x\n---\n" + body_only,
        "MEMORY_RECORD_ID_INVALID": good.replace('recordId: "mem-', 'recordId: "rec-'),
        "MEMORY_SCOPES_EMPTY": good.replace('scopes: ["project:gno", "ops"]', "scopes: []"),
        "MEMORY_SCOPES_INVALID": good.replace('"ops"', '"bad scope"'),
        "MEMORY_IDENTITY_MISSING": good.replace('caller: "cli:alice"', 'caller: ""'),
        "MEMORY_CREATED_AT_INVALID": good.replace(CREATED, "yesterday"),
        "MEMORY_CONTENT_HASH_INVALID": good.replace("contentHash: ", 'contentHash: "x"\n  _: '),
        "MEMORY_BODY_EMPTY": good.replace(body_only, "\n"),
        "MEMORY_CONTENT_HASH_MISMATCH": good.replace("Tuesday 14:00", "Wednesday 9:00", 2),
        "MEMORY_SUPERSEDES_INVALID": good.replace(
            "---\nThe", 'relations:\n  supersedes: ["https://x"]\n---\nThe'
        ),
    }
    for code, text in cases.items():
        result = parse(text)
        assert isinstance(result, InvalidFact), code
        assert result.code == code, (code, result)
    mismatch = parse(cases["MEMORY_CONTENT_HASH_MISMATCH"])
    assert isinstance(mismatch, InvalidFact)
    assert content_hash("The deploy window is Wednesday 9:00 UTC") in mismatch.message


def test_a_title_edit_keeps_the_fact() -> None:
    edited = render_fact(fact()).replace('title: "The deploy', 'title: "Deploy')
    assert isinstance(parse(edited), FactRecord)


def test_every_memory_code_is_a_class_with_its_status_and_exit() -> None:
    assert len(MEMORY_CODES) == 22
    for code, (status, exit_code) in MEMORY_CODES.items():
        error = memory_error(code, "m", a=1)
        assert isinstance(error, MemoryFailure)
        assert (error.code, error.http_status, error.exit_code) == (code, status, exit_code)
        assert error.envelope() == {"error": {"code": code, "message": "m", "details": {"a": 1}}}
    assert MEMORY_ERRORS["MEMORY_SUPERSEDE_CONFLICT"].__name__ == "MemorySupersedeConflictError"
    assert MEMORY_CODES["MEMORY_SUPERSEDE_CONFLICT"] == (409, 4)


def test_receipt_digest_is_canonical_and_fencing_refuses_replays() -> None:
    receipt = Receipt.issue("mcp", "s1", CREATED, ["#a1", "#b2"], ["h2", "h1", "h2"])
    assert receipt.span_hashes == ("h1", "h2")
    wire = {
        "caller": "mcp",
        "session": "s1",
        "issuedAt": CREATED,
        "memoryIds": ["#a1", "#b2"],
        "spanHashes": ["h1", "h2"],
    }
    assert Receipt.from_wire(wire) == receipt
    assert receipt.digest == Receipt.from_wire(dict(reversed(wire.items()))).digest
    assert (
        receipt.digest != Receipt.issue("mcp", "s2", CREATED, ["#a1", "#b2"], ["h1", "h2"]).digest
    )
    with pytest.raises(MEMORY_ERRORS["MEMORY_FENCED_REPLAY"]):
        fence("h1", receipt)
    fence("h3", receipt)
    fence("h1", None)
    with pytest.raises(MEMORY_ERRORS["MEMORY_FENCED_DERIVED"]):
        fence("h3", None, ["notes from a call", " GNO://default/x.md"])
    fence("h3", None, ["https://example.org/x"])


def test_matching_labels() -> None:
    assert jaccard("The deploy window is Tuesday", "the DEPLOY window is tuesday!") == 1.0
    assert jaccard("a b c d", "a b x y") == pytest.approx(2 / 6)
    assert jaccard("", "") == 0.0
    assert label(0.2, "lexical", same_hash=True) == "exact"
    assert label(0.5, "lexical", same_hash=False) == "likely"
    assert label(0.49, "lexical", same_hash=False) == "weak"
    assert label(0.83, "semantic", same_hash=False) == "likely"
    assert label(0.82, "semantic", same_hash=False) == "weak"


def test_budget_takes_ranked_facts_that_fit() -> None:
    assert estimate_tokens("abcd") == 1 and estimate_tokens("abcde") == 2
    assert estimate_tokens("é" * 2) == 1
    texts = ["x" * 40, "y" * 400, "z" * 8, "w" * 8]
    chosen, used, omitted = take(texts, Budget(max_facts=8, max_tokens=13), str)
    assert chosen == ["x" * 40, "z" * 8] and used == 12 and omitted == 2
    chosen, used, omitted = take(texts, Budget(max_facts=1, max_tokens=8192), str)
    assert chosen == ["x" * 40] and omitted == 3
    assert Budget.of(None, None) == Budget(8, 512)
    for facts, tokens in ((0, 5), (65, 5), (5, 0), (5, 8193)):
        with pytest.raises(MEMORY_ERRORS["MEMORY_BUDGET_INVALID"]):
            Budget.of(facts, tokens)
