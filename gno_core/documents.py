"""Reading documents: one (``get``, a line range), several (``multi_get``, bounded), listings
(``ls``), tags, and resolving a reference — URI, ``collection/path`` or ``#docid``, possibly of
another index — to a stored document."""

from __future__ import annotations

import fnmatch
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from gno_core.contracts import document as document_contract
from gno_core.contracts.collections import TagCount, TagsList, TagsMeta
from gno_core.errors import NotFoundError, ValidationError
from gno_core.identity import parse_ref
from gno_core.retrieval.results import conversion_info, coordinate_space, source_info
from gno_core.text.validity import require_text

if TYPE_CHECKING:
    from collections.abc import Iterator

    from gno_core.contracts.document import SkipReason
    from gno_core.domain import StoredDocument
    from gno_core.index_handle import IndexHandle, IndexOpener

__all__ = ["MAX_MULTI_GET_REFS", "MAX_MULTI_GET_TOTAL_BYTES", "Documents", "Resolved"]

#: Refs (or pattern matches) one multi-get may name: a request can never make the server read
#: or answer for more documents than this.
MAX_MULTI_GET_REFS = 1000
#: Content bytes one multi-get may return in all; documents past it are skipped as
#: ``exceeds_maxBytes`` so that the answer stays bounded whatever the request holds.
MAX_MULTI_GET_TOTAL_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Resolved:
    """A reference resolved to a document of some index (``handle`` reads it)."""

    handle: IndexHandle
    document: StoredDocument
    line: int | None


class Documents:
    def __init__(self, handle: IndexHandle, open_index: IndexOpener | None = None) -> None:
        self.handle = handle
        self._open_index = open_index

    @contextmanager
    def resolved(self, ref: str) -> Iterator[Resolved]:
        """Resolve ``ref`` for the duration of the block; another index named by ``?index=``
        is opened for it and closed after. ``VALIDATION`` for a malformed ref, ``NOT_FOUND``
        for an unknown index or document."""
        parsed = parse_ref(ref)
        if parsed.index and parsed.index != self.handle.name.casefold():
            if self._open_index is None:
                raise NotFoundError(f"Index not found: {parsed.index}")
            other = self._open_index(parsed.index)
            try:
                with Documents(other).resolved(_without_index(ref, parsed.line)) as inner:
                    yield inner
            finally:
                other.close()
            return
        store = self.handle.index.documents
        if parsed.docid_prefix:
            matches = store.find_by_docid(parsed.docid_prefix)
            if not matches:
                raise NotFoundError(f"Document not found: #{parsed.docid_prefix}")
            yield Resolved(self.handle, matches[0], parsed.line)
            return
        assert parsed.collection is not None and parsed.rel_path is not None
        doc = store.get_document(parsed.collection, parsed.rel_path)
        if doc is None:
            raise NotFoundError(f"Document not found: {ref}")
        yield Resolved(self.handle, doc, parsed.line)

    def get(
        self, ref: str, *, from_line: int | None = None, line_count: int | None = None
    ) -> document_contract.GetResult:
        with self.resolved(ref) as resolved:
            handle, doc = resolved.handle, resolved.document
            markdown = handle.index.documents.markdown(doc.mirror_hash) or ""
            return _get_result(handle, doc, markdown, from_line or resolved.line, line_count)

    def multi_get(
        self, refs: list[str] | None = None, pattern: str | None = None, max_bytes: int = 10240
    ) -> document_contract.MultiGetResult:
        """Refs are de-duplicated and must name one index; at most ``MAX_MULTI_GET_REFS`` refs
        or matches, and documents past ``MAX_MULTI_GET_TOTAL_BYTES`` content bytes in all are
        skipped as ``exceeds_maxBytes``."""
        if bool(refs) == bool(pattern):
            raise ValidationError("Provide either refs or pattern, not both")
        if max_bytes < 1:
            raise ValidationError("maxBytes must be at least 1")
        if pattern:
            matches = self._glob(require_text(pattern, "pattern"))
            _check_batch_size(len(matches), "the pattern matches")
            batch = _Batch(max_bytes, requested=len(matches))
            for doc in matches:
                batch.add(f"{doc.collection}/{doc.rel_path}", self.handle, doc)
            return batch.result()
        unique = list(dict.fromkeys(refs or []))
        _check_batch_size(len(unique), "refs names")
        self._check_one_index(unique)
        batch = _Batch(max_bytes, requested=len(unique))
        for ref in unique:
            try:
                with self.resolved(ref) as resolved:
                    batch.add(ref, resolved.handle, resolved.document)
            except ValidationError as exc:
                batch.skip(ref, "invalid_ref", exc.message)
            except NotFoundError as exc:
                batch.skip(ref, "not_found", exc.message)
        return batch.result()

    def ls(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> document_contract.DocumentList:
        if collection:
            collection = self.handle.collection(collection).name
        docs = self.handle.index.documents.list_documents(collection=collection, prefix=prefix)
        shown = docs[:limit] if limit else docs
        return document_contract.DocumentList(
            documents=[
                document_contract.ListedDocument(
                    docid=d.docid, uri=self.handle.uri(d), title=d.meta.title, source=d.abs_path
                )
                for d in shown
            ],
            meta=document_contract.DocumentListMeta(
                total=len(docs), returned=len(shown), collection=collection, prefix=prefix
            ),
        )

    def tags(self, collection: str | None = None, prefix: str | None = None) -> TagsList:
        name = self.handle.collection(collection).name if collection else None
        norm_prefix = prefix.strip().lower() if prefix else None
        pairs = self.handle.index.documents.tag_counts(name, norm_prefix)
        return TagsList(
            tags=[TagCount(tag=t, count=c) for t, c in pairs],
            meta=TagsMeta(collection=name, prefix=norm_prefix, total_tags=len(pairs)),
        )

    def _glob(self, pattern: str) -> list[StoredDocument]:
        text = pattern.removeprefix("gno://")
        collection = text.split("/", 1)[0]
        scoped = collection if "*" not in collection and "?" not in collection else None
        docs = self.handle.index.documents.list_documents(
            collection=scoped.lower() if scoped else None
        )
        return [d for d in docs if fnmatch.fnmatchcase(f"{d.collection}/{d.rel_path}", text)]

    def _check_one_index(self, refs: list[str]) -> None:
        """The spec's rule: explicit refs of different indexes fail the whole call."""
        indexes: set[str] = set()
        for ref in refs:
            try:
                parsed = parse_ref(ref)
            except ValidationError:
                continue  # reported per ref as invalid_ref
            indexes.add(parsed.index or self.handle.name.casefold())
        if len(indexes) > 1:
            raise ValidationError(
                "All refs in one request must resolve to one index; split the batch by index "
                f"({', '.join(sorted(indexes))})",
                details={"indexes": sorted(indexes)},
            )


class _Batch:
    """A multi-get answer under construction, within its total byte budget."""

    def __init__(self, max_bytes: int, *, requested: int) -> None:
        self.max_bytes = max_bytes
        self.requested = requested
        self.budget = MAX_MULTI_GET_TOTAL_BYTES
        self.documents: list[document_contract.MultiGetDocument] = []
        self.skipped: list[document_contract.SkippedRef] = []
        self._seen: set[str] = set()

    def add(self, ref: str, handle: IndexHandle, doc: StoredDocument) -> None:
        uri = handle.uri(doc)
        if uri in self._seen:  # two spellings of one document: answer it once
            return
        self._seen.add(uri)
        markdown = handle.index.documents.markdown(doc.mirror_hash) or ""
        content, truncated = _cut(markdown, min(self.max_bytes, self.budget))
        if not content and markdown:
            self.skip(
                ref,
                "exceeds_maxBytes",
                f"this response reached its {MAX_MULTI_GET_TOTAL_BYTES}-byte budget; "
                "fetch the document separately or lower maxBytes",
            )
            return
        self.budget -= len(content.encode())
        self.documents.append(
            document_contract.MultiGetDocument(
                docid=doc.docid,
                uri=uri,
                title=doc.meta.title,
                content=content,
                truncated=truncated,
                total_lines=markdown.count("\n"),
                coordinate_space=coordinate_space(doc),
                source=source_info(doc),
            )
        )

    def skip(self, ref: str, reason: SkipReason, message: str) -> None:
        self.skipped.append(document_contract.SkippedRef(ref=ref, reason=reason, message=message))

    def result(self) -> document_contract.MultiGetResult:
        return document_contract.MultiGetResult(
            documents=self.documents,
            skipped=self.skipped,
            meta=document_contract.MultiGetMeta(
                requested=self.requested,
                returned=len(self.documents),
                skipped=len(self.skipped),
                max_bytes=self.max_bytes,
            ),
        )


def _get_result(
    handle: IndexHandle,
    doc: StoredDocument,
    markdown: str,
    from_line: int | None,
    line_count: int | None,
) -> document_contract.GetResult:
    lines = markdown.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    total = len(lines)
    start = from_line or 1
    if start < 1 or (line_count is not None and line_count < 1):
        raise ValidationError("fromLine and lineCount must be at least 1")
    if total and start > total:
        raise ValidationError(
            f"Line {start} is past the end of {handle.uri(doc)} ({total} lines)",
            details={"totalLines": total},
        )
    end = total if line_count is None else min(total, start + line_count - 1)
    partial = start != 1 or end != total
    if partial:
        content = "\n".join(lines[start - 1 : end]) + ("\n" if end >= start else "")
    else:
        content = markdown  # the whole mirror: no copy joined from its lines
    editable = doc.source_ext in (".md", ".markdown")
    return document_contract.GetResult(
        docid=doc.docid,
        uri=handle.uri(doc),
        title=doc.meta.title,
        content=content,
        total_lines=total,
        returned_lines=document_contract.LineSpan(start=start, end=end) if total else None,
        coordinate_space=coordinate_space(doc),
        language=doc.meta.language,
        source=source_info(doc),
        conversion=conversion_info(doc),
        capabilities=document_contract.Capabilities(
            editable=editable,
            tags_editable=editable,
            tags_writeback=editable,
            can_create_editable_copy=False,
            mode="editable" if editable else "read_only",
            reason=None if editable else "indexed as text; edit the source file",
        ),
        tags=list(doc.meta.tags) or None,
    )


def _without_index(ref: str, line: int | None) -> str:
    return ref.split("?", 1)[0] + (f":{line}" if line else "")


def _check_batch_size(count: int, what: str) -> None:
    if count > MAX_MULTI_GET_REFS:
        raise ValidationError(
            f"{what} {count} documents; at most {MAX_MULTI_GET_REFS} per call: split the batch "
            "or narrow the pattern",
            details={"count": count, "max": MAX_MULTI_GET_REFS},
        )


def _cut(markdown: str, max_bytes: int) -> tuple[str, bool]:
    data = markdown.encode("utf-8")
    if len(data) <= max_bytes:
        return markdown, False
    cut = data[:max_bytes].decode("utf-8", errors="ignore")
    newline = cut.rfind("\n")
    return (cut[: newline + 1] if newline > 0 else cut), True
