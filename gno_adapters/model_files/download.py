"""Downloads one model file: streamed, resumable, checksummed, renamed into place atomically.

The bytes go to ``<dest>.part``; an interrupted download leaves that file behind and the next
attempt (in the same call, or a later ``gno models pull``) asks the server for the rest with an
HTTP ``Range`` request. Only a complete file whose SHA-256 matches is renamed to ``dest``. A
checksum mismatch deletes the ``.part`` file, since resuming from corrupt bytes can never
succeed. Every failure raises ``MODEL_UNAVAILABLE`` with ``details.reason`` saying why.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from gno_core.errors import ModelUnavailableError

if TYPE_CHECKING:  # httpx loads only when a pull runs, keeping CLI and MCP start-up fast
    import httpx

#: ``progress(bytes_done, bytes_total_or_None)``, called as bytes arrive.
Progress = Callable[[int, int | None], None]

_CHUNK = 1 << 20
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+|\*)")


def part_path(dest: Path) -> Path:
    """Where the bytes of ``dest`` accumulate until the download is complete and verified."""
    return dest.with_name(dest.name + ".part")


def file_sha256(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(_CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def download(
    client: httpx.Client,
    url: str,
    dest: Path,
    *,
    sha256: str | None = None,
    size: int | None = None,
    attempts: int = 3,
    progress: Progress | None = None,
) -> str:
    """Fetch ``url`` into ``dest`` and return the file's SHA-256.

    A connection cut mid-transfer is resumed up to ``attempts`` times in this call; after that
    the ``.part`` file stays for the next call to resume. ``sha256`` and ``size``, when given, are
    checked before the rename. Raises ``MODEL_UNAVAILABLE`` (reasons ``not_found``, ``http``,
    ``network``, ``size_mismatch``, ``checksum_mismatch``).
    """
    import httpx

    dest.parent.mkdir(parents=True, exist_ok=True)
    part = part_path(dest)
    with _exclusive(dest):
        for attempt in range(1, attempts + 1):
            try:
                _fetch(client, url, part, size, progress)
                break
            except httpx.TransportError as exc:
                if attempt == attempts:
                    done = part.stat().st_size if part.exists() else 0
                    raise ModelUnavailableError(
                        f"download of {url} failed after {attempts} attempts ({exc}); "
                        f"{done} bytes kept in {part}, run the pull again to resume",
                        details={"reason": "network", "url": url, "partial": str(part)},
                    ) from exc
        actual_size = part.stat().st_size
        if size is not None and actual_size != size:
            part.unlink(missing_ok=True)
            raise ModelUnavailableError(
                f"download of {url} has {actual_size} bytes, expected {size}",
                details={"reason": "size_mismatch", "url": url, "expected": size},
            )
        actual = file_sha256(part)
        if sha256 is not None and actual != sha256.lower():
            part.unlink(missing_ok=True)
            raise ModelUnavailableError(
                f"checksum mismatch for {url}: expected sha256 {sha256}, got {actual}; "
                "the partial file was deleted",
                details={
                    "reason": "checksum_mismatch",
                    "url": url,
                    "expected": sha256,
                    "actual": actual,
                },
            )
        with part.open("rb") as fh:
            os.fsync(fh.fileno())
        os.replace(part, dest)
        return actual


def _fetch(
    client: httpx.Client, url: str, part: Path, size: int | None, progress: Progress | None
) -> None:
    offset = part.stat().st_size if part.exists() else 0
    if size is not None and offset > size:
        part.unlink()
        offset = 0
    if size is not None and offset == size:
        return
    headers = {"Range": f"bytes={offset}-"} if offset else {}
    with client.stream("GET", url, headers=headers, follow_redirects=True) as response:
        if response.status_code == 416 and offset:
            # The server says our partial file is already whole (or longer than the resource):
            # let the size and checksum checks decide.
            return
        if response.status_code == 404:
            raise ModelUnavailableError(
                f"model file not found at {url} (HTTP 404)",
                details={"reason": "not_found", "url": url, "status": 404},
            )
        if response.status_code not in (200, 206):
            raise ModelUnavailableError(
                f"download of {url} failed with HTTP {response.status_code}",
                details={"reason": "http", "url": url, "status": response.status_code},
            )
        mode = "ab"
        if response.status_code == 200 or not _resumes_at(response, offset):
            mode, offset = "wb", 0
        total = _total(response, offset) or size
        with part.open(mode) as fh:
            done = offset
            for block in response.iter_bytes():
                fh.write(block)
                done += len(block)
                if progress is not None:
                    progress(done, total)


def _resumes_at(response: httpx.Response, offset: int) -> bool:
    match = _CONTENT_RANGE.fullmatch(response.headers.get("content-range", "").strip())
    return match is not None and int(match.group(1)) == offset


def _total(response: httpx.Response, offset: int) -> int | None:
    match = _CONTENT_RANGE.fullmatch(response.headers.get("content-range", "").strip())
    if match and match.group(3) != "*":
        return int(match.group(3))
    length = response.headers.get("content-length")
    return offset + int(length) if length and length.isdigit() else None


@contextlib.contextmanager
def _exclusive(dest: Path) -> Iterator[None]:
    """Hold a cross-process lock on ``dest`` so two pulls never write the same ``.part``."""
    lock_path = dest.with_name(dest.name + ".lock")
    with lock_path.open("a+b") as fh:
        try:
            import fcntl
        except ImportError:  # Windows: no advisory locks; concurrent pulls are the user's risk
            yield
            return
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
