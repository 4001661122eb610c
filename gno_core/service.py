"""The ``Gno`` facade: every operation a transport or a Python caller needs, over the ports."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass

from gno_core import __version__
from gno_core.config import CollectionConfig, GnoConfig
from gno_core.domain import SearchFilters, StoredDocument
from gno_core.embedding import DEFAULT_BATCH_SIZE, EmbedProgress, EmbedService
from gno_core.errors import DuplicateError, NotFoundError, NotInitializedError, ValidationError
from gno_core.identity import make_uri, normalize_collection_name, parse_ref
from gno_core.model import (
    Capabilities,
    ChunkingPolicy,
    CollectionInfo,
    CollectionList,
    CollectionStatus,
    DocumentList,
    DocumentListMeta,
    GetResult,
    IngestErrorInfo,
    LineSpan,
    ListedDocument,
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
    SkippedRef,
    SnippetRange,
    SourceInfo,
    Status,
    StatusCapabilities,
    SyncResult,
    TagCount,
    TagsList,
    TagsMeta,
)
from gno_core.model.embedding import EmbedResult, IndexResult
from gno_core.model.requests import QueryRequest, SearchRequest
from gno_core.model.similar import SimilarResults
from gno_core.model.status import ResidentMode
from gno_core.ports import (
    Clock,
    ConfigRepository,
    Embedder,
    FrontmatterParser,
    IndexStore,
    Reranker,
    ResidentProbe,
    SourceTree,
    StoreProvider,
)
from gno_core.retrieval.dates import iso_from_ns, parse_bound, parse_document_date
from gno_core.retrieval.hybrid import HybridSearch
from gno_core.retrieval.query import parse_query, words_of
from gno_core.retrieval.results import ResultBuilder, source_info
from gno_core.retrieval.snippets import best_passage
from gno_core.retrieval.vector import VectorSearch, require_embedder
from gno_core.sync import SyncProgress, SyncService
from gno_core.text.validity import require_text

RECENCY_WORDS = frozenset({"latest", "newest", "recent", "recently", "today", "yesterday"})
RECENCY_PHRASES = ("this week", "last week", "this month", "last month", "most recent")
MAX_GET_LINES = 1_000_000
#: Refs (or pattern matches) one multi-get may name: a request can never make the server read
#: or answer for more documents than this.
MAX_MULTI_GET_REFS = 1000
#: Content bytes one multi-get may return in all; documents past it are skipped as
#: ``exceeds_maxBytes`` so that the answer stays bounded whatever the request holds.
MAX_MULTI_GET_TOTAL_BYTES = 1024 * 1024


@dataclass(frozen=True, slots=True)
class Resolved:
    """A reference resolved to a document of some index (``owner`` reads it)."""

    owner: Gno
    document: StoredDocument
    line: int | None


class Gno:
    """One index of gno and everything that can be done with it.

    Built by ``gno_adapters.bootstrap.open_gno``; the store opens lazily on first use, so cheap
    calls (``peek``, listing collections) never create or migrate a database.
    """

    def __init__(
        self,
        *,
        index_name: str,
        config: ConfigRepository,
        stores: StoreProvider,
        tree: SourceTree,
        frontmatter: FrontmatterParser,
        clock: Clock,
        resident: ResidentProbe,
        open_index: Callable[[str], Gno] | None = None,
        mode: str = "direct-cli",
        embedder: Embedder | None = None,
        reranker: Reranker | None = None,
        resident_status: Callable[[], ResidentStatus] | None = None,
    ) -> None:
        self.index_name = index_name
        self._config = config
        self._stores = stores
        self._tree = tree
        self._frontmatter = frontmatter
        self._clock = clock
        self._resident = resident
        self._open_index = open_index
        self._mode = mode
        # Optional models: without an embedder retrieval is keyword-only (``bm25_only``);
        # without a reranker hybrid results are not reranked.
        self._embedder = embedder
        self._reranker = reranker
        # A resident gateway reports its own uptime, port and admission state in ``status``.
        self._resident_status = resident_status
        self._store: IndexStore | None = None

    # -- lifecycle -----------------------------------------------------------------------------

    @property
    def store(self) -> IndexStore:
        if self._store is None:
            if not self._config.exists():
                raise NotInitializedError(
                    f"gno is not initialized (no config at {self._config.location}); "
                    "run `gno init` or `gno collection add <path>`"
                )
            self._store = self._stores.open()
        return self._store

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    def __enter__(self) -> Gno:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def config(self) -> GnoConfig:
        return self._config.load()

    def init(self) -> GnoConfig:
        """Create the configuration (if missing) and the index database. Idempotent."""
        if not self._config.exists():
            self._config.save(GnoConfig())
        _ = self.store
        return self._config.load()

    # -- collections ---------------------------------------------------------------------------

    def add_collection(self, collection: CollectionConfig) -> CollectionInfo:
        """Register a folder (its path must already be absolute and checked by the caller)."""
        config = self._config.load() if self._config.exists() else GnoConfig()
        if config.collection(collection.name):
            raise DuplicateError(f"Collection already exists: {collection.name}")
        clash = next((c for c in config.collections if c.path == collection.path), None)
        if clash:
            raise DuplicateError(f"Folder {collection.path} is already collection {clash.name}")
        config.collections.append(collection)
        self._config.save(config)
        return _collection_info(collection)

    def remove_collection(self, name: str) -> CollectionInfo:
        config = self._config.load()
        found = self._require_collection(config, name)
        config.collections = [c for c in config.collections if c.name != found.name]
        self._config.save(config)
        if self._stores.exists():
            self.store.deactivate_collection(found.name)
        return _collection_info(found)

    def rename_collection(self, old: str, new: str) -> CollectionInfo:
        config = self._config.load()
        found = self._require_collection(config, old)
        renamed = found.model_copy(update={"name": normalize_collection_name(new)})
        if config.collection(renamed.name):
            raise DuplicateError(f"Collection already exists: {renamed.name}")
        config.collections = [renamed if c is found else c for c in config.collections]
        if self._stores.exists():
            self.store.rename_collection(found.name, renamed.name)
        self._config.save(config)
        return _collection_info(renamed)

    def list_collections(self) -> CollectionList:
        config = self._config.load() if self._config.exists() else GnoConfig()
        return CollectionList(collections=[_collection_info(c) for c in config.collections])

    # -- sync ----------------------------------------------------------------------------------

    def sync(
        self,
        collections: list[str] | None = None,
        progress: Callable[[SyncProgress], None] | None = None,
    ) -> SyncResult:
        """Bring the index up to date with the files of ``collections`` (all when None)."""
        config = self._config.load()
        chosen = (
            [self._require_collection(config, n) for n in collections]
            if collections
            else list(config.collections)
        )
        service = SyncService(self.store, self._tree, self._frontmatter, self._clock)
        return service.sync(chosen, config.chunking, config.ingest, progress)

    def _collection_names(self, collections: list[str] | None) -> tuple[str, ...] | None:
        if not collections:
            return None
        config = self._config.load()
        return tuple(self._require_collection(config, n).name for n in collections)

    # -- embedding -----------------------------------------------------------------------------

    @property
    def embedder(self) -> Embedder | None:
        """The embedding model vectors are made and searched with (None: none available)."""
        return self._embedder

    def embed(
        self,
        collections: list[str] | None = None,
        *,
        batch_size: int = DEFAULT_BATCH_SIZE,
        force: bool = False,
        dry_run: bool = False,
        progress: Callable[[EmbedProgress], None] | None = None,
    ) -> EmbedResult:
        """Embed the chunks that have no vector for the current model (all with ``force``),
        committing batch by batch; raises ``MODEL_UNAVAILABLE`` without a model."""
        embedder = require_embedder(self._embedder)
        names = self._collection_names(collections)
        service = EmbedService(self.store, embedder, self._clock)
        return service.run(
            names, batch_size=batch_size, force=force, dry_run=dry_run, progress=progress
        )

    def index(
        self,
        collections: list[str] | None = None,
        *,
        embed: bool = True,
        batch_size: int = DEFAULT_BATCH_SIZE,
        sync_progress: Callable[[SyncProgress], None] | None = None,
        embed_progress: Callable[[EmbedProgress], None] | None = None,
    ) -> IndexResult:
        """Sync, then embed what the sync left without vectors."""
        synced = self.sync(collections, sync_progress)
        if not embed:
            return IndexResult(
                sync_result=synced, embed_skipped=True, embed_skip_reason="--no-embed"
            )
        if self._embedder is None:
            return IndexResult(
                sync_result=synced,
                embed_skipped=True,
                embed_skip_reason="no embedding model available",
            )
        result = self.embed(collections, batch_size=batch_size, progress=embed_progress)
        return IndexResult(sync_result=synced, embed_skipped=False, embed_result=result)

    # -- retrieval -----------------------------------------------------------------------------

    def vsearch(self, request: SearchRequest) -> SearchResults:
        """Vector search: the documents nearest the query by meaning (filters first). Raises
        ``MODEL_UNAVAILABLE`` without an embedder and ``RUNTIME`` when nothing is embedded."""
        embedder = require_embedder(self._embedder)
        filters = self._filters(self._config.load(), request)
        searcher = VectorSearch(self.store, embedder, ResultBuilder(self.index_name))
        return searcher.vsearch(request, filters)

    def query(self, request: QueryRequest) -> SearchResults:
        """Hybrid search: BM25 and vectors fused, reranked when a reranker is present; degrades
        to ``bm25_only`` without vectors (see ``gno_core.retrieval.hybrid``)."""
        filters = self._filters(self._config.load(), request)
        searcher = HybridSearch(
            self.store,
            self._embedder,
            self._reranker,
            ResultBuilder(self.index_name),
            self._clock.now_ns,
        )
        return searcher.query(request, filters, recency=_has_recency_intent(request.query))

    def similar(
        self,
        ref: str,
        *,
        limit: int = 5,
        threshold: float | None = None,
        cross_collection: bool = False,
    ) -> SimilarResults:
        """Documents similar to ``ref`` by meaning (mean of its chunk vectors), itself excluded,
        within its collection unless ``cross_collection``."""
        embedder = require_embedder(self._embedder)
        resolved = self.resolve(ref)
        searcher = VectorSearch(
            resolved.owner.store, embedder, ResultBuilder(resolved.owner.index_name)
        )
        return searcher.similar(
            resolved.document, limit=limit, threshold=threshold, cross_collection=cross_collection
        )

    def search(self, request: SearchRequest) -> SearchResults:
        """BM25 keyword search with filters applied before the limit."""
        query = parse_query(request.query)
        config = self._config.load()
        filters = self._filters(config, request)
        recency = _has_recency_intent(request.query)
        fetch = request.limit * 3 if recency else request.limit
        hits = self.store.search(query, filters, fetch)
        if recency:
            hits.sort(key=lambda h: -self._doc_time_ns(h.document))
            hits = hits[: request.limit]
        top = max((h.bm25 for h in hits), default=0.0)
        words = query.positive_words()
        intent_words = tuple(words_of(request.intent)) if request.intent else ()
        results: list[SearchResult] = []
        for hit in hits:
            score = round(hit.bm25 / top, 6) if top > 0 else 1.0
            if request.min_score is not None and score < request.min_score:
                continue
            doc = hit.document
            passage = best_passage(self.store.chunks(doc.mirror_hash), words, intent_words)
            results.append(
                SearchResult(
                    docid=doc.docid,
                    score=min(1.0, max(0.0, score)),
                    uri=self._uri(doc),
                    line=passage.best_line if passage else None,
                    title=doc.meta.title,
                    content_type=doc.meta.content_type,
                    categories=list(doc.meta.categories) or None,
                    snippet_language=(passage.chunk.language if passage else None)
                    or doc.meta.language,
                    snippet=passage.text if passage else "",
                    snippet_range=SnippetRange(
                        start_line=passage.start_line, end_line=passage.end_line
                    )
                    if passage
                    else None,
                    source=self._source(doc),
                )
            )
        return SearchResults(
            results=results,
            meta=SearchMeta(
                query=request.query,
                mode="bm25",
                total_results=len(results),
                collection=filters.collections[0] if filters.collections else None,
                intent=request.intent,
                lang=request.lang,
                since=request.since,
                until=request.until,
                categories=request.categories or None,
                author=request.author,
                exclude=request.exclude or None,
                tags_all=list(filters.tags_all) or None,
                tags_any=list(filters.tags_any) or None,
            ),
        )

    def _filters(self, config: GnoConfig, request: SearchRequest) -> SearchFilters:
        collections = None
        if request.collection:
            collections = (self._require_collection(config, request.collection).name,)
        now = self._clock.now_ns()
        exclude = tuple(w for term in request.exclude for w in words_of(term))
        return SearchFilters(
            collections=collections,
            path_prefix=request.path_prefix,
            tags_all=_norm_tags(request.tags_all),
            tags_any=_norm_tags(request.tags_any),
            since_ns=parse_bound(request.since, now) if request.since else None,
            until_ns=parse_bound(request.until, now, upper=True) if request.until else None,
            categories=tuple(c.strip().lower() for c in request.categories if c.strip()),
            author=request.author.strip() if request.author else None,
            lang=request.lang.strip().lower() if request.lang else None,
            exclude_terms=tuple(dict.fromkeys(exclude)),
        )

    def get(
        self, ref: str, *, from_line: int | None = None, line_count: int | None = None
    ) -> GetResult:
        """One document's canonical Markdown, whole or a 1-based line range."""
        resolved = self.resolve(ref)
        owner, doc = resolved.owner, resolved.document
        markdown = owner.store.markdown(doc.mirror_hash) or ""
        lines = markdown.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        total = len(lines)
        start = from_line or resolved.line or 1
        if start < 1 or (line_count is not None and line_count < 1):
            raise ValidationError("fromLine and lineCount must be at least 1")
        if total and start > total:
            raise ValidationError(
                f"Line {start} is past the end of {owner._uri(doc)} ({total} lines)",
                details={"totalLines": total},
            )
        end = total if line_count is None else min(total, start + line_count - 1)
        partial = start != 1 or end != total
        content = "\n".join(lines[start - 1 : end]) + ("\n" if end >= start else "")
        if not partial:
            content = markdown
        editable = doc.source_ext in (".md", ".markdown")
        return GetResult(
            docid=doc.docid,
            uri=owner._uri(doc),
            title=doc.meta.title,
            content=content,
            total_lines=total,
            returned_lines=LineSpan(start=start, end=end) if total else None,
            language=doc.meta.language,
            source=owner._source(doc),
            capabilities=Capabilities(
                editable=editable,
                tags_editable=editable,
                tags_writeback=editable,
                can_create_editable_copy=False,
                mode="editable" if editable else "read_only",
                reason=None if editable else "indexed as text; edit the source file",
            ),
            tags=list(doc.meta.tags) or None,
        )

    def multi_get(
        self, refs: list[str] | None = None, pattern: str | None = None, max_bytes: int = 10240
    ) -> MultiGetResult:
        """Several documents by refs or by a glob over ``collection/path``; each is cut at a
        line boundary once it exceeds ``max_bytes``. Refs are de-duplicated and must name one
        index; at most ``MAX_MULTI_GET_REFS`` refs or matches, and documents past a total of
        ``MAX_MULTI_GET_TOTAL_BYTES`` content bytes are skipped as ``exceeds_maxBytes``."""
        if bool(refs) == bool(pattern):
            raise ValidationError("Provide either refs or pattern, not both")
        if max_bytes < 1:
            raise ValidationError("maxBytes must be at least 1")
        skipped: list[SkippedRef] = []
        targets: list[tuple[str, Resolved]] = []
        if pattern:
            matches = self._glob(require_text(pattern, "pattern"))
            requested = len(matches)
            _check_batch_size(requested, "the pattern matches")
            targets = [(f"{d.collection}/{d.rel_path}", Resolved(self, d, None)) for d in matches]
        else:
            unique = list(dict.fromkeys(refs or []))
            requested = len(unique)
            _check_batch_size(requested, "refs names")
            self._check_one_index(unique)
            for ref in unique:
                try:
                    targets.append((ref, self.resolve(ref)))
                except ValidationError as exc:
                    skipped.append(SkippedRef(ref=ref, reason="invalid_ref", message=exc.message))
                except NotFoundError as exc:
                    skipped.append(SkippedRef(ref=ref, reason="not_found", message=exc.message))
        documents: list[MultiGetDocument] = []
        seen: set[str] = set()
        budget = MAX_MULTI_GET_TOTAL_BYTES
        for ref, resolved in targets:
            owner, doc = resolved.owner, resolved.document
            uri = owner._uri(doc)
            if uri in seen:  # two spellings of one document: answer it once
                continue
            seen.add(uri)
            markdown = owner.store.markdown(doc.mirror_hash) or ""
            content, truncated = _cut(markdown, min(max_bytes, budget))
            if not content and markdown:
                skipped.append(
                    SkippedRef(
                        ref=ref,
                        reason="exceeds_maxBytes",
                        message=(
                            f"this response reached its {MAX_MULTI_GET_TOTAL_BYTES}-byte budget; "
                            "fetch the document separately or lower maxBytes"
                        ),
                    )
                )
                continue
            budget -= len(content.encode())
            documents.append(
                MultiGetDocument(
                    docid=doc.docid,
                    uri=uri,
                    title=doc.meta.title,
                    content=content,
                    truncated=truncated,
                    total_lines=markdown.count("\n"),
                    source=owner._source(doc),
                )
            )
        return MultiGetResult(
            documents=documents,
            skipped=skipped,
            meta=MultiGetMeta(
                requested=requested,
                returned=len(documents),
                skipped=len(skipped),
                max_bytes=max_bytes,
            ),
        )

    def _check_one_index(self, refs: list[str]) -> None:
        """The spec's rule: explicit refs of different indexes fail the whole call."""
        indexes: set[str] = set()
        for ref in refs:
            try:
                parsed = parse_ref(ref)
            except ValidationError:
                continue  # reported per ref as invalid_ref
            indexes.add(parsed.index or self.index_name.casefold())
        if len(indexes) > 1:
            raise ValidationError(
                "All refs in one request must resolve to one index; split the batch by index "
                f"({', '.join(sorted(indexes))})",
                details={"indexes": sorted(indexes)},
            )

    def _glob(self, pattern: str) -> list[StoredDocument]:
        text = pattern.removeprefix("gno://")
        collection = text.split("/", 1)[0]
        scoped = collection if "*" not in collection and "?" not in collection else None
        docs = self.store.list_documents(collection=scoped.lower() if scoped else None)
        return [d for d in docs if fnmatch.fnmatchcase(f"{d.collection}/{d.rel_path}", text)]

    def resolve(self, ref: str) -> Resolved:
        """Resolve a URI, ``collection/path`` or ``#docid`` (with optional ``:line``)."""
        parsed = parse_ref(ref)
        if parsed.index and parsed.index != self.index_name.casefold():
            if self._open_index is None:
                raise NotFoundError(f"Index not found: {parsed.index}")
            other = self._open_index(parsed.index)
            inner = other.resolve(ref.split("?", 1)[0] + _line_suffix(parsed.line))
            return inner
        if parsed.docid_prefix:
            matches = self.store.find_by_docid(parsed.docid_prefix)
            if not matches:
                raise NotFoundError(f"Document not found: #{parsed.docid_prefix}")
            return Resolved(self, matches[0], parsed.line)
        assert parsed.collection is not None and parsed.rel_path is not None
        doc = self.store.get_document(parsed.collection, parsed.rel_path)
        if doc is None:
            raise NotFoundError(f"Document not found: {ref}")
        return Resolved(self, doc, parsed.line)

    def ls(
        self, collection: str | None = None, prefix: str | None = None, limit: int | None = None
    ) -> DocumentList:
        if collection:
            collection = self._require_collection(self._config.load(), collection).name
        docs = self.store.list_documents(collection=collection, prefix=prefix)
        shown = docs[:limit] if limit else docs
        return DocumentList(
            documents=[
                ListedDocument(
                    docid=d.docid, uri=self._uri(d), title=d.meta.title, source=d.abs_path
                )
                for d in shown
            ],
            meta=DocumentListMeta(
                total=len(docs), returned=len(shown), collection=collection, prefix=prefix
            ),
        )

    def tags(self, collection: str | None = None, prefix: str | None = None) -> TagsList:
        name = None
        if collection:
            name = self._require_collection(self._config.load(), collection).name
        norm_prefix = prefix.strip().lower() if prefix else None
        pairs = self.store.tag_counts(name, norm_prefix)
        return TagsList(
            tags=[TagCount(tag=t, count=c) for t, c in pairs],
            meta=TagsMeta(collection=name, prefix=norm_prefix, total_tags=len(pairs)),
        )

    # -- health --------------------------------------------------------------------------------

    def status(self) -> Status:
        config = self._config.load()
        store = self.store
        counts = {c.collection: c for c in store.counts(self._fingerprint())}
        collections = []
        for coll in config.collections:
            c = counts.get(coll.name)
            collections.append(
                CollectionStatus(
                    name=coll.name,
                    path=coll.path,
                    document_count=c.documents if c else 0,
                    chunk_count=c.chunks if c else 0,
                    embedded_count=c.embedded if c else 0,
                    inactive_count=c.inactive if c else 0,
                    failed_count=c.failed if c else 0,
                )
            )
        errors = [
            IngestErrorInfo(
                collection=r.failure.collection,
                rel_path=r.failure.rel_path,
                code=r.failure.code,
                message=r.failure.message,
                occurred_at=r.occurred_at,
            )
            for r in store.recent_failures(10)
        ]
        total_chunks = sum(c.chunk_count for c in collections)
        embedded = sum(c.embedded_count for c in collections)
        return Status(
            index_name=self.index_name,
            config_path=self._config.location,
            db_path=self._stores.location,
            collections=collections,
            total_documents=sum(c.document_count for c in collections),
            total_chunks=total_chunks,
            embedding_backlog=max(0, total_chunks - embedded),
            recent_errors=errors,
            last_updated=store.last_indexed_at(),
            healthy=bool(config.collections),
            capabilities=StatusCapabilities(
                bm25=True, vector=embedded > 0, hybrid=embedded > 0, answer=False
            ),
            chunking=ChunkingPolicy(
                max_tokens=config.chunking.max_tokens,
                overlap_percent=config.chunking.overlap_percent,
            ),
            fts_tokenizer=store.tokenizer,
            resident=self._resident_status()
            if self._resident_status is not None
            else ResidentStatus(mode=_resident_mode(self._mode), resident=False),
        )

    def peek(self) -> Peek:
        """Cheap, model-free snapshot; an uninitialized index is a successful payload."""
        url = self._resident.serve_url()
        serve = PeekServe(running=url is not None, url=url)
        generated = iso_from_ns(self._clock.now_ns())
        if not (self._config.exists() and self._stores.exists()):
            return Peek(
                gno_version=__version__,
                generated_at=generated,
                initialized=False,
                index_name=None,
                counts=None,
                backlog=None,
                last_indexed_at=None,
                recent=[],
                serve=serve,
            )
        store = self.store
        counts = store.counts(self._fingerprint())
        chunks = sum(c.chunks for c in counts)
        embedded = sum(c.embedded for c in counts)
        return Peek(
            gno_version=__version__,
            generated_at=generated,
            initialized=True,
            index_name=self.index_name,
            counts=PeekCounts(
                documents=sum(c.documents for c in counts),
                collections=len(self._config.load().collections),
            ),
            backlog=PeekBacklog(
                pending=max(0, chunks - embedded), failed=sum(c.failed for c in counts)
            ),
            last_indexed_at=store.last_indexed_at(),
            recent=[
                PeekRecent(
                    docid=d.docid,
                    uri=self._uri(d),
                    title=d.meta.title,
                    collection=d.collection,
                    abs_path=d.abs_path,
                    modified_at=iso_from_ns(d.source_mtime_ns),
                )
                for d in store.recent_documents(10)
            ],
            serve=serve,
        )

    # -- helpers -------------------------------------------------------------------------------

    def _fingerprint(self) -> str | None:
        return self._embedder.fingerprint if self._embedder is not None else None

    def _require_collection(self, config: GnoConfig, name: str) -> CollectionConfig:
        found = config.collection(name)
        if found is None:
            raise NotFoundError(f"Collection not found: {name}", details={"collection": name})
        return found

    def _uri(self, doc: StoredDocument) -> str:
        return make_uri(doc.collection, doc.rel_path, self.index_name)

    def _source(self, doc: StoredDocument) -> SourceInfo:
        return source_info(doc)

    def _doc_time_ns(self, doc: StoredDocument) -> int:
        return parse_document_date(doc.meta.date) or doc.source_mtime_ns


def _collection_info(c: CollectionConfig) -> CollectionInfo:
    return CollectionInfo(
        name=c.name,
        path=c.path,
        pattern=c.pattern,
        include=list(c.include),
        exclude=list(c.exclude),
    )


def _norm_tags(tags: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(t.strip().lstrip("#").lower() for t in tags if t.strip()))


def _has_recency_intent(query: str) -> bool:
    low = query.lower()
    return bool(RECENCY_WORDS.intersection(words_of(low))) or any(p in low for p in RECENCY_PHRASES)


def _line_suffix(line: int | None) -> str:
    return f":{line}" if line else ""


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


def _resident_mode(mode: str) -> ResidentMode:
    for known in ("serve", "daemon", "stdio"):
        if mode == known:
            return known
    return "direct-cli"
