"""Ports: reading a collection's source tree, and parsing frontmatter."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from gno_core.domain import SourceFile


class SourceTree(Protocol):
    def walk(
        self, root: str, pattern: str, include: tuple[str, ...], exclude: tuple[str, ...]
    ) -> Iterator[SourceFile]:
        """Yield every regular file under ``root`` that matches ``pattern`` (a glob over the POSIX
        relative path, ``**`` crossing directories) or whose extension is in ``include``, and no
        path segment of which matches ``exclude``. Never leaves ``root`` through symlinks, nor
        follows one into a key store. Order is deterministic (sorted by relative path). Raises
        ``PATH_NOT_FOUND`` if ``root`` is gone, ``INVALID_PATH`` (``details.code`` ``KEY_STORE``)
        if it resolves into a key store (``gno_core.indexing.roots.key_store_in``)."""
        ...

    def read(self, abs_path: str, max_bytes: int) -> bytes:
        """The file's bytes. Raises ``VALIDATION`` (details ``code: TOO_LARGE``) when the file is
        larger than ``max_bytes`` and ``RUNTIME`` (``code: UNREADABLE``) when it cannot be read."""
        ...


class FrontmatterParser(Protocol):
    def parse(self, text: str) -> Mapping[str, Any]:
        """Parse a YAML frontmatter block (without the ``---`` fences) into plain Python values
        (dict/list/str/int/float/bool/None; dates as ISO strings). Raises ``VALIDATION`` with the
        parser's message when the YAML is malformed or not a mapping."""
        ...
