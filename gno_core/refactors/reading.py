"""How the refactor planner reads a note: its bytes from disk, their lines, links and names,
and the links of the note once the plan's edits are applied.

Links are the extractor's (``gno_core.links.extract``), with two shortcuts that give the same
links for less: a note whose bytes are the ones indexed and whose text is their mirror takes
the links sync stored for it (extracted from that very text), and an edited note has only
its edited lines parsed again when ``extract_edited`` can show that gives the whole text's
links. ``exact`` turns both off (the plan the shortcuts must give, for tests)."""

from __future__ import annotations

import hashlib
import posixpath

from gno_core.config import CollectionConfig, GnoConfig
from gno_core.domain import ExtractedLink
from gno_core.errors import GnoError
from gno_core.links.extract import extract_edited, extract_links
from gno_core.links.names import document_names
from gno_core.ports import FrontmatterParser, NoteFiles
from gno_core.ports.links import DocumentLinks
from gno_core.refactors.model import Note
from gno_core.refactors.text import decode_raw
from gno_core.text.frontmatter import aliases, document_meta, split_frontmatter

__all__ = ["NoteReader"]


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class NoteReader:
    def __init__(
        self, config: GnoConfig, notes: NoteFiles, parser: FrontmatterParser, exact: bool
    ) -> None:
        self._config = config
        self._notes = notes
        self._parser = parser
        self._exact = exact

    def read(
        self,
        collection: CollectionConfig,
        path: str,
        moved_to: str,
        sha: str | None,
        named: bool,
        data: bytes | None = None,
        stored: DocumentLinks | None = None,
    ) -> Note:
        """The note at ``path`` (its bytes ``data`` when already read), its links extracted
        (and, when ``named``, its names) as if it were at ``moved_to``; ``stale`` when its
        bytes do not hash to the indexed ``sha``. The ``stored`` links of the note (at
        ``path``) are its links when its bytes are the ones indexed and its text is their
        mirror."""
        if data is None:
            data = self._notes.read(collection.path, path, self._config.ingest.max_file_bytes)[1]
        note = Note(collection, path, data, _sha(data), decode_raw(data))
        note.stale = sha != note.sha256
        if note.raw is None:
            return note
        text = note.raw.extraction_text
        if (
            stored is not None
            and not (named or self._exact)
            and moved_to == path
            and stored.source_hash == note.sha256
            and stored.mirror_hash == _sha(text.encode("utf-8"))
        ):
            note.links = stored.links
            return note
        front, body_line = self.front(text)
        note.links = extract_links(text, moved_to, front, body_line)
        if named:
            stem = posixpath.splitext(posixpath.basename(moved_to))[0]
            meta = document_meta(front, split_frontmatter(text)[1], stem)
            note.names = document_names(moved_to, meta.title, aliases(front))
        return note

    def relink(self, note: Note, edited: Note, lines: set[int]) -> tuple[ExtractedLink, ...]:
        """The links of ``edited``: ``note`` with edits on its ``lines`` applied, at the path
        ``note.links`` were extracted for (the same links when nothing is edited)."""
        assert note.raw is not None and edited.raw is not None
        text = edited.raw.extraction_text
        if not self._exact:
            if not lines:
                return note.links
            old = note.raw.extraction_text
            yaml, body = split_frontmatter(old)
            new_yaml, new_body = split_frontmatter(text)
            if yaml == new_yaml and len(old) - len(body) == len(text) - len(new_body):
                body_line = old.count("\n", 0, len(old) - len(body)) + 1
                links = extract_edited(note.links, old, text, lines, edited.rel_path, body_line)
                if links is not None:
                    return links
        return extract_links(text, edited.rel_path, *self.front(text))

    def front(self, text: str) -> tuple[dict[str, object], int]:
        """The parsed frontmatter of ``text`` (empty when it does not parse) and the line its
        body starts on."""
        yaml, body = split_frontmatter(text)
        front: dict[str, object] = {}
        if yaml is not None:
            try:
                front = dict(self._parser.parse(yaml))
            except GnoError:
                front = {}
        return front, text.count("\n", 0, len(text) - len(body)) + 1
