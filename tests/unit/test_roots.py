"""Collection root validation: the pure rule every front end shares."""

from __future__ import annotations

import pytest

from gno_core.errors import InvalidPathError
from gno_core.indexing.roots import BROAD_ROOT, broad_root_reason, check_collection_root

HOME = "/home/ana"

REFUSED = [
    "/",
    "//",
    "/etc",
    "/usr",
    "/bin",
    "/sbin",
    "/var",
    "/System",
    "/Library",
    "/proc",
    "/sys",
    "/dev",
    "/home",
    "/Users",
    "/root",
    "/tmp",
    "/boot",
    "/opt",
    "/srv",
    "/mnt",
    "/media",
    "/lib",
    "/lib64",
    "/libx32",
    HOME,
    HOME + "/",
    HOME + "/.config",
    HOME + "/.local",
    HOME + "/.ssh",
    HOME + "/.gnupg",
]
ALLOWED = [
    "/tmp/notes",
    "/tmp/pytest-of-root/pytest-3/test_x0/notes",
    "/home/ana/notes",
    "/home/bob",  # someone else's home is not "~"
    "/opt/wiki",
    "/mnt/usb/notes",
    "/library",
    "/libraries/notes",
    "/home/ana/.config/gno-notes",
]


@pytest.mark.parametrize("path", REFUSED)
def test_broad_roots_are_refused_with_a_stable_code(path: str) -> None:
    assert broad_root_reason(path, HOME) is not None
    with pytest.raises(InvalidPathError) as info:
        check_collection_root(path, HOME)
    assert info.value.code == "INVALID_PATH"
    assert info.value.details["code"] == BROAD_ROOT
    check_collection_root(path, HOME, allow_broad=True)  # the explicit override


@pytest.mark.parametrize("path", ALLOWED)
def test_folders_inside_them_are_fine(path: str) -> None:
    assert broad_root_reason(path, HOME) is None
    check_collection_root(path, HOME)


def test_without_a_home_only_system_and_broad_roots_are_refused() -> None:
    assert broad_root_reason("/home/ana", "") is None
    assert broad_root_reason("/tmp", "") is not None
