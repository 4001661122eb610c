"""Opaque, versioned journal cursors: ``gno-change-v1.`` then base64url of the journal's epoch
(a random id the store draws once, so a cursor of another or a rebuilt index is recognised)
and the ``seq`` the cursor stands after. Cursors stay valid across restarts: both parts are
stored with the index."""

from __future__ import annotations

import base64
import binascii
import re

from gno_core.errors import ValidationError

__all__ = ["PREFIX", "Cursor", "decode_cursor", "encode_cursor", "is_cursor"]

PREFIX = "gno-change-v1."
_EPOCH = re.compile(r"^[0-9a-f]{8,64}$")


class Cursor(tuple[str, int]):
    """(epoch, seq): the position after entry ``seq`` of journal ``epoch``."""

    __slots__ = ()

    @property
    def epoch(self) -> str:
        return self[0]

    @property
    def seq(self) -> int:
        return self[1]


def encode_cursor(epoch: str, seq: int) -> str:
    raw = f"{epoch}:{seq}".encode("ascii")
    return PREFIX + base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def is_cursor(value: str) -> bool:
    return value.startswith(PREFIX)


def decode_cursor(value: str) -> Cursor:
    """The position a cursor names; ``VALIDATION`` when it is not one this version wrote."""
    bad = ValidationError(
        "since is not a change cursor of this gno (expected gno-change-v1.…)",
        details={"field": "since"},
    )
    if not is_cursor(value):
        raise bad
    body = value[len(PREFIX) :]
    try:
        raw = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode("ascii")
    except (binascii.Error, ValueError, UnicodeDecodeError):
        raise bad from None
    epoch, _, seq = raw.partition(":")
    if not _EPOCH.match(epoch) or not seq.isdigit() or len(seq) > 18:
        raise bad
    return Cursor((epoch, int(seq)))
