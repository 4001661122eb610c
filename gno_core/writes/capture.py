"""Capture planning, pure: where a new note goes, what it says, and the frontmatter it gets.

- **Paths** are relative POSIX paths inside the collection: no leading ``/`` or drive, no ``..``
  or ``.`` segments, no NUL or backslash, no control or bidirectional character and no Windows
  reserved device name (``names``), no sensitive folder (``.git``, ``.ssh`` ...) or key store
  (``roots.KEY_STORES``), and they must be a path the collection indexes (its pattern, includes
  and excludes), else the note would be written but never searchable. Without ``path`` the
  name comes from the title or first heading (else ``capture-<body hash>``; ``con-note`` for a
  title that is a reserved name) under ``folderPath``, by default ``inbox/YYYY-MM-DD`` (UTC).
- **Content** is text: no NUL or other C0 control except tab and newlines, no lone surrogate.
- **Frontmatter** (Markdown notes only): the caller's own block is kept key by key; ``tags``
  are merged with the requested ones (validated, lowercase), ``source`` records the provenance
  (``kind``, ``capturedAt`` and the optional fields), a preset sets ``type``. The block is
  written with JSON-quoted scalars, which every YAML reader takes literally.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from gno_core.config import CollectionConfig
from gno_core.contracts.write_requests import CaptureRequest
from gno_core.contracts.writes import CaptureSource
from gno_core.errors import InvalidPathError, ValidationError
from gno_core.ports.files import FrontmatterParser
from gno_core.sources.key_stores import key_store_in
from gno_core.sources.patterns import compile_glob, exclusions
from gno_core.text.frontmatter import first_heading, normalize_tag, split_frontmatter
from gno_core.text.validity import has_lone_surrogate
from gno_core.writes.names import name_problem, reserved_name
from gno_core.writes.presets import PRESETS

__all__ = [
    "SENSITIVE_SEGMENTS",
    "ComposedNote",
    "check_indexable",
    "check_rel_path",
    "check_text",
    "compose_note",
    "plan_path",
    "suffixed",
]

#: Folders a capture never writes into: version control, keys, credentials, dependencies.
SENSITIVE_SEGMENTS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".ssh",
        ".gnupg",
        ".aws",
        ".kube",
        ".docker",
        ".config",
        ".local",
        ".gno",
        ".venv",
        "node_modules",
        "__pycache__",
    }
)
MARKDOWN_EXTENSIONS = frozenset({".md", ".markdown"})
MAX_SEGMENT_BYTES = 255
MAX_SLUG_CHARS = 80
#: ``create_with_suffix`` tries ``name-2`` up to this before giving up.
MAX_SUFFIX = 1000
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_DRIVE = re.compile(r"^[A-Za-z]:")
_TAG_CHARS = re.compile(r"^[#\w\-./ ]+$")
_SLUG_DROP = re.compile(r"[^a-z0-9]+")
_PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


def _bad_path(message: str, path: str, reason: str) -> InvalidPathError:
    return InvalidPathError(message, details={"path": path[:300], "reason": reason})


def check_rel_path(raw: str, what: str = "path") -> str:
    """``raw`` as a safe relative POSIX path (surrounding spaces and trailing ``/`` dropped);
    ``INVALID_PATH`` else, ``details.reason`` saying why (``absolute``, ``escape``,
    ``sensitive`` for a version-control folder or a key store, ``control``, ``bidi`` and
    ``reserved`` for names a disk or a reader would take for another, ...)."""
    if "\x00" in raw:
        raise _bad_path(f"{what} contains a NUL byte", raw, "nul")
    if "\\" in raw:
        raise _bad_path(f"{what} must use / separators, not \\", raw, "backslash")
    problem = name_problem(raw)
    if problem is not None:
        raise _bad_path(f"{what} contains {problem[1]}: {raw[:200]!a}", raw, problem[0])
    path = raw.strip()
    if path.startswith("/") or path.startswith("~") or _DRIVE.match(path):
        raise _bad_path(f"{what} must be relative to the collection: {raw[:200]}", raw, "absolute")
    path = path.rstrip("/")
    if not path:
        raise _bad_path(f"{what} is empty", raw, "empty")
    for segment in path.split("/"):
        if segment in ("", ".", ".."):
            raise _bad_path(f"{what} may not contain '..', '.' or '//': {raw[:200]}", raw, "escape")
        if segment.casefold() in SENSITIVE_SEGMENTS:
            raise _bad_path(
                f"{what} goes into a sensitive folder ({segment}): {raw[:200]}", raw, "sensitive"
            )
    store = key_store_in(path)
    if store is not None:
        raise _bad_path(f"{what} goes into a key store ({store}): {raw[:200]}", raw, "sensitive")
    for segment in path.split("/"):
        if has_lone_surrogate(segment):  # control characters: ``name_problem`` above
            raise _bad_path(f"{what} contains control characters", raw, "control")
        if len(segment.encode("utf-8")) > MAX_SEGMENT_BYTES:
            raise _bad_path(f"{what} has a name over {MAX_SEGMENT_BYTES} bytes", raw, "too_long")
    return path


def check_indexable(collection: CollectionConfig, rel_path: str) -> None:
    """``INVALID_PATH`` when the collection would not index ``rel_path`` (pattern, includes,
    excludes): the note would exist but never be found."""
    segments = rel_path.split("/")
    excluded_name, excluded_path = exclusions(collection.exclude)
    prefixes = ["/".join(segments[: i + 1]) for i in range(len(segments))]
    ext = posixpath.splitext(segments[-1])[1].lower()
    included = bool(ext and ext in {e.lower() for e in collection.include})
    if (
        any(excluded_name(s) for s in segments)
        or (excluded_path is not None and any(excluded_path(p) for p in prefixes))
        or not (included or compile_glob(collection.pattern).fullmatch(rel_path))
    ):
        raise _bad_path(
            f"Collection {collection.name} does not index {rel_path} (pattern "
            f"{collection.pattern}, excludes {', '.join(collection.exclude) or 'none'})",
            rel_path,
            "not_indexed",
        )


def check_text(text: str, what: str = "content") -> None:
    """``VALIDATION`` (``details.code`` ``BINARY``) unless ``text`` is text."""
    if _CONTROL.search(text) or has_lone_surrogate(text):
        raise ValidationError(
            f"{what} must be text: it contains NUL, control or invalid Unicode characters",
            details={"code": "BINARY", "field": what},
        )


def slug(title: str) -> str:
    """A file name stem from a title (ASCII letters and digits joined by ``-``)."""
    import unicodedata

    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return _SLUG_DROP.sub("-", ascii_title.lower()).strip("-")[:MAX_SLUG_CHARS].strip("-")


def suffixed(rel_path: str, n: int) -> str:
    """``folder/name-n.ext`` for the ``n``-th candidate of ``create_with_suffix``."""
    stem, ext = posixpath.splitext(rel_path)
    return f"{stem}-{n}{ext}"


def plan_path(request: CaptureRequest, title: str | None, body: str, today: str) -> str:
    """The relative path ``request`` asks for, or the generated one (see the module doc)."""
    folder = check_rel_path(request.folder_path, "folderPath") if request.folder_path else None
    if request.path:
        rel = check_rel_path(request.path)
        if not posixpath.splitext(rel.rsplit("/", 1)[-1])[1]:
            rel += ".md"
        return f"{folder}/{rel}" if folder else rel
    stem = slug(title) if title else ""
    if reserved_name(stem):
        stem += "-note"  # a title "Con" or "Aux" names con-note.md: Windows cannot hold con.md
    if not stem:
        stem = "capture-" + hashlib.sha256(body.encode("utf-8")).hexdigest()[:12]
    return f"{folder or 'inbox/' + today}/{stem}.md"


@dataclass(frozen=True, slots=True)
class ComposedNote:
    """The bytes-to-be of a capture and what the receipt reports about them."""

    text: str
    title: str | None
    body: str
    tags: list[str]
    source: CaptureSource


def _tags(requested: list[str], existing: object) -> list[str]:
    out: list[str] = []
    olds = existing if isinstance(existing, list) else [existing] if existing else []
    for raw in [*olds, *requested]:
        if isinstance(raw, str) and raw in requested and not _TAG_CHARS.match(raw):
            raise ValidationError(
                f"Invalid tag {raw[:80]!r}: use letters, digits, '-', '.', '/'",
                details={"tag": raw[:80]},
            )
        tag = normalize_tag(raw)
        if tag is None:
            if raw in requested:
                raise ValidationError(
                    f"Invalid tag {str(raw)[:80]!r}", details={"tag": str(raw)[:80]}
                )
            continue
        if tag not in out:
            out.append(tag)
    return out


def compose_note(
    request: CaptureRequest,
    rel_path_hint: str | None,
    parser: FrontmatterParser,
    captured_at: str,
) -> ComposedNote:
    """The note ``request`` describes: content (with the preset scaffold and a title heading),
    merged frontmatter, tags and provenance. ``VALIDATION`` for non-text or empty content,
    bad tags, tags on a non-Markdown path, or unreadable frontmatter in the content."""
    content = (request.content or "").replace("\r\n", "\n")
    check_text(content)
    if request.title is not None:
        check_text(request.title, "title")
    block, body = split_frontmatter(content)
    front: dict[str, Any] = dict(parser.parse(block)) if block is not None else {}
    preset = PRESETS.get(request.preset_id or "blank")
    heading = first_heading(body)
    title = (request.title or "").strip() or heading
    if title is None and isinstance(front.get("title"), str):
        title = str(front["title"]).strip() or None
    if preset is not None and preset.sections:
        title = title or preset.title
        lead = body.strip("\n")
        if heading is None:
            body = f"# {title}\n\n" + (lead + "\n\n" if lead else "") + preset.scaffold()
        else:
            body = lead + "\n\n" + preset.scaffold()
        front.setdefault("type", preset.id)
    elif request.title and heading is None and body.strip():
        body = f"# {request.title.strip()}\n\n" + body.lstrip("\n")
    if not body.strip():
        raise ValidationError(
            "content is required (or a presetId with a scaffold, such as meeting)",
            details={"code": "EMPTY_CONTENT"},
        )
    given = request.source
    source = CaptureSource(
        kind=(given.kind if given and given.kind else "direct"),
        captured_at=(given.captured_at if given and given.captured_at else captured_at),
        **(
            given.model_dump(exclude={"kind", "captured_at"}, exclude_none=True)
            if given is not None
            else {}
        ),
    )
    for value in source.model_dump(exclude_none=True).values():
        check_text(str(value), "source")
    markdown = (
        rel_path_hint is None or posixpath.splitext(rel_path_hint)[1].lower() in MARKDOWN_EXTENSIONS
    )
    tags = _tags(request.tags, front.get("tags"))
    if not markdown:
        if request.tags:
            raise ValidationError(
                "tags are written to frontmatter: capture tags into a Markdown (.md) note",
                details={"path": rel_path_hint},
            )
        return ComposedNote(body, title, body, [], source)
    if tags:
        front["tags"] = tags
    front.pop("tag", None)
    front["source"] = source.wire()
    text = "---\n" + render_yaml(front) + "---\n\n" + body.lstrip("\n")
    if not text.endswith("\n"):
        text += "\n"
    return ComposedNote(text, title, body, tags, source)


def render_yaml(mapping: Mapping[str, Any], indent: str = "") -> str:
    """Block YAML for a frontmatter mapping: nested mappings as blocks, everything else as JSON
    (valid YAML flow), so no value is ever read back as another type."""
    lines = []
    for key, value in mapping.items():
        name = key if _PLAIN_KEY.match(str(key)) else json.dumps(str(key), ensure_ascii=False)
        if isinstance(value, Mapping) and value:
            lines.append(f"{indent}{name}:\n" + render_yaml(value, indent + "  ").rstrip("\n"))
        else:
            lines.append(f"{indent}{name}: {json.dumps(value, ensure_ascii=False, default=str)}")
    return "\n".join(lines) + "\n"
