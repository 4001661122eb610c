"""How the refactor planner reads a note: its bytes from disk, their lines, links and names,
and the links of the note once the plan's edits are applied.

Links are the extractor's (``gno_core.links.extract``), with two shortcuts that give the same
links for less: a note whose bytes are the ones indexed and whose text is their mirror takes
the links sync stored for it (extracted from that very text), and an edited note has only
its edited lines parsed again when ``extract_edited`` can show that gives the whole text's
links. ``exact`` turns both off (the plan the shortcuts must give, for tests).

A refactor sees further than ingest: a note's links are extracted up to ``SCAN_MAX_LINKS``, not
ingest's ``MAX_LINKS`` (a note whose stored links reached that cap is parsed again, whole), and
a note sync could not index (``scan``: broken frontmatter, too large, ...) is read as text, up to
``SCAN_MAX_BYTES``, its frontmatter's ``[[links]]`` found as text when it does not parse."""

from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import replace

from gno_core.config import CollectionConfig, GnoConfig
from gno_core.domain import ExtractedLink
from gno_core.errors import GnoError
from gno_core.links.extract import MAX_LINKS, extract_edited, extract_links
from gno_core.links.inline import wiki
from gno_core.links.names import document_names, link_keys
from gno_core.ports import FrontmatterParser, NoteFiles
from gno_core.ports.links import DocumentLinks
from gno_core.refactors.model import Note
from gno_core.refactors.text import decode_raw
from gno_core.text.frontmatter import aliases, document_meta, split_frontmatter

__all__ = ["SCAN_MAX_BYTES", "SCAN_MAX_LINKS", "NoteReader"]

#: The largest note sync could not index that a refactor reads as text (one over it is named
#: in the plan's warnings, never read).
SCAN_MAX_BYTES = 32 * 1024 * 1024
#: Links a refactor reads per note (ingest keeps ``MAX_LINKS``); past it the note is named in
#: the plan's warnings.
SCAN_MAX_LINKS = 200_000
_WIKI = re.compile(r"\[\[([^\[\]\n]{1,1000})\]\]")


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
        failed: str | None = None,
    ) -> Note:
        """The note at ``path`` (its bytes ``data`` when already read), its links extracted
        (and, when ``named``, its names) as if it were at ``moved_to``; ``stale`` when its
        bytes do not hash to the indexed ``sha``. The ``stored`` links of the note (at
        ``path``) are its links when its bytes are the ones indexed and its text is their
        mirror (and below ingest's cap: past it, links were left out). A ``failed`` note (the
        code of its ingest failure) is one sync could not index, read as text."""
        if data is None:
            data = self._notes.read(collection.path, path, self._config.ingest.max_file_bytes)[1]
        note = Note(collection, path, data, _sha(data), decode_raw(data), failed=failed)
        note.stale = sha != note.sha256
        if note.raw is None:
            return note
        text = note.raw.extraction_text
        if (
            stored is not None
            and not (named or self._exact)
            and moved_to == path
            and len(stored.links) < MAX_LINKS
            and stored.source_hash == note.sha256
            and stored.mirror_hash == _sha(text.encode("utf-8"))
        ):
            note.links = stored.links
            return note
        front, body_line = self.front(text)
        note.links = self._extract(text, moved_to, front, body_line, failed is not None)
        note.truncated = len(note.links) >= SCAN_MAX_LINKS
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
        front, body_line = self.front(text)
        return self._extract(text, edited.rel_path, front, body_line, note.failed is not None)

    def scan(self, collection: CollectionConfig, path: str, failed: str) -> Note | str | None:
        """The note at ``path`` that sync could not index (``failed``: the failure's code),
        read as text; or why it cannot be read so; None when it is gone."""
        try:
            data = self._notes.read(collection.path, path, SCAN_MAX_BYTES)[1]
        except GnoError as exc:
            if exc.code == "NOT_FOUND":
                return None
            code = str(exc.details.get("code") or exc.code)
            if code == "TOO_LARGE":
                return f"{failed}: over the {SCAN_MAX_BYTES:,} bytes a refactor reads"
            return f"{failed}: {code}: {exc.message}"
        note = self.read(collection, path, path, None, False, data, failed=failed)
        note.stale = False  # no indexed version to be behind: its bytes are the ones read
        if note.raw is None:
            return f"{failed}: not UTF-8 text"
        return note

    def _extract(
        self, text: str, path: str, front: dict[str, object], body_line: int, loose: bool
    ) -> tuple[ExtractedLink, ...]:
        """The links of ``text`` at ``path`` (the first ``SCAN_MAX_LINKS``). ``loose``: a note
        sync could not index, whose frontmatter, when it does not parse, holds its
        ``[[links]]`` as text (each at its own columns, like a body link)."""
        if not (loose and body_line > 1 and not front):
            return extract_links(text, path, front, body_line, SCAN_MAX_LINKS)
        head: list[ExtractedLink] = []
        for number, line in enumerate(text.split("\n", body_line - 1)[: body_line - 1], 1):
            for match in _WIKI.finditer(line):
                embed = match.start() > 0 and line[match.start() - 1] == "!"
                start = match.start() - (1 if embed else 0)
                link = wiki(number, line, start, match.end() - 1, match.group(1), embed)
                if link is not None:
                    head.append(link)
        body = extract_links(text, path, None, body_line, SCAN_MAX_LINKS - len(head))
        return tuple(
            replace(link, seq=seq, keys=link.keys or link_keys(link, path))
            for seq, link in enumerate((*head, *body))
        )

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
