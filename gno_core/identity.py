"""Identity rules: collection and index names, ``gno://`` URIs, docids and document refs."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import quote, unquote

from gno_core.errors import ValidationError
from gno_core.text.validity import require_text

COLLECTION_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
DOCID_RE = re.compile(r"^#?([0-9a-fA-F]{6,8})$")
LINE_SUFFIX_RE = re.compile(r"^(.*?):(\d+)$")
DEFAULT_INDEX = "default"
_URI_SAFE = "!'()*-._~"  # what encodeURIComponent leaves alone besides alphanumerics
_NOTHING_TO_ENCODE = re.compile(r"[A-Za-z0-9!'()*\-._~/]*")


def normalize_collection_name(name: str) -> str:
    """Collection names are case-insensitive on input and lowercase everywhere after."""
    candidate = require_text(name, "collection name").strip().lower()
    if not COLLECTION_NAME_RE.fullmatch(candidate):
        raise ValidationError(
            f"Invalid collection name {name!r}: use 1-64 characters a-z, 0-9, '_' or '-', "
            "starting with a letter or digit",
            details={"name": name},
        )
    return candidate


def normalize_index_name(name: str) -> str:
    """Validate an index name and return its canonical identity (NFC + casefold).

    1-64 UTF-16 units of letters, marks, numbers, internal spaces, ``.``, ``_`` or ``-``; starts
    with a letter or number; no trailing space or ``.``; no ``..``; at most 242 UTF-8 bytes.
    """
    nfc = unicodedata.normalize("NFC", require_text(name, "index name"))
    units = len(nfc.encode("utf-16-le")) // 2

    def bad(reason: str) -> ValidationError:
        return ValidationError(f"Invalid index name {name!r}: {reason}", details={"name": name})

    if not 1 <= units <= 64:
        raise bad("must be 1-64 characters")
    if not _is_alnum(nfc[0]):
        raise bad("must start with a letter or number")
    if nfc.endswith((" ", ".")):
        raise bad("must not end with a space or '.'")
    if ".." in nfc:
        raise bad("must not contain '..'")
    for ch in nfc:
        if ch in " ._-" or _is_alnum(ch) or unicodedata.category(ch).startswith("M"):
            continue
        raise bad(f"character {ch!r} is not allowed")
    identity = unicodedata.normalize("NFC", nfc.casefold())
    if len(identity.encode("utf-8")) > 242:
        raise bad("must be at most 242 UTF-8 bytes")
    return identity


def _is_alnum(ch: str) -> bool:
    return unicodedata.category(ch)[0] in ("L", "N")


def encode_rel_path(rel_path: str) -> str:
    """Percent-encode each path segment like ``encodeURIComponent``, keeping ``/``. A name
    that is not UTF-8 on disk (decoded with ``surrogateescape``) keeps its original bytes."""
    if _NOTHING_TO_ENCODE.fullmatch(rel_path):
        return rel_path  # the common case, without a quote() per segment (backlink lists)
    return "/".join(quote(_segment_bytes(seg), safe=_URI_SAFE) for seg in rel_path.split("/"))


def _segment_bytes(segment: str) -> bytes:
    try:
        return segment.encode("utf-8")
    except UnicodeEncodeError:
        try:
            return segment.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            return segment.encode("utf-8", "surrogatepass")


def make_uri(collection: str, rel_path: str, index: str = DEFAULT_INDEX) -> str:
    """``gno://<collection>/<encoded relPath>``, plus ``?index=<name>`` for a non-default index."""
    return f"gno://{collection}/{encode_rel_path(rel_path)}{uri_suffix(index)}"


def uri_collections(uris: Iterable[str]) -> list[str]:
    """The collections named by ``gno://collection/path`` URIs, sorted, each once."""
    names = {u[len("gno://") :].split("/", 1)[0] for u in uris if u.startswith("gno://")}
    return sorted(n for n in names if n)


def uri_suffix(index: str = DEFAULT_INDEX) -> str:
    """What ``make_uri`` writes after the path: ``?index=<name>`` for a non-default index."""
    return "" if index == DEFAULT_INDEX else f"?index={quote(index, safe=_URI_SAFE)}"


#: ``plain_rel_path(p)`` is true when ``encode_rel_path(p) == p`` (nothing to percent-encode):
#: a list of thousands of URIs (a hub's backlinks) writes those without a call per path.
plain_rel_path = _NOTHING_TO_ENCODE.fullmatch


def make_docid(source_hash: str) -> str:
    """``#`` + the first 8 hex characters of the source SHA-256."""
    return "#" + source_hash[:8]


@dataclass(frozen=True, slots=True)
class DocRef:
    """A parsed document reference. Exactly one of (collection + rel_path) or docid_prefix is set."""

    collection: str | None = None
    rel_path: str | None = None
    docid_prefix: str | None = None
    index: str | None = None
    line: int | None = None
    raw: str = ""

    @property
    def is_docid(self) -> bool:
        return self.docid_prefix is not None


def parse_uri(uri: str) -> DocRef:
    """Parse ``gno://collection/path[?index=name]``; the path is percent-decoded."""
    require_text(uri, "document URI")
    if not uri.startswith("gno://"):
        raise ValidationError(f"Not a gno:// URI: {uri!r}", details={"ref": uri})
    rest = uri[len("gno://") :]
    index: str | None = None
    if "?" in rest:
        rest, query = rest.split("?", 1)
        for part in query.split("&"):
            key, _, value = part.partition("=")
            if key == "index" and value:
                index = normalize_index_name(unquote(value))
    collection, _, encoded = rest.partition("/")
    if not collection or not encoded:
        raise ValidationError(
            f"Invalid document URI {uri!r}: expected gno://collection/path", details={"ref": uri}
        )
    rel_path = unquote(encoded)
    _check_rel_path(rel_path, uri)
    return DocRef(
        collection=normalize_collection_name(collection), rel_path=rel_path, index=index, raw=uri
    )


def parse_ref(ref: str) -> DocRef:
    """Accept a ``gno://`` URI, ``collection/path``, or ``#docid`` (6-8 hex), each optionally
    followed by ``:line``."""
    text = require_text(ref, "document reference").strip()
    if not text:
        raise ValidationError("Empty document reference", details={"ref": ref})
    line: int | None = None
    m = LINE_SUFFIX_RE.match(text)
    if m and m.group(1):
        text, line = m.group(1), int(m.group(2))
        if line < 1:
            raise ValidationError("Line numbers start at 1", details={"ref": ref})
    if text.startswith("#") or (DOCID_RE.fullmatch(text) and "/" not in text):
        dm = DOCID_RE.fullmatch(text)
        if not dm:
            raise ValidationError(
                f"Invalid docid {text!r}: expected # and 6-8 hex characters", details={"ref": ref}
            )
        return DocRef(docid_prefix=dm.group(1).lower(), line=line, raw=ref)
    if text.startswith("gno://"):
        parsed = parse_uri(text)
        return DocRef(
            collection=parsed.collection,
            rel_path=parsed.rel_path,
            index=parsed.index,
            line=line,
            raw=ref,
        )
    collection, sep, rel_path = text.partition("/")
    if not sep or not rel_path:
        raise ValidationError(
            f"Invalid document reference {ref!r}: use gno://collection/path, collection/path "
            "or #docid",
            details={"ref": ref},
        )
    _check_rel_path(rel_path, ref)
    return DocRef(
        collection=normalize_collection_name(collection), rel_path=rel_path, line=line, raw=ref
    )


def _check_rel_path(rel_path: str, ref: str) -> None:
    parts = rel_path.split("/")
    if rel_path.startswith("/") or any(p in ("", ".", "..") for p in parts) or "\x00" in rel_path:
        raise ValidationError(f"Invalid document path in {ref!r}", details={"ref": ref})
