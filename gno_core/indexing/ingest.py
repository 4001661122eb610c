"""Ingest of one source file: bytes to an ``IndexedDocument`` (mirror, meta, chunks), or a typed
``IngestError`` that sync records as an ``IngestFailure``.

Markdown (``.md .markdown .mdx``) goes through ``native/markdown``: canonical mirror of the whole
source (frontmatter and every blank line included, so line N of the mirror is line N of the
file), meta from the frontmatter.
PDF, DOCX, XLSX, PPTX, HTML and ODT go through the ``DocumentConverter`` port when one is
given (``convert/<library>``): its Markdown, canonicalized with blank runs collapsed, is the
mirror (mirror coordinates, not the file's); title from the
document or the file name. Everything else the walker lets through is text
(``native/plaintext``): canonical mirror, title = file name, code files chunked at structural
boundaries. A file whose frontmatter is malformed is
recorded as a ``FRONTMATTER`` failure and not indexed: indexing it without its meta would give it
the wrong title, tags and dates with nothing to tell the user.
"""

from __future__ import annotations

import hashlib
import posixpath
from collections.abc import Callable
from typing import Any

from gno_core.config import ChunkingConfig, CollectionConfig, IngestConfig
from gno_core.domain import DocumentMeta, ExtractedLink, IndexedDocument, SourceFile
from gno_core.errors import GnoError, IngestError
from gno_core.fact_files import is_fact_path, read_fact
from gno_core.facts import FactRecord, InvalidFact
from gno_core.indexing.inline_tags import inline_tags
from gno_core.links.extract import extract_links
from gno_core.links.names import document_names
from gno_core.metadata.extract import DocumentMetadata, extract_metadata
from gno_core.ports.converters import ConvertLimits, DocumentConverter
from gno_core.ports.files import FrontmatterParser
from gno_core.text.canonical import canonicalize, mirror_hash
from gno_core.text.chunking import CHARS_PER_TOKEN, CODE_EXTENSIONS, chunk_text
from gno_core.text.frontmatter import aliases, document_meta, split_frontmatter
from gno_core.text.language import detect_language

__all__ = [
    "BINARY",
    "CONVERTED_EXTENSIONS",
    "CONVERTER_MISSING",
    "CONVERTER_VERSION",
    "ENCODING",
    "FRONTMATTER",
    "MARKDOWN_CONVERTER",
    "MARKDOWN_EXTENSIONS",
    "PLAINTEXT_CONVERTER",
    "TOO_LARGE",
    "UNREADABLE",
    "build_document",
    "convert_limits",
    "extractor_for",
    "mime_type",
]

BINARY = "BINARY"
ENCODING = "ENCODING"
TOO_LARGE = "TOO_LARGE"
UNREADABLE = "UNREADABLE"
FRONTMATTER = "FRONTMATTER"

MARKDOWN_CONVERTER = "native/markdown"
PLAINTEXT_CONVERTER = "native/plaintext"
CONVERTER_VERSION = "1"
MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown", ".mdx"})
#: Formats that are only indexed through a converter (HTML without one is indexed as text).
CONVERTED_EXTENSIONS = frozenset({".pdf", ".docx", ".xlsx", ".pptx", ".odt"})
#: A file whose converter library is not installed (the ``convert`` extra).
CONVERTER_MISSING = "CONVERTER_MISSING"
#: Bytes inspected for a NUL byte, the mark of a binary file.
BINARY_SNIFF_BYTES = 8192

_MIME: dict[str, str] = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".mdx": "text/markdown",
    ".txt": "text/plain",
    ".text": "text/plain",
    ".log": "text/plain",
    ".rst": "text/x-rst",
    ".org": "text/x-org",
    ".adoc": "text/asciidoc",
    ".csv": "text/csv",
    ".tsv": "text/tab-separated-values",
    ".json": "application/json",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".toml": "application/toml",
    ".xml": "application/xml",
    ".html": "text/html",
    ".htm": "text/html",
    ".css": "text/css",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".cjs": "text/javascript",
    ".sql": "application/sql",
    ".tex": "application/x-tex",
    ".pdf": "application/pdf",
    ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    ".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    ".pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ".odt": "application/vnd.oasis.opendocument.text",
}


def mime_type(ext: str) -> str:
    """MIME type by extension (lowercase, with the dot); unknown text is ``text/plain``."""
    return _MIME.get(ext, "text/plain")


def extractor_for(ext: str, converter: DocumentConverter | None) -> tuple[str, str]:
    """``(converter_id, converter_version)`` that ``build_document`` would stamp on a file with
    extension ``ext`` (lowercase, with the dot) given ``converter``: sync compares it with the
    stored document's to notice a converter installed, removed or upgraded."""
    if converter is not None and ext in converter.extensions():
        return converter.identity(ext)
    if ext in MARKDOWN_EXTENSIONS:
        return MARKDOWN_CONVERTER, CONVERTER_VERSION
    return PLAINTEXT_CONVERTER, CONVERTER_VERSION


def build_document(
    collection: CollectionConfig,
    source: SourceFile,
    data: bytes,
    parser: FrontmatterParser,
    chunking: ChunkingConfig,
    *,
    source_hash: str | None = None,
    converter: DocumentConverter | None = None,
    limits: ConvertLimits | None = None,
) -> IndexedDocument:
    """The indexed form of ``data``, the bytes of ``source``. ``source_hash`` (SHA-256 hex of
    ``data``) is computed when not given. Raises ``IngestError`` (BINARY, ENCODING, FRONTMATTER,
    and the converter's reasons)."""
    rel_path = source.rel_path
    name = posixpath.basename(rel_path)
    ext = posixpath.splitext(name)[1].lower()
    converter_id, converter_version = PLAINTEXT_CONVERTER, CONVERTER_VERSION
    converted = None
    if converter is not None and ext in converter.extensions():
        converted = converter.convert(data, ext, rel_path, limits or ConvertLimits())
        markdown = canonicalize(converted.markdown, collapse_blank_lines=True)
        converter_id, converter_version = converted.converter_id, converted.converter_version
    elif ext in CONVERTED_EXTENSIONS:
        raise IngestError(
            CONVERTER_MISSING,
            f"No converter for {ext} files is installed: pip install 'gno[convert]'",
            rel_path=rel_path,
        )
    else:
        markdown = canonicalize(decode_text(data, rel_path))
    is_markdown = ext in MARKDOWN_EXTENSIONS
    links: tuple[ExtractedLink, ...] = ()
    fact: FactRecord | InvalidFact | None = None
    metadata = DocumentMetadata()
    if converted is not None:
        meta = DocumentMeta(title=converted.title or name, language=detect_language(markdown))
        names = document_names(rel_path, converted.title, ())
    elif is_markdown:
        converter_id = MARKDOWN_CONVERTER
        yaml, body = split_frontmatter(markdown)
        front: dict[str, Any] = {}
        # Fact records are read in every collection (cheap, and a collection made a memory
        # later needs no re-sync); only a memory collection keeps a broken one's text.
        is_fact = is_fact_path(rel_path)
        if yaml is not None:
            try:
                front = dict(parser.parse(yaml))
            except GnoError as exc:
                if not (is_fact and collection.memory_managed):
                    raise IngestError(FRONTMATTER, exc.message, rel_path=rel_path) from exc
                # A broken fact file is a diagnostic, and its text stays searchable.
                fact = InvalidFact("MEMORY_FRONTMATTER_INVALID", exc.message)
        if is_fact and fact is None:
            fact = read_fact(front if yaml is not None else None, body, rel_path)
        stem = posixpath.splitext(name)[0] or name
        meta = document_meta(front, body, stem, detect_language(body))
        metadata = extract_metadata(front)
        body_line = markdown.count("\n", 0, len(markdown) - len(body)) + 1
        body_tags = inline_tags(markdown, body_line)
        if body_tags:
            meta = meta._replace(tags=tuple(dict.fromkeys((*meta.tags, *body_tags))))
        links = extract_links(markdown, rel_path, front, body_line)
        names = document_names(rel_path, meta.title, aliases(front))
    else:
        meta = DocumentMeta(title=name, language=detect_language(markdown))
        names = document_names(rel_path, None, ())
    chunks = chunk_text(
        markdown,
        chunking.max_tokens,
        chunking.overlap_percent,
        code=ext in CODE_EXTENSIONS,
        language=_chunk_language(markdown, meta.language, chunking),
    )
    return IndexedDocument(
        collection=collection.name,
        rel_path=rel_path,
        abs_path=source.abs_path,
        source_hash=source_hash or hashlib.sha256(data).hexdigest(),
        source_mime=mime_type(ext),
        source_ext=ext,
        source_size=source.size,
        source_mtime_ns=source.mtime_ns,
        mirror_hash=mirror_hash(markdown),
        markdown=markdown,
        chunks=chunks,
        meta=meta,
        converter_id=converter_id,
        converter_version=converter_version,
        converter_warnings=converted.warnings if converted is not None else (),
        links=links,
        names=names,
        fact=fact,
        chunking=chunking.policy_key(),
        metadata=metadata,
    )


def convert_limits(ingest: IngestConfig) -> ConvertLimits:
    """The conversion bounds of ``ingest`` config."""
    return ConvertLimits(
        seconds=ingest.convert_seconds,
        memory_bytes=ingest.convert_memory_mb * 1024 * 1024,
        pages=ingest.max_pages,
        cells=ingest.max_cells,
        unzipped_bytes=ingest.max_unzipped_bytes,
    )


def _chunk_language(
    markdown: str, language: str | None, chunking: ChunkingConfig
) -> Callable[[str], str | None]:
    """Per-chunk language: the document's when it fits one chunk, else detected per chunk with
    the document's as the fallback."""
    if len(markdown) <= chunking.max_tokens * CHARS_PER_TOKEN:
        return lambda _text: language
    return lambda text: detect_language(text) or language


def decode_text(data: bytes, rel_path: str) -> str:
    """Source bytes as text: UTF-8 (BOM allowed), or UTF-16 when it starts with a UTF-16 BOM.
    Raises ``IngestError`` BINARY for a NUL byte in the first 8 KiB, ENCODING otherwise."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise IngestError(
                ENCODING, f"Invalid UTF-16 at byte {exc.start}", rel_path=rel_path
            ) from exc
    if b"\x00" in data[:BINARY_SNIFF_BYTES]:
        raise IngestError(BINARY, "Binary file (NUL byte in the first 8 KiB)", rel_path=rel_path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise IngestError(
            ENCODING, f"Not valid UTF-8 (byte {exc.start}: {exc.reason})", rel_path=rel_path
        ) from exc
