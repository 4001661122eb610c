"""A fake ``Gno`` facade for the MCP wire tests, and a stdio entry that serves it.

Run as a script (``python tests/wire/mcp_fakes.py [--tool-profile core] [--enable-write]``) it
is an MCP stdio server over two small in-memory documents. ``GNO_FAKE_CALL_LOG`` names a file
that gets one line per facade call (so tests can prove a cancelled call never ran);
a search for ``slow`` sleeps ``GNO_FAKE_SLOW_SECONDS`` (default 1.5) first.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from gno_core.errors import NotFoundError, RuntimeFailure, ValidationError
from gno_core.identity import parse_ref
from gno_core.model import (
    Capabilities,
    ChunkingPolicy,
    CollectionStatus,
    ExplainLine,
    GetResult,
    LineSpan,
    MultiGetDocument,
    MultiGetMeta,
    MultiGetResult,
    Peek,
    PeekBacklog,
    PeekCounts,
    PeekRecent,
    PeekServe,
    ResidentStatus,
    SearchMeta,
    SearchResult,
    SearchResults,
    SimilarDocument,
    SimilarMeta,
    SimilarResults,
    SkippedRef,
    SourceInfo,
    Status,
    StatusCapabilities,
    TagCount,
    TagsList,
    TagsMeta,
)
from gno_core.model.requests import QueryRequest, SearchRequest

DOCS = {
    ("notes", "alpha.md"): (
        "#a1b2c3d4",
        "Alpha",
        "# Alpha\n\nFoam notes link ideas.\nSecond line.\n",
    ),
    ("notes", "sub dir/beta.md"): ("#b2c3d4e5", "Beta", "# Beta\n\nAnother note.\n"),
}
TAGS = [("work", 2), ("work/project", 1), ("personal", 1)]


class FakeGno:
    """Answers like the real facade over ``DOCS``; records every call."""

    index_name = "default"

    def __init__(self) -> None:
        self._log = os.environ.get("GNO_FAKE_CALL_LOG")

    def _record(self, what: str) -> None:
        if self._log:
            with open(self._log, "a", encoding="utf-8") as fh:
                fh.write(what + "\n")

    def _find(self, ref: str) -> tuple[tuple[str, str], int | None]:
        parsed = parse_ref(ref)
        if parsed.index and parsed.index != "default":
            raise NotFoundError(f"Index not found: {parsed.index}")
        for key, (docid, _, _) in DOCS.items():
            if parsed.docid_prefix and docid[1:].startswith(parsed.docid_prefix):
                return key, parsed.line
            if (parsed.collection, parsed.rel_path) == key:
                return key, parsed.line
        raise NotFoundError(f"Document not found: {ref}")

    def search(self, request: SearchRequest) -> SearchResults:
        self._record(f"search {request.query}")
        if request.query == "slow":
            time.sleep(float(os.environ.get("GNO_FAKE_SLOW_SECONDS", "1.5")))
        if request.query == "noisy":
            print("noise from print()")
            os.write(1, b"noise from fd 1\n")
        if request.collection and request.collection != "notes":
            raise NotFoundError(f"Collection not found: {request.collection}")
        hits = [
            SearchResult(
                docid=docid,
                score=1.0 if i == 0 else 0.5,
                uri=_uri(key),
                line=3,
                title=title,
                snippet="Foam notes link ideas.",
                source=_source(key),
            )
            for i, (key, (docid, title, _)) in enumerate(DOCS.items())
        ][: request.limit]
        return SearchResults(
            results=hits, meta=SearchMeta(query=request.query, mode="bm25", total_results=len(hits))
        )

    def vsearch(self, request: SearchRequest) -> SearchResults:
        self._record(f"vsearch {request.query}")
        if request.query == "novectors":
            raise RuntimeFailure(
                "No vectors for sentence-transformers/all-MiniLM-L6-v2 in this index yet: run "
                "`gno embed` (or `gno index`) first"
            )
        results = self.search(request)
        results.meta.mode = "vector"
        results.meta.vectors_used = True
        return results

    def query(self, request: QueryRequest) -> SearchResults:
        self._record(f"query {request.query} {request.model_dump(exclude_defaults=True)}")
        results = self.search(request)
        results.meta.mode = "hybrid"
        results.meta.vectors_used = True
        results.meta.reranked = False
        results.meta.expanded = False
        results.meta.candidate_limit = request.candidate_limit or 20
        if request.query_modes:
            results.meta.query_modes = [m.model_dump() for m in request.query_modes]
        if request.explain:
            results.meta.explain = [ExplainLine(stage="fusion", message="RRF k=60, 2 unique")]
        return results

    def similar(
        self,
        ref: str,
        *,
        limit: int = 5,
        threshold: float | None = None,
        cross_collection: bool = False,
    ) -> SimilarResults:
        self._record(f"similar {ref} {limit} {threshold} {cross_collection}")
        key, _ = self._find(ref)
        others = [k for k in DOCS if k != key][:limit]
        similar = [
            SimilarDocument(
                docid=DOCS[k][0], uri=_uri(k), title=DOCS[k][1], score=0.8, abs_path="/x.md"
            )
            for k in others
        ]
        meta = SimilarMeta(
            docid=DOCS[key][0],
            uri=_uri(key),
            title=DOCS[key][1],
            total_similar=len(similar),
            threshold=threshold,
            cross_collection=cross_collection,
        )
        return SimilarResults(similar=similar, meta=meta)

    def get(
        self, ref: str, *, from_line: int | None = None, line_count: int | None = None
    ) -> GetResult:
        self._record(f"get {ref}")
        key, line = self._find(ref)
        docid, title, text = DOCS[key]
        lines = text.split("\n")[:-1]
        start = from_line or line or 1
        if start > len(lines):
            raise ValidationError(
                f"Line {start} is past the end of {_uri(key)} ({len(lines)} lines)"
            )
        end = len(lines) if line_count is None else min(len(lines), start + line_count - 1)
        return GetResult(
            docid=docid,
            uri=_uri(key),
            title=title,
            content="\n".join(lines[start - 1 : end]) + "\n",
            total_lines=len(lines),
            returned_lines=LineSpan(start=start, end=end),
            language="en",
            source=_source(key),
            capabilities=Capabilities(
                editable=True,
                tags_editable=True,
                tags_writeback=True,
                can_create_editable_copy=False,
                mode="editable",
            ),
        )

    def multi_get(
        self, refs: list[str] | None = None, pattern: str | None = None, max_bytes: int = 10240
    ) -> MultiGetResult:
        self._record(f"multi_get {refs} {pattern}")
        if bool(refs) == bool(pattern):
            raise ValidationError("Provide either refs or pattern, not both")
        docs, skipped = [], []
        for ref in refs or [_uri(k) for k in DOCS]:
            try:
                key, _ = self._find(ref)
            except NotFoundError as exc:
                skipped.append(SkippedRef(ref=ref, reason="not_found", message=exc.message))
                continue
            docid, title, text = DOCS[key]
            cut = text.encode()[:max_bytes].decode(errors="ignore")
            docs.append(
                MultiGetDocument(
                    docid=docid,
                    uri=_uri(key),
                    title=title,
                    content=cut,
                    truncated=cut != text,
                    total_lines=text.count("\n"),
                    source=_source(key),
                )
            )
        meta = MultiGetMeta(
            requested=len(docs) + len(skipped),
            returned=len(docs),
            skipped=len(skipped),
            max_bytes=max_bytes,
        )
        return MultiGetResult(documents=docs, skipped=skipped, meta=meta)

    def status(self) -> Status:
        self._record("status")
        return Status(
            index_name="default",
            collections=[
                CollectionStatus(
                    name="notes", path="/notes", document_count=2, chunk_count=2, embedded_count=0
                )
            ],
            total_documents=2,
            total_chunks=2,
            embedding_backlog=2,
            recent_errors=[],
            healthy=True,
            capabilities=StatusCapabilities(bm25=True, vector=False, hybrid=False, answer=False),
            chunking=ChunkingPolicy(max_tokens=800, overlap_percent=0.15),
            fts_tokenizer="unicode61",
            resident=ResidentStatus(mode="stdio", resident=False),
        )

    def peek(self) -> Peek:
        self._record("peek")
        key = next(iter(DOCS))
        return Peek(
            gno_version="0.1.0",
            generated_at="2026-01-01T00:00:00Z",
            initialized=True,
            index_name="default",
            counts=PeekCounts(documents=2, collections=1),
            backlog=PeekBacklog(pending=2, failed=0),
            last_indexed_at="2026-01-01T00:00:00Z",
            recent=[
                PeekRecent(
                    docid=DOCS[key][0],
                    uri=_uri(key),
                    title="Alpha",
                    collection="notes",
                    abs_path="/notes/alpha.md",
                )
            ],
            serve=PeekServe(running=False, url=None),
        )

    def tags(self, collection: str | None = None, prefix: str | None = None) -> TagsList:
        self._record(f"tags {collection} {prefix}")
        if collection and collection != "notes":
            raise NotFoundError(f"Collection not found: {collection}")
        pairs = [(t, n) for t, n in TAGS if not prefix or t.startswith(prefix)]
        return TagsList(
            tags=[TagCount(tag=t, count=n) for t, n in pairs],
            meta=TagsMeta(collection=collection, prefix=prefix, total_tags=len(pairs)),
        )


def _uri(key: tuple[str, str]) -> str:
    return "gno://" + key[0] + "/" + key[1].replace(" ", "%20")


def _source(key: tuple[str, str]) -> SourceInfo:
    return SourceInfo(
        abs_path=f"/{key[0]}/{key[1]}", rel_path=key[1], mime="text/markdown", ext=".md"
    )


MODERN = "2026-07-28"


def envelope(version: str = MODERN, **extra: object) -> dict[str, object]:
    """A 2026-07-28 request ``_meta`` envelope (plus any custom keys)."""
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "wire-test", "version": "1"},
        **extra,
    }


class Peer:
    """An in-process client of the engine over the fake facade: one connection, work run inline."""

    def __init__(self, *, profile: str = "full", enable_write: bool = False) -> None:
        from gno_adapters.mcp.context import Connection
        from gno_adapters.mcp.server import GnoServices, build_engine

        self.services = GnoServices(FakeGno, profile=profile, enable_write=enable_write)
        self.engine = build_engine(self.services)
        self.connection = Connection.pinned_by_first_request("test")
        self._next = 0

    def send(self, message: object) -> dict[str, Any] | None:
        reply = self.engine.handle(self.connection, message)
        if reply.work is not None:
            return reply.work()
        return reply.response

    def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self._next += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self._next, "method": method}
        if params is not None:
            message["params"] = params
        response = self.send(message)
        assert response is not None and response["id"] == self._next
        return response

    def initialize(self, version: str = "2025-11-25") -> dict[str, Any]:
        params = {
            "protocolVersion": version,
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        }
        response = self.request("initialize", params)
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return response

    def modern(
        self, method: str, params: dict[str, Any] | None = None, **meta: object
    ) -> dict[str, Any]:
        return self.request(method, {**(params or {}), "_meta": envelope(**meta)})  # type: ignore[arg-type]


def main(argv: list[str]) -> int:
    from gno_adapters.mcp.stdio import serve_stdio

    profile = argv[argv.index("--tool-profile") + 1] if "--tool-profile" in argv else "full"
    write = "--enable-write" in argv or os.environ.get("GNO_MCP_ENABLE_WRITE") == "1"
    return serve_stdio(FakeGno, profile=profile, enable_write=write)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
