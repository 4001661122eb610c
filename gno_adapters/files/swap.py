"""Atomic exchange of two names in one folder: ``renameat2(RENAME_EXCHANGE)`` (Linux) or
``renameatx_np(RENAME_SWAP)`` (macOS), through ctypes. After an exchange the old name holds
exactly the file the new one had, so a commit knows which bytes it replaced (a plain rename
destroys whatever is there at that instant, which may be a save newer than the one checked).
``exchange`` answers False, having done nothing, where neither exists (other systems, file
systems without the flag): the caller falls back to a plain rename."""

from __future__ import annotations

import ctypes
import errno
import functools
import os
from typing import Any

__all__ = ["exchange"]

#: RENAME_EXCHANGE (Linux) and RENAME_SWAP (macOS) are both 2.
_SWAP = 2
_UNSUPPORTED = frozenset({errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP})


@functools.cache
def _function() -> Any:
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        return None
    for symbol in ("renameat2", "renameatx_np"):
        found = getattr(libc, symbol, None)
        if found is not None:
            found.argtypes = [
                ctypes.c_int,
                ctypes.c_char_p,
                ctypes.c_int,
                ctypes.c_char_p,
                ctypes.c_uint,
            ]
            found.restype = ctypes.c_int
            return found
    return None


#: Devices whose file system refused the flag (not asked again in this process).
_REFUSED: set[int] = set()


def exchange(folder: int, first: str, second: str) -> bool:
    """Swap the files ``first`` and ``second`` of the folder ``folder`` (a descriptor) in one
    step; both must exist. False, with nothing done, when the system cannot."""
    call = _function()
    if call is None:
        return False
    device = os.fstat(folder).st_dev
    if device in _REFUSED:
        return False
    if call(folder, os.fsencode(first), folder, os.fsencode(second), _SWAP) == 0:
        return True
    err = ctypes.get_errno()
    if err in _UNSUPPORTED:
        _REFUSED.add(device)
        return False
    raise OSError(err, os.strerror(err), first)
