"""``LinkState``: the links of the in-memory index, their lookup names and resolutions, and
the names of documents, with the writes the in-memory ledger makes to them (same rules as
``gno_adapters.sqlite.link_writes``). Read through ``InMemoryLinks``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from gno_core import domain

__all__ = ["LinkRow", "LinkState"]

Key = tuple[str, str]


@dataclass
class LinkRow:
    """A stored link: its source document, fields, state and resolved targets."""

    source: Key
    link: domain.ExtractedLink
    state: str
    targets: tuple[tuple[Key, str, str], ...] = ()


@dataclass
class LinkState:
    """Links, their lookup names and resolutions, and the names of documents."""

    links: dict[int, LinkRow] = field(default_factory=dict)
    by_doc: dict[Key, list[int]] = field(default_factory=dict)
    by_key: dict[str, set[int]] = field(default_factory=dict)
    names: dict[Key, frozenset[domain.NameKey]] = field(default_factory=dict)
    next_id: int = 1
    #: The handles ``name_rows`` gives documents, both ways.
    doc_ids: dict[Key, int] = field(default_factory=dict)
    doc_keys: dict[int, Key] = field(default_factory=dict)

    def doc_id(self, doc: Key) -> int:
        found = self.doc_ids.get(doc)
        if found is None:
            found = self.doc_ids[doc] = len(self.doc_ids) + 1
            self.doc_keys[found] = doc
        return found

    def replace_links(self, doc: Key, links: Sequence[domain.ExtractedLink]) -> None:
        for link_id in self.by_doc.pop(doc, []):
            gone = self.links.pop(link_id)
            for key in gone.link.keys:
                self.by_key.get(key, set()).discard(link_id)
        ids: list[int] = []
        for link in links:
            state = "external" if link.external else ("pending" if link.keys else "unresolved")
            self.links[self.next_id] = LinkRow(doc, link, state)
            for key in link.keys:
                self.by_key.setdefault(key, set()).add(self.next_id)
            ids.append(self.next_id)
            self.next_id += 1
        self.by_doc[doc] = ids

    def replace_names(self, doc: Key, names: Iterable[domain.NameKey], was_active: bool) -> None:
        old = self.names.get(doc, frozenset())
        new = frozenset(names)
        self.names[doc] = new
        if old != new or not was_active:
            self.mark_keys({n.key for n in old | new})

    def mark_keys(self, keys: Iterable[str]) -> None:
        for key in keys:
            for link_id in self.by_key.get(key, ()):
                self._mark(link_id)

    def mark_names(self, doc: Key) -> None:
        self.mark_keys(n.key for n in self.names.get(doc, ()))

    def mark_links_of(self, doc: Key) -> None:
        for link_id in self.by_doc.get(doc, ()):
            if self.links[link_id].link.keys:
                self._mark(link_id)

    def mark_all(self) -> None:
        for link_id, row in self.links.items():
            if row.link.keys:
                self._mark(link_id)

    def _mark(self, link_id: int) -> None:
        row = self.links[link_id]
        if row.state not in {"pending", "external"}:
            row.state = "pending"

    def move_collection(self, old: str, new: str) -> None:
        """Rows of ``old`` now belong to ``new`` (stale rows of ``new`` dropped before)."""
        for doc in [d for d in self.by_doc if d[0] == new]:
            self.replace_links(doc, ())
            del self.by_doc[doc]
        for doc in [d for d in self.names if d[0] == new]:
            del self.names[doc]
        for doc in [d for d in self.by_doc if d[0] == old]:
            self.by_doc[(new, doc[1])] = self.by_doc.pop(doc)
        for doc in [d for d in self.names if d[0] == old]:
            self.names[(new, doc[1])] = self.names.pop(doc)
        for row in self.links.values():
            if row.source[0] == old:
                row.source = (new, row.source[1])
            row.targets = tuple(
                ((new, k[1]) if k[0] == old else k, c, m) for k, c, m in row.targets
            )
        self.mark_all()

    def forget(self, docs: Iterable[Key]) -> None:
        """Documents purged from the store take their links and names with them."""
        gone = set(docs)
        for doc in gone:
            self.replace_links(doc, ())
            self.by_doc.pop(doc, None)
            self.names.pop(doc, None)
        for row in self.links.values():
            row.targets = tuple(t for t in row.targets if t[0] not in gone)
