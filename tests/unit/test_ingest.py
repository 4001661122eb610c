"""``build_document``: converters, decoding, failure codes, meta and chunk wiring."""

from __future__ import annotations

import hashlib

import pytest

from gno_adapters.files.frontmatter import YamlFrontmatterParser
from gno_core.config import ChunkingConfig, CollectionConfig
from gno_core.domain import IndexedDocument, SourceFile
from gno_core.errors import IngestError
from gno_core.indexing.ingest import build_document, mime_type
from gno_core.text.canonical import mirror_hash

COLLECTION = CollectionConfig(name="notes", path="/notes")


def _build(rel: str, data: bytes, max_tokens: int = 800) -> IndexedDocument:
    source = SourceFile(rel, "/notes/" + rel, len(data), 1)
    return build_document(
        COLLECTION, source, data, YamlFrontmatterParser(), ChunkingConfig(max_tokens=max_tokens)
    )


def test_markdown_document() -> None:
    data = b"\xef\xbb\xbf---\r\ntitle: T\r\ntags: a, b\r\n---\r\n# H\r\n\r\nThe body is here and it is fine.\r\n"
    doc = _build("dir/note.md", data)
    assert (
        doc.markdown == "---\ntitle: T\ntags: a, b\n---\n# H\n\nThe body is here and it is fine.\n"
    )
    assert doc.mirror_hash == mirror_hash(doc.markdown)
    assert (doc.converter_id, doc.converter_version) == ("native/markdown", "1")
    assert (doc.source_mime, doc.source_ext, doc.meta.title) == ("text/markdown", ".md", "T")
    assert doc.meta.tags == ("a", "b") and doc.meta.language == "en"
    (chunk,) = doc.chunks
    assert (chunk.start_line, chunk.end_line, chunk.language) == (1, 7, "en")
    assert doc.source_hash == hashlib.sha256(data).hexdigest()


def test_text_and_code_documents() -> None:
    txt = _build("log/today.TXT", b"plain words\n")
    assert (txt.meta.title, txt.converter_id, txt.source_ext) == (
        "today.TXT",
        "native/plaintext",
        ".txt",
    )
    code = "\n\n".join(f"def f{i}():\n" + "    return 1\n" * 12 for i in range(10)).encode()
    py = _build("tool.py", code, max_tokens=60)
    assert py.source_mime == "text/plain"
    assert all(c.text.startswith("def f") for c in py.chunks)


def test_frontmatter_is_only_read_in_markdown() -> None:
    doc = _build("notes.txt", b"---\ntitle: [broken\n---\n")
    assert doc.meta.title == "notes.txt"


@pytest.mark.parametrize(
    ("rel", "data", "reason"),
    [
        ("a.md", b"abc\x00def", "BINARY"),
        ("a.md", b"caf\xe9\n", "ENCODING"),
        ("a.md", b"---\ntitle: [x\n---\n", "FRONTMATTER"),
        ("a.md", b"---\ntitle: x\n- a list\n---\n", "FRONTMATTER"),
    ],
)
def test_failures(rel: str, data: bytes, reason: str) -> None:
    with pytest.raises(IngestError) as info:
        _build(rel, data)
    assert info.value.reason == reason and info.value.details["code"] == reason
    assert info.value.message


def test_nul_after_the_sniffed_prefix_is_text() -> None:
    doc = _build("late.md", b"a" * 9000 + b"\x00tail\n")
    assert "\x00" not in doc.markdown


def test_utf16_with_bom() -> None:
    doc = _build("wide.md", "# Wide\n\nGrüße\n".encode("utf-16"))
    assert doc.markdown == "# Wide\n\nGrüße\n" and doc.meta.title == "Wide"


def test_mime_types() -> None:
    assert mime_type(".md") == "text/markdown"
    assert mime_type(".json") == "application/json"
    assert mime_type(".unknown") == "text/plain"
