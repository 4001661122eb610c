"""The bearer token file: generated when a configured path is missing, checked on every request.

The file must be a regular file owned by this user and readable by nobody else (``0600`` or
stricter), holding one token of 32-1024 visible ASCII characters. The token itself is never
logged, printed or put in an error; only a SHA-256 digest is kept in memory. Rotation (new
content), deletion, bad content or relaxed permissions bump the ``epoch``, which revokes every
session opened under the old one; while the file is unusable every request is refused (503).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import stat
import sys
import time
from pathlib import Path

from gno_core.errors import ValidationError

log = logging.getLogger("gno.http")
MIN_LENGTH = 32
MAX_LENGTH = 1024
#: A changed file is noticed at once through ``stat``; an unchanged stat is re-read this often.
RECHECK_SECONDS = 1.0


class BearerToken:
    """One token file. ``refresh`` is cheap (a ``stat``) and runs on the event loop."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.epoch = 0
        self._digest: bytes | None = None
        self._stamp: tuple[int, ...] | None = None
        self._checked = 0.0
        self._problem: str | None = None

    @classmethod
    def open(cls, path: Path) -> BearerToken:
        """Generate the file when missing, then insist it is usable (``VALIDATION`` if not)."""
        if not path.exists():
            generate(path)
        token = cls(path)
        if not token.refresh():
            raise ValidationError(
                f"Bearer token file {path} is unusable: {token._problem}",
                details={"tokenFile": str(path)},
            )
        return token

    @property
    def usable(self) -> bool:
        return self._digest is not None

    def refresh(self) -> bool:
        """Re-validate the file if it changed (or every ``RECHECK_SECONDS``); ``True`` when a
        token is in force."""
        now = time.monotonic()
        try:
            st = os.stat(self.path)
        except OSError:
            return self._fail("the file is missing or unreadable")
        stamp = (st.st_ino, st.st_dev, st.st_size, st.st_mtime_ns, st.st_mode, st.st_uid)
        if stamp == self._stamp and now - self._checked < RECHECK_SECONDS:
            return self.usable
        self._stamp, self._checked = stamp, now
        problem = permission_problem(st)
        if problem is not None:
            return self._fail(problem)
        try:
            text = self.path.read_text(encoding="ascii")
        except (OSError, UnicodeDecodeError):
            return self._fail("the file is unreadable or not ASCII")
        token = text.strip()
        problem = content_problem(token)
        if problem is not None:
            return self._fail(problem)
        digest = _digest(token)
        if self._digest is None or not hmac.compare_digest(digest, self._digest):
            if self._digest is not None or self.epoch:
                log.warning("bearer token in %s changed: existing sessions revoked", self.path)
            self.epoch += 1
            self._digest = digest
        self._problem = None
        return True

    def matches(self, presented: str) -> bool:
        digest = self._digest
        return digest is not None and hmac.compare_digest(_digest(presented), digest)

    def identity(self) -> str:
        """The security identity of callers holding the current token (a digest, never the
        token): distinct per token, so a rotated token is a different caller."""
        digest = self._digest or b""
        return "bearer:" + digest.hex()[:32]

    def _fail(self, problem: str) -> bool:
        if self._digest is not None:
            log.error("bearer token file %s unusable (%s): refusing requests", self.path, problem)
            self.epoch += 1
        self._digest = None
        self._problem = problem
        return False


def generate(path: Path) -> None:
    """Create ``path`` with a random 256-bit token, owner-only from the first byte."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(secrets.token_hex(32) + "\n")
    log.info("generated a bearer token file at %s", path)


def permission_problem(st: os.stat_result) -> str | None:
    if not stat.S_ISREG(st.st_mode):
        return "it is not a regular file"
    if sys.platform == "win32":
        return None
    if st.st_mode & 0o077:
        return f"its permissions {stat.S_IMODE(st.st_mode):04o} let others read it (use 0600)"
    if st.st_uid != os.geteuid():
        return "it is owned by another user"
    return None


def content_problem(token: str) -> str | None:
    if not MIN_LENGTH <= len(token) <= MAX_LENGTH:
        return f"the token must be {MIN_LENGTH}-{MAX_LENGTH} characters on one line"
    if any(not 0x21 <= ord(c) <= 0x7E for c in token):
        return "the token must be visible ASCII on one line"
    return None


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()
