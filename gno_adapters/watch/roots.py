"""What stands at a watched collection root right now, so the feed can tell when the folder it
watches was removed, recreated, moved away or replaced.

An OS watch (inotify and the others) follows the folder it was set on, not its path: after
``rm -rf vault && mkdir vault`` it watches nothing (the old folder is gone) and after
``mv vault vault.old && mkdir vault`` it watches ``vault.old``, silently in both cases. The
folder's identity (device and inode) taken when the watch was set up and again later tells
whether the path still names the same folder; not always, since ext4 gives a folder removed and
recreated at once the same inode number, so the watch's own report that the root was deleted
counts as well (``feed._Arming``).
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass

__all__ = ["RootState", "root_state"]


@dataclass(frozen=True, slots=True)
class RootState:
    """A watchable folder (``identity`` set) or why the path cannot be watched (``problem``)."""

    identity: tuple[int, int] | None
    problem: str | None = None

    @property
    def watchable(self) -> bool:
        return self.identity is not None


def root_state(path: str, *, follow: bool) -> RootState:
    """The folder at ``path``. ``follow``: the root was configured as a symlink, which is
    followed as the user chose; otherwise a symlink now standing there is not followed out
    of the collection (it may point anywhere)."""
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode):
            if not follow:
                return RootState(None, f"a symlink to {os.readlink(path)} (not followed)")
            info = os.stat(path)
    except FileNotFoundError:
        return RootState(None, "gone")
    except OSError as exc:
        return RootState(None, f"unreadable ({exc.strerror or exc})")
    if not stat.S_ISDIR(info.st_mode):
        return RootState(None, "not a folder")
    return RootState((info.st_dev, info.st_ino))
