"""Fact records: the normalised text and its hash, record ids, scopes, and the Markdown file a
fact lives in (``facts/<YYYY-MM-DD>/mem-<16 hex>.md``), written and read back.

A fact file is ordinary Markdown with YAML frontmatter whose values are JSON strings and
arrays (valid YAML that any editor shows as written):

    ---
    title: "The deploy window is Tuesday 14:00 UTC"
    memory:
      recordId: "mem-0123456789abcdef"
      scopes: ["project:gno", "ops"]
      caller: "cli:alice"
      session: "ppid:4242"
      createdAt: "2026-12-01T10:00:00Z"
      contentHash: "<sha256 of the normalised text>"
      source: "standup notes"
    relations:
      supersedes: ["gno://memory/facts/2026-11-30/mem-....md"]
    ---
    The deploy window is Tuesday 14:00 UTC

A file that does not hold together is not a fact (``InvalidFact`` with a diagnostic code): it
stays searchable as text but is never recalled.

**Identity.** A fact file is written by ``remember`` alone. Its ``recordId`` is derived from
everything the file states (``record_id``: the content hash, creation time, caller, session,
scopes, supersedes and source) and its path from the record id and the date
(``fact_path``), and ingest derives both again: a file built by hand, edited since, or copied
to another path does not verify (``MEMORY_RECORD_ID_MISMATCH``, ``MEMORY_PATH_MISMATCH``) and
is reported, never recalled. Files written before the id covered scopes, supersedes and source
carry ``legacy_record_id`` (hash, time, caller, session) and still verify with it.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from gno_core.errors import MemoryFailure, ValidationError, memory_error
from gno_core.facts import FactRecord, InvalidFact
from gno_core.identity import parse_uri

__all__ = [
    "MAX_FACT_BYTES",
    "MAX_SCOPES",
    "FactRecord",
    "InvalidFact",
    "content_hash",
    "fact_path",
    "fact_record_id",
    "is_fact_path",
    "legacy_record_id",
    "normalize_fact_text",
    "normalize_scopes",
    "read_fact",
    "record_id",
    "render_fact",
]

MAX_FACT_BYTES = 4096
MAX_SCOPES = 8
MAX_SCOPE_CHARS = 64
_SCOPE_PUNCTUATION = frozenset("._:/@-")
_WHITESPACE = re.compile(r"\s+")
_RECORD_ID = re.compile(r"mem-[0-9a-f]{16}")
_HASH = re.compile(r"[0-9a-f]{64}")
# Characters YAML does not accept raw in a double-quoted scalar (outside its printable set),
# and the ones YAML 1.1 readers take as line breaks; JSON leaves them raw, so they are escaped.
_YAML_UNSAFE = re.compile("[\x7f-\x84\x86-\x9f\x85\u2028\u2029\ud800-\udfff\ufffe\uffff]")
#: What normalised fact text may not hold: the controls the canonical mirror drops (so the text
#: indexed would not be the text hashed; NUL makes the file unindexable) and lone surrogates
#: (no UTF-8 form).
_UNSTORABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")


def _escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def normalize_fact_text(text: str) -> str:
    """NFC, every run of white space one space, trimmed: the form that is hashed and stored."""
    return _WHITESPACE.sub(" ", unicodedata.normalize("NFC", text)).strip()


def content_hash(text: str) -> str:
    """SHA-256 (hex) of the normalised ``text``."""
    return hashlib.sha256(normalize_fact_text(text).encode("utf-8")).hexdigest()


def require_fact_text(text: str | None) -> str:
    """The normalised fact text; ``MEMORY_TEXT_REQUIRED``, ``MEMORY_TEXT_INVALID`` (a NUL or
    other control character, a lone surrogate) or ``MEMORY_TEXT_TOO_LARGE``."""
    normal = normalize_fact_text(text or "")
    if not normal:
        raise memory_error("MEMORY_TEXT_REQUIRED", "A fact needs text")
    bad = _UNSTORABLE.search(normal)
    if bad is not None:
        raise memory_error(
            "MEMORY_TEXT_INVALID",
            f"A fact is text: U+{ord(bad.group()):04X} at character {bad.start()} is a control "
            "character or half a surrogate pair, which a fact file cannot store",
            field="text",
            position=bad.start(),
        )
    size = len(normal.encode("utf-8"))
    if size > MAX_FACT_BYTES:
        raise memory_error(
            "MEMORY_TEXT_TOO_LARGE",
            f"A fact is at most {MAX_FACT_BYTES} bytes of UTF-8 ({size} given): state one fact, "
            "and keep documents for gno capture",
            bytes=size,
            limit=MAX_FACT_BYTES,
        )
    return normal


def normalize_scopes(scopes: Iterable[str] | None) -> tuple[str, ...]:
    """Trimmed, lower-cased, NFC, de-duplicated scopes in first-seen order: 1 to 8 of them, each
    at most 64 characters, starting with a letter or digit, then letters, digits or ``._:/@-``.
    There is no implicit global scope. ``MEMORY_SCOPES_REQUIRED`` / ``MEMORY_SCOPES_INVALID``."""
    given = list(scopes or ())
    if not given:
        raise memory_error(
            "MEMORY_SCOPES_REQUIRED", "Name at least one scope (there is no global scope)"
        )
    out: dict[str, None] = {}
    for raw in given:
        if not isinstance(raw, str):
            raise memory_error("MEMORY_SCOPES_INVALID", "Scopes are strings", scope=repr(raw))
        scope = unicodedata.normalize("NFC", raw.strip().lower())
        if not _valid_scope(scope):
            raise memory_error(
                "MEMORY_SCOPES_INVALID",
                f"Invalid scope {raw!r}: 1-{MAX_SCOPE_CHARS} characters, a letter or digit "
                "first, then letters, digits or . _ : / @ -",
                scope=raw,
            )
        out[scope] = None
    if len(out) > MAX_SCOPES:
        raise memory_error(
            "MEMORY_SCOPES_INVALID",
            f"At most {MAX_SCOPES} scopes ({len(out)} given)",
            count=len(out),
        )
    return tuple(out)


def _valid_scope(scope: str) -> bool:
    if not scope or len(scope) > MAX_SCOPE_CHARS or not scope[0].isalnum():
        return False
    return all(ch.isalnum() or ch in _SCOPE_PUNCTUATION for ch in scope)


def record_id(
    content: str,
    created_at: str,
    caller: str,
    session: str,
    scopes: Sequence[str],
    supersedes: Sequence[str] = (),
    source: str | None = None,
) -> str:
    """``mem-`` and the first 16 hex of SHA-256 over everything a fact file states: the JSON
    array (ASCII, no spaces) ``["gno-fact/2", content hash, creation time, caller, session,
    [scopes], [supersedes], source or null]``."""
    seed = json.dumps(
        [
            "gno-fact/2",
            content,
            created_at,
            caller,
            session,
            list(scopes),
            list(supersedes),
            source,
        ],
        ensure_ascii=True,
        separators=(",", ":"),
    )
    return "mem-" + hashlib.sha256(seed.encode("ascii")).hexdigest()[:16]


def legacy_record_id(content: str, created_at: str, caller: str, session: str) -> str:
    """The record id of a fact written before the id covered scopes, supersedes and source:
    ``mem-`` and the first 16 hex of SHA-256 over the content hash, creation time, caller and
    session, one per line. Such files still verify with it."""
    seed = "\n".join((content, created_at, caller, session))
    return "mem-" + hashlib.sha256(seed.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def fact_record_id(record: FactRecord) -> str:
    """The record id ``remember`` gives ``record`` (``record_id`` of its fields)."""
    return record_id(
        record.content_hash,
        record.created_at,
        record.caller,
        record.session,
        record.scopes,
        record.supersedes,
        record.source,
    )


def is_fact_path(rel_path: str) -> bool:
    """Whether a memory collection reads the file at ``rel_path`` as a fact record."""
    return rel_path.startswith("facts/") and rel_path.lower().endswith(".md")


def fact_path(created_at: str, rid: str) -> str:
    """Where a fact lives in its collection: ``facts/<YYYY-MM-DD>/<record id>.md``."""
    return f"facts/{created_at[:10]}/{rid}.md"


def render_fact(record: FactRecord) -> str:
    """The Markdown file of ``record`` (frontmatter values as JSON strings and arrays)."""

    def js(value: object) -> str:
        return _YAML_UNSAFE.sub(_escape, json.dumps(value, ensure_ascii=False))

    lines = [
        "---",
        f"title: {js(record.title)}",
        "memory:",
        f"  recordId: {js(record.record_id)}",
        f"  scopes: {js(list(record.scopes))}",
        f"  caller: {js(record.caller)}",
        f"  session: {js(record.session)}",
        f"  createdAt: {js(record.created_at)}",
        f"  contentHash: {js(record.content_hash)}",
    ]
    if record.source is not None:
        lines.append(f"  source: {js(record.source)}")
    if record.supersedes:
        lines += ["relations:", f"  supersedes: {js(list(record.supersedes))}"]
    lines += ["---", record.text, ""]
    return "\n".join(lines)


def read_fact(
    frontmatter: Mapping[str, Any] | None, body: str, rel_path: str
) -> FactRecord | InvalidFact:
    """The fact the file at ``rel_path`` states (its parsed frontmatter and the body after it),
    or why it is not one: a file ``remember`` did not write there as it is (its record id or
    its path does not verify) is not one either. Never raises: a hand-edited or broken file is
    a diagnostic, not a failure."""
    if not frontmatter:
        return InvalidFact("MEMORY_FRONTMATTER_MISSING", "No frontmatter")
    memory = frontmatter.get("memory")
    if not isinstance(memory, Mapping):
        return InvalidFact("MEMORY_FRONTMATTER_INVALID", "No 'memory:' mapping")
    rid = memory.get("recordId")
    if not isinstance(rid, str) or not _RECORD_ID.fullmatch(rid):
        return InvalidFact("MEMORY_RECORD_ID_INVALID", f"recordId is not mem-<16 hex>: {rid!r}")
    scopes = memory.get("scopes")
    if not isinstance(scopes, list) or not scopes:
        return InvalidFact("MEMORY_SCOPES_EMPTY", "scopes is missing or empty")
    try:
        normal_scopes = normalize_scopes(scopes)
    except MemoryFailure as exc:
        return InvalidFact("MEMORY_SCOPES_INVALID", exc.message)
    caller, session = memory.get("caller"), memory.get("session")
    if not (isinstance(caller, str) and caller.strip()) or not (
        isinstance(session, str) and session.strip()
    ):
        return InvalidFact("MEMORY_IDENTITY_MISSING", "caller or session is missing")
    created = memory.get("createdAt")
    if not isinstance(created, str) or not _is_iso_datetime(created):
        return InvalidFact(
            "MEMORY_CREATED_AT_INVALID", f"createdAt is not a date-time: {created!r}"
        )
    stated = memory.get("contentHash")
    if not isinstance(stated, str) or not _HASH.fullmatch(stated):
        return InvalidFact("MEMORY_CONTENT_HASH_INVALID", "contentHash is not a SHA-256 hex")
    text = normalize_fact_text(body)
    if not text:
        return InvalidFact("MEMORY_BODY_EMPTY", "The fact's text is empty")
    actual = content_hash(text)
    if actual != stated:
        return InvalidFact(
            "MEMORY_CONTENT_HASH_MISMATCH",
            f"The text changed since the fact was written (its hash is now {actual}): restore "
            "it, and state a new fact with gno remember --supersede",
        )
    supersedes = _supersedes(frontmatter.get("relations"))
    if supersedes is None:
        return InvalidFact(
            "MEMORY_SUPERSEDES_INVALID", "relations.supersedes is not a list of gno:// URIs"
        )
    source = memory.get("source")
    record = FactRecord(
        record_id=rid,
        text=text,
        scopes=normal_scopes,
        caller=caller,
        session=session,
        created_at=created,
        content_hash=actual,
        source=source if isinstance(source, str) else None,
        supersedes=supersedes,
    )
    return _verified(record, rel_path)


def _verified(record: FactRecord, rel_path: str) -> FactRecord | InvalidFact:
    """``record`` when ``remember`` wrote it at ``rel_path``: its id derives from what it states
    (or, for a file of the previous format, from its hash, time, caller and session) and its
    path from its id and date."""
    rid = record.record_id
    legacy = legacy_record_id(record.content_hash, record.created_at, record.caller, record.session)
    if rid not in (fact_record_id(record), legacy):
        return InvalidFact(
            "MEMORY_RECORD_ID_MISMATCH",
            f"recordId {rid} is not the id of what this file states: it was not written by "
            "gno remember, or edited since (state facts with gno remember; to change one, "
            "remember the new text with --supersede)",
        )
    expected = fact_path(record.created_at, rid)
    if rel_path != expected:
        return InvalidFact(
            "MEMORY_PATH_MISMATCH",
            f"Fact {rid} lives at {expected}, not here: a copy or a move is not a fact",
        )
    return record


def _supersedes(relations: object) -> tuple[str, ...] | None:
    if relations is None:
        return ()
    if not isinstance(relations, Mapping):
        return None
    value = relations.get("supersedes")
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(u, str) for u in value):
        return None
    try:
        for uri in value:
            parse_uri(uri)
    except ValidationError:
        return None
    return tuple(value)


def _is_iso_datetime(value: str) -> bool:
    try:
        datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return False
    return "T" in value
