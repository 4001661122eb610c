"""``InMemoryLinks``: the ``LinkStore`` port over the in-memory ``LinkState``; resolution is
the shared rules (``resolve_pending``'s ``resolve``) over its pending links and names."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from gno_adapters.inmemory.link_state import Key, LinkRow
from gno_core import domain
from gno_core.ports.links import (
    BatchResolver,
    DocumentLinks,
    NamedDoc,
    NameRow,
    PendingRow,
    Resolution,
)

if TYPE_CHECKING:
    from gno_adapters.inmemory.state import InMemoryState

__all__ = ["InMemoryLinks"]


class InMemoryLinks:
    """The ``LinkStore`` port."""

    def __init__(self, state: InMemoryState) -> None:
        self._s = state.links
        self._rows = state.rows

    def _active(self, key: Key) -> domain.StoredDocument | None:
        row = self._rows.get(key)
        return row.doc if row is not None and row.doc.active else None

    def _ref(self, key: Key) -> domain.DocRef:
        doc = self._rows[key].doc
        return domain.DocRef(doc.collection, doc.rel_path, doc.meta.title, doc.source_hash)

    def _targets(self, row: LinkRow) -> tuple[domain.LinkTarget, ...]:
        return tuple(
            domain.LinkTarget(self._ref(key), confidence, method)
            for key, confidence, method in sorted(row.targets)
            if self._active(key) is not None
        )

    def _record(self, link_id: int) -> domain.LinkRecord:
        row = self._s.links[link_id]
        link = row.link
        return domain.LinkRecord(
            self._ref(row.source), _without_keys(link), self._targets(row), row.state
        )

    def outgoing(self, collection: str, rel_path: str) -> list[domain.LinkRecord]:
        if self._active((collection, rel_path)) is None:
            return []
        ids = self._s.by_doc.get((collection, rel_path), [])
        return sorted((self._record(i) for i in ids), key=lambda r: r.link.seq)

    def document_links(
        self, documents: Sequence[tuple[str, str]]
    ) -> dict[tuple[str, str], DocumentLinks]:
        out: dict[tuple[str, str], DocumentLinks] = {}
        for key in documents:
            doc = self._active(key)
            if doc is not None:
                rows = sorted(
                    (self._s.links[i].link for i in self._s.by_doc.get(key, ())),
                    key=lambda link: link.seq,
                )
                out[key] = DocumentLinks(doc.source_hash, doc.mirror_hash, tuple(rows))
        return out

    def incoming(
        self, collection: str, rel_path: str, source_collection: str | None = None
    ) -> list[domain.LinkRecord]:
        me = (collection, rel_path)
        if self._active(me) is None:
            return []
        out: list[domain.LinkRecord] = []
        for row in self._s.links.values():
            if self._active(row.source) is None:
                continue
            if source_collection is not None and row.source[0] != source_collection:
                continue
            for key, confidence, method in row.targets:
                if key == me:
                    out.append(
                        domain.LinkRecord(
                            self._ref(row.source),
                            _without_keys(row.link),
                            (domain.LinkTarget(self._ref(me), confidence, method),),
                            row.state,
                        )
                    )
        return sorted(out, key=lambda r: (r.source.collection, r.source.rel_path, r.link.seq))

    def mentions(
        self, collection: str, rel_path: str, source_collection: str | None = None
    ) -> list[domain.Mention]:
        return [
            domain.Mention(
                r.source.collection,
                r.source.rel_path,
                r.source.title,
                r.source.source_hash,
                r.link.link_text,
                r.link.link_type,
                r.link.edge_source,
                r.link.relation,
                r.link.target_anchor,
                r.link.start_line,
                r.link.start_col,
                r.link.end_line,
                r.link.end_col,
                r.targets[0].confidence,
                r.link.context,
            )
            for r in self.incoming(collection, rel_path, source_collection)
        ]

    def edges(
        self, collection: str | None = None, relation: str | None = None
    ) -> Iterator[domain.Edge]:
        rows = [
            row
            for row in self._s.links.values()
            if self._active(row.source) is not None
            and (collection is None or row.source[0] == collection)
            and (relation is None or row.link.relation == relation)
        ]
        rows.sort(key=lambda r: (r.source, r.link.seq))
        for row in rows:
            for target in self._targets(row):
                yield domain.Edge(
                    self._ref(row.source),
                    target.document,
                    row.link.relation,
                    row.link.link_type,
                    row.link.edge_source,
                    target.confidence,
                )

    def graph(self, collection: str | None = None) -> domain.LinkGraph:
        docs = sorted(
            (
                row.doc
                for row in self._rows.values()
                if row.doc.active and (collection is None or row.doc.collection == collection)
            ),
            key=lambda d: (d.collection, d.rel_path),
        )
        index = {(d.collection, d.rel_path): i for i, d in enumerate(docs)}
        edges: list[tuple[int, int, str, str]] = []
        for e in self.edges(collection):
            source = index.get((e.source.collection, e.source.rel_path))
            target = index.get((e.target.collection, e.target.rel_path))
            if source is not None and target is not None:
                edges.append((source, target, e.link_type, e.confidence))
        return domain.LinkGraph(
            tuple(
                domain.DocRef(d.collection, d.rel_path, d.meta.title, d.source_hash) for d in docs
            ),
            tuple(edges),
        )

    def adjacent(
        self, documents: Sequence[tuple[str, str]], relation: str | None = None
    ) -> list[domain.Edge]:
        wanted = set(documents)
        return [
            e
            for e in self.edges(relation=relation)
            if (e.source.collection, e.source.rel_path) in wanted
            or (e.target.collection, e.target.rel_path) in wanted
        ]

    def degrees(
        self, documents: Sequence[tuple[str, str]], collection: str | None = None
    ) -> dict[tuple[str, str], int]:
        wanted = set(documents)
        merged: set[tuple[Key, Key, str]] = set()
        for e in self.edges():
            s = (e.source.collection, e.source.rel_path)
            t = (e.target.collection, e.target.rel_path)
            if s != t and (collection is None or s[0] == t[0] == collection):
                merged.add((s, t, e.link_type))
        out: dict[tuple[str, str], int] = {}
        for s, t, _ in merged:
            for end in (s, t):
                if end in wanted:
                    out[end] = out.get(end, 0) + 1
        return out

    def unresolved(
        self, collection: str | None = None, limit: int = 100
    ) -> list[domain.LinkRecord]:
        ids = [
            i
            for i, row in self._s.links.items()
            if row.state == "unresolved"
            and self._active(row.source) is not None
            and (collection is None or row.source[0] == collection)
        ]
        records = sorted(
            (self._record(i) for i in ids),
            key=lambda r: (r.source.collection, r.source.rel_path, r.link.seq),
        )
        return records[: max(limit, 0)]

    def crowded(self, count: int) -> list[tuple[str, str]]:
        return sorted(
            key
            for key, ids in self._s.by_doc.items()
            if len(ids) >= count and self._active(key) is not None
        )

    def counts(self, collection: str | None = None) -> domain.LinkCounts:
        rows = [
            row
            for row in self._s.links.values()
            if self._active(row.source) is not None
            and (collection is None or row.source[0] == collection)
        ]
        states = Counter(row.state for row in rows)
        settled = [r for r in rows if r.state in {"resolved", "ambiguous"} and r.targets]
        relations = Counter(r.link.relation for r in settled)
        confidence = Counter(
            domain.AMBIGUOUS if r.state == "ambiguous" else min(c for _, c, _ in r.targets)
            for r in settled
        )
        return domain.LinkCounts(
            links=len(rows),
            resolved=states["resolved"],
            ambiguous=states["ambiguous"],
            unresolved=states["unresolved"],
            external=states["external"],
            pending=states["pending"],
            edge_types=tuple(sorted(relations.items(), key=lambda kv: (-kv[1], kv[0]))),
            confidence=tuple(sorted(confidence.items(), key=lambda kv: (-kv[1], kv[0]))),
        )

    def pending(self, limit: int) -> list[domain.PendingLink]:
        out: list[domain.PendingLink] = []
        for link_id in sorted(self._s.links):
            row = self._s.links[link_id]
            if row.state == "pending" and self._active(row.source) is not None:
                out.append(domain.PendingLink(link_id, self._ref(row.source), row.link))
                if len(out) >= limit:
                    break
        return out

    def candidates(self, collection: str, keys: Sequence[str]) -> list[domain.NameHit]:
        wanted = set(keys)
        out: list[domain.NameHit] = []
        for doc, names in self._s.names.items():
            if doc[0] != collection or self._active(doc) is None:
                continue
            for name in names:
                if name.key in wanted:
                    out.append(domain.NameHit(self._ref(doc), name.kind, name.key))
        return out

    def resolve_pending(self, resolve: BatchResolver, batch: int) -> int:
        done = 0  # no bulk step: every link goes through the rules
        while pending := self._pending_rows(batch):
            wanted: dict[str, set[str]] = {}
            for row in pending:
                wanted.setdefault(row.scope, set()).update(row.keys)
            names = [n for scope, keys in wanted.items() for n in self._name_rows(scope, keys)]
            self._store(resolve(pending, names))
            done += len(pending)
        return done

    def _pending_rows(self, limit: int) -> list[PendingRow]:
        return [
            PendingRow(
                p.link_id,
                p.source.collection,
                p.source.rel_path,
                p.link.link_type,
                p.link.target_ref,
                p.link.alias,
                p.link.target_collection,
                p.link.keys,
            )
            for p in self.pending(limit)
        ]

    def _name_rows(self, collection: str, keys: set[str]) -> list[NameRow]:
        out: list[NameRow] = []
        for hit in self.candidates(collection, sorted(keys)):
            doc = (collection, hit.document.rel_path)
            out.append((hit.kind, hit.key, NamedDoc(self._s.doc_id(doc), *doc)))
        return out

    def _store(self, results: Sequence[Resolution]) -> None:
        keys = self._s.doc_keys
        for link_id, targets in results:
            row = self._s.links.get(link_id)
            if row is None:
                continue
            kept = tuple(
                (keys[doc_id], confidence, method)
                for doc_id, confidence, method in targets
                if keys[doc_id] in self._rows  # purged since: left out
            )
            row.targets = kept
            row.state = "unresolved" if not kept else ("ambiguous" if len(kept) > 1 else "resolved")


def _without_keys(link: domain.ExtractedLink) -> domain.ExtractedLink:
    # Reads answer like the SQLite store, which keeps keys for resolution only.
    return replace(link, keys=()) if link.keys else link
