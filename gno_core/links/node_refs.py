"""The forms the spec gives a node of the graph projection (``gno_graph_neighbors``,
``gno_graph_path``) beyond a document reference: a bare ``relPath`` or an exact title, found in
``collection`` or in every configured collection. Several documents with that path or title are
an ambiguity the caller resolves with a reference, never a guess."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gno_core.errors import ValidationError
from gno_core.identity import make_uri
from gno_core.links.names import fold

if TYPE_CHECKING:
    from gno_core.index_handle import IndexHandle

Key = tuple[str, str]


def named_node(handle: IndexHandle, ref: str, collection: str | None) -> Key | None:
    """The one active document whose collection-relative path is ``ref`` (else whose title is
    exactly ``ref``) in ``collection`` or any collection; None when there is none;
    ``VALIDATION`` naming them when there are several."""
    wanted = ref.strip()
    if not wanted:
        return None
    names = (
        [collection]
        if collection is not None
        else [c.name for c in handle.load_config().collections]
    )
    documents = handle.index.documents
    found = [(name, wanted) for name in names if documents.get_document(name, wanted) is not None]
    if not found:
        key = fold(wanted)
        titled = {
            (hit.document.collection, hit.document.rel_path)
            for name in names
            for hit in handle.index.links.candidates(name, [key])
            if hit.kind == "title"
        }
        for doc in documents.get_documents(sorted(titled)):
            if (doc.meta.title or "").strip() == wanted:
                found.append((doc.collection, doc.rel_path))
    if len(found) > 1:
        uris = sorted(make_uri(name, path, handle.name) for name, path in found)
        raise ValidationError(
            f"{ref!r} names {len(found)} documents ({', '.join(uris)}): give one as a "
            "gno:// URI, collection/path or #docid, or narrow it with collection",
            details={"ref": ref, "matches": uris},
        )
    return found[0] if found else None
