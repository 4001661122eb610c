"""The refactor planner: which links name a note, how each is rewritten when the note moves,
and whether the result is safe. Pure: it reads through the ports it is given and writes nothing.

A reference is a link of an active note that resolves (``gno_core.links.resolve``, the rules
sync uses) to the moved note. The planner reads every linking note from disk (never the
index's mirror, whose lines can differ from the file's; ``reading``), finds each reference in
the file, computes destination-only edit spans in the style of the link (``forms``), applies
them in memory and resolves every reference of the edited text against the names the
collection will have after the operation: each must resolve to the new path, alone. Anything
else blocks the plan.

Links the index does not hold are looked for too: the notes sync could not index (the sync
ledger's failures; a broken frontmatter, a note too large ...) are read as text and, when one
links to the note, edited like any referrer; the notes whose stored links reached ingest's cap
are parsed whole. A note that cannot be read so (not UTF-8, unreadable, over the bound a
refactor reads) is named, with why, in the plan's warnings: the plan does not claim to have
seen it."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterable

from gno_core.config import CollectionConfig, GnoConfig
from gno_core.domain import (
    FRONTMATTER_RELATION,
    WIKI,
    DocRef,
    ExtractedLink,
    LinkTarget,
    NameHit,
    NameKey,
)
from gno_core.errors import NotFoundError
from gno_core.links.extract import MAX_LINKS
from gno_core.links.resolve import resolve_link
from gno_core.ports import DocumentStore, FrontmatterParser, LinkStore, NoteFiles, SyncLedger
from gno_core.ports.refactors import FileChange
from gno_core.refactors import forms
from gno_core.refactors.model import Note, Plan, Reference
from gno_core.refactors.reading import NoteReader
from gno_core.refactors.text import Edit, apply_edits, decode_raw
from gno_core.refactors.unseen import names_it, truncated, unindexed, unseen

__all__ = ["Planner"]


class Planner:
    def __init__(
        self,
        config: GnoConfig,
        documents: DocumentStore,
        links: LinkStore,
        notes: NoteFiles,
        parser: FrontmatterParser,
        ledger: SyncLedger,
        *,
        exact: bool = False,
    ) -> None:
        """``exact``: extract every note's links from its whole text (``reading``: the plan
        its shortcuts must give, for tests)."""
        self._config = config
        self._documents = documents
        self._links = links
        self._notes = notes
        self._ledger = ledger
        self._reader = NoteReader(config, notes, parser, exact)

    def _collection(self, name: str) -> CollectionConfig | None:
        return next((c for c in self._config.collections if c.name == name), None)

    # -- planning ---------------------------------------------------------------------------

    def plan(self, operation: str, collection: CollectionConfig, source: str, target: str) -> Plan:
        plan = Plan(operation, collection, source, target)
        stored = self._documents.get_document(collection.name, source)
        if stored is None:
            raise NotFoundError(f"Document not found: {collection.name}/{source}")
        moved = self._reader.read(collection, source, target, stored.source_hash, True)
        # The same bytes seen from where the note is now (one read of the file, not two).
        before = self._reader.read(collection, source, source, stored.source_hash, True, moved.data)
        plan.notes[(collection.name, source)] = moved
        if moved.stale:
            plan.block("sync_pending")
        if target == source:
            plan.block("destination_unchanged")
        elif self._notes.exists(collection.path, target) or (
            self._documents.get_document(collection.name, target) is not None
        ):
            plan.block("occupied_target")
        self._check_names(plan, before.names, moved.names)
        names = {k.key for k in before.names}
        truncated(plan, moved)
        referrers = self._referrers(plan, names)
        referrers += unindexed(self._config, self._ledger, self._reader, plan, names)
        candidates = [(moved, link) for link in before.links]
        for note in referrers:
            candidates.extend((note, link) for link in note.links)
        hits = self._hits(candidates, names, plan)
        for note, link in candidates:
            self._examine(plan, note, link, hits, before)
        self._verify(plan, moved.names)
        self._changes(plan, moved)
        return plan

    def _check_names(
        self, plan: Plan, before: tuple[NameKey, ...], after: tuple[NameKey, ...]
    ) -> None:
        """A new file name or hierarchy name another note already has would make every link
        to either ambiguous: refused."""
        gained = [k for k in after if k.kind in ("stem", "dendron") and k not in before]
        if plan.operation == "duplicate":
            gained = [k for k in after if k.kind in ("stem", "dendron")]
        if not gained:
            return
        for hit in self._links.candidates(plan.collection.name, sorted({k.key for k in gained})):
            if hit.kind in ("stem", "dendron") and (
                plan.operation == "duplicate" or hit.document.rel_path != plan.source
            ):
                plan.block("duplicate_basename_ambiguity")
                plan.warnings.append(
                    f"{hit.document.collection}/{hit.document.rel_path} is also named "
                    f"{hit.key!r} ({hit.kind})"
                )

    def _referrers(self, plan: Plan, names: set[str]) -> list[Note]:
        """The active notes that link to the note (the index's backlinks) and, read whole,
        those whose stored links reached ingest's cap and that link to it past it."""
        keys = [
            (r.source.collection, r.source.rel_path)
            for r in self._links.incoming(plan.collection.name, plan.source)
        ]
        linking = set(keys)
        keys += self._links.crowded(MAX_LINKS)
        keys = [k for k in dict.fromkeys(keys) if k != (plan.collection.name, plan.source)]
        stored = self._links.document_links(keys)
        notes: list[Note] = []
        for key in keys:
            collection = self._collection(key[0])
            if collection is None:
                continue
            known = stored.get(key)
            sha = known.source_hash if known is not None else None
            note = self._reader.read(collection, key[1], key[1], sha, named=False, stored=known)
            if key not in linking:
                if note.raw is None:
                    unseen(plan, key, "not UTF-8 text")
                if not names_it(note, names):
                    continue
            if note.stale:
                plan.block("sync_pending")
            if note.raw is None:
                plan.block("unicode_normalization_mismatch")
            truncated(plan, note)
            plan.notes[key] = note
            notes.append(note)
        return notes

    def _hits(
        self, candidates: list[tuple[Note, ExtractedLink]], names: set[str], plan: Plan
    ) -> dict[str, dict[str, list[NameHit]]]:
        """Names carried by active notes, per scope collection, for the keys of every link that
        could name the note."""
        keys: dict[str, set[str]] = defaultdict(set)
        for note, link in candidates:
            if names.intersection(link.keys):
                keys[link.target_collection or note.collection.name].update(link.keys)
        out: dict[str, dict[str, list[NameHit]]] = {}
        for scope, wanted in keys.items():
            per_key: dict[str, list[NameHit]] = defaultdict(list)
            for hit in self._links.candidates(scope, sorted(wanted)):
                per_key[hit.key].append(hit)
            out[scope] = per_key
        return out

    def _resolve(
        self, note: Note, link: ExtractedLink, hits: dict[str, dict[str, list[NameHit]]]
    ) -> tuple[LinkTarget, ...]:
        scope = link.target_collection or note.collection.name
        per_key = hits.get(scope, {})
        found = [h for key in link.keys for h in per_key.get(key, ())]
        return resolve_link(link, DocRef(note.collection.name, note.rel_path), found)

    def _examine(
        self,
        plan: Plan,
        note: Note,
        link: ExtractedLink,
        hits: dict[str, dict[str, list[NameHit]]],
        before: Note,
    ) -> None:
        is_moved = note.rel_path == plan.source and note.collection.name == plan.collection.name
        names = {k.key for k in before.names}
        targets = self._resolve(note, link, hits) if names.intersection(link.keys) else ()
        points_here = any(
            t.document.rel_path == plan.source and t.document.collection == plan.collection.name
            for t in targets
        )
        if link.external or not (points_here or (is_moved and link.link_type != WIKI)):
            return
        destination = plan.target if is_moved else note.rel_path
        ref = Reference(
            collection=note.collection.name,
            source_path=note.rel_path,
            destination_path=destination,
            line=link.start_line,
            column=link.start_col,
            end_column=link.end_col,
            link_type=link.link_type,
            form=_form(link),
            classification="unchanged",
            seq=link.seq if points_here else -1,
        )
        plan.references.append(ref)
        if points_here and len(targets) > 1:
            ref.classification, ref.reason_code = "ambiguous", "ambiguous_resolution"
            plan.block("ambiguous_resolution")
            return
        if plan.operation == "duplicate" and not is_moved:
            return  # links keep naming the original; _verify checks they still do
        assert note.raw is not None
        site, reason, new = self._rewrite(plan, note, link, destination, points_here)
        if site is None:
            if new == "unsupported":
                ref.classification, ref.reason_code = "unsupported", reason
                plan.block(reason or "unsupported_syntax")
            return
        line_index, found = site
        if new is None:
            ref.classification, ref.reason_code = "invalid", "unsafe_target"
            plan.block("unsafe_target")
            return
        ref.reason_code = reason
        if new == found.text:
            return
        ref.classification = "rewriteable"
        ref.edit = Edit(destination, line_index + 1, found.start + 1, found.end, new)

    def _rewrite(
        self, plan: Plan, note: Note, link: ExtractedLink, destination: str, points_here: bool
    ) -> tuple[tuple[int, forms.Site] | None, str | None, str | None]:
        """(line index and site, reason code, new text) of one reference; no site and
        ``"unsupported"`` when the link's form cannot be rewritten, no site and None when it
        needs no rewrite (it names the note by title or alias)."""
        assert note.raw is not None
        index = link.start_line - 1
        line = note.raw.lines[index]
        if link.link_type == WIKI:
            if not points_here:
                return None, None, None
            if link.edge_source == FRONTMATTER_RELATION:
                sites = forms.frontmatter_sites(line)
            else:
                sites = forms.wiki_sites(line, link.start_col - 1, link.end_col, link.embed)
            for found_site in sites:
                new = forms.rename_wiki(found_site.text, plan.source, plan.target)
                if new is not None:
                    return (index, found_site), None, new
            if link.edge_source == FRONTMATTER_RELATION and not sites:
                return None, "unsupported_syntax", "unsupported"
            return None, None, None  # by title or alias: unchanged
        if link.target_collection is not None:
            return None, "unsupported_syntax", "unsupported"  # gno:// URIs
        reason: str | None = None
        # A definition ``[label]: dest`` is its own site; a use ``[text][label]`` has its
        # label's definition as its site (the same edit: the plan writes it once).
        found = forms.definition_here(line, link.start_col - 1)
        if found is not None:
            reason = "reference_definition_site"
        else:
            found = forms.markdown_sites(line, link.start_col - 1, link.end_col)
        site: tuple[int, forms.Site] | None = (index, found[0]) if found else None
        if site is None and reason is None:
            label = forms.reference_label(line, link.start_col - 1, link.end_col)
            site = forms.definition_site(note.raw.lines, label)
            reason = "reference_definition_site"
        if site is None:
            return None, "malformed_syntax", "unsupported"
        new = forms.relocate_markdown(site[1], note.rel_path, destination, plan.source, plan.target)
        moved_folder = posixpath.dirname(note.rel_path) != posixpath.dirname(destination)
        if (
            reason is None
            and (moved_folder or posixpath.dirname(plan.source) != posixpath.dirname(plan.target))
            and not site[1].text.startswith("/")
        ):
            reason = "relative_path_recalculated"
        return site, reason, new

    def _verify(self, plan: Plan, after: tuple[NameKey, ...]) -> None:
        """Apply each note's edits in memory, extract its links again and resolve every
        reference against the names of the collection after the operation (one name lookup
        for all the notes)."""
        by_note: dict[tuple[str, str], list[Reference]] = defaultdict(list)
        for ref in plan.references:
            by_note[(ref.collection, ref.source_path)].append(ref)
        relocated: list[tuple[Note, list[Reference]]] = []
        for key, refs in by_note.items():
            note = plan.notes[key]
            if note.raw is None:
                continue
            edits = _unique_edits(r.edit for r in refs)
            data = apply_edits(note.raw, edits) if edits else note.data
            plan.after[key] = data
            if all(r.seq < 0 for r in refs):
                continue
            raw = decode_raw(data)
            assert raw is not None
            moved = Note(note.collection, refs[0].destination_path, data, "", raw)
            moved.links = self._reader.relink(note, moved, {e.line for e in edits})
            if len(moved.links) != len(note.links):
                plan.block("malformed_syntax")
                continue
            relocated.append((moved, refs))
        watched = [(n, n.links[r.seq]) for n, refs in relocated for r in refs if r.seq >= 0]
        hits = self._after_hits(plan, watched, after)
        new_doc = (plan.collection.name, plan.target)
        for note, refs in relocated:
            for ref in refs:
                if ref.seq < 0:
                    continue
                targets = self._resolve(note, note.links[ref.seq], hits)
                # A copy's links to itself name the copy; every other link keeps its target.
                want = new_doc
                if plan.operation == "duplicate" and not _in_moved(ref, plan):
                    want = (plan.collection.name, plan.source)
                if [(t.document.collection, t.document.rel_path) for t in targets] != [want]:
                    code = "ambiguous_resolution"
                    if len(targets) > 1:
                        code = "duplicate_basename_ambiguity"
                    ref.classification, ref.reason_code = "ambiguous", code
                    plan.block(code)

    def _after_hits(
        self, plan: Plan, links: list[tuple[Note, ExtractedLink]], after: tuple[NameKey, ...]
    ) -> dict[str, dict[str, list[NameHit]]]:
        """``_hits`` as the collection will be: the note's old names gone (unless copied),
        its new ones there."""
        keys: dict[str, set[str]] = defaultdict(set)
        for note, link in links:
            keys[link.target_collection or note.collection.name].update(link.keys)
        out: dict[str, dict[str, list[NameHit]]] = {}
        source = (plan.collection.name, plan.source)
        for scope, wanted in keys.items():
            per_key: dict[str, list[NameHit]] = defaultdict(list)
            for hit in self._links.candidates(scope, sorted(wanted)):
                if (hit.document.collection, hit.document.rel_path) == source and (
                    plan.operation != "duplicate"
                ):
                    continue
                per_key[hit.key].append(hit)
            if scope == plan.collection.name:
                doc = DocRef(plan.collection.name, plan.target)
                for name in after:
                    if name.key in wanted:
                        per_key[name.key].append(NameHit(doc, name.kind, name.key))
            out[scope] = per_key
        return out

    def _changes(self, plan: Plan, moved: Note) -> None:
        root = plan.collection.path
        key = (plan.collection.name, plan.source)
        plan.changes.append(FileChange(root, plan.target, None, plan.after.get(key, moved.data)))
        if plan.operation != "duplicate":
            plan.changes.append(FileChange(root, plan.source, moved.sha256, None))
        for (collection, rel_path), data in sorted(plan.after.items()):
            if (collection, rel_path) == key:
                continue
            note = plan.notes[(collection, rel_path)]
            if data != note.data:
                plan.changes.append(FileChange(note.collection.path, rel_path, note.sha256, data))


def _in_moved(ref: Reference, plan: Plan) -> bool:
    return ref.collection == plan.collection.name and ref.source_path == plan.source


def _unique_edits(edits: Iterable[Edit | None]) -> list[Edit]:
    return list({(e.line, e.start_col): e for e in edits if e is not None}.values())


def _form(link: ExtractedLink) -> str:
    if link.edge_source == FRONTMATTER_RELATION:
        return "frontmatter"
    if link.link_type == WIKI:
        return "embed" if link.embed else "wiki"
    return "image" if link.embed else "markdown"
