"""Collection root validation: the pure rule every front end shares."""

from __future__ import annotations

import pytest

from gno_core.errors import InvalidPathError
from gno_core.indexing.roots import (
    BROAD_ROOT,
    broad_root_reason,
    check_collection_root,
    overlapping_root,
)
from gno_core.sources.key_stores import KEY_STORE, key_store_in

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
    HOME + "/.config/gno-notes",  # a hidden folder of the home folder, or inside one
    HOME + "/.local/share/notes",
    HOME + "/.cache/x",
    HOME + "/.obsidian",
    HOME + "/Library",  # macOS: settings, caches, mail, keychains
    HOME + "/Library/Application Support/notes",
]
#: Never a root, whoever asks and with no override: key stores and anything under them.
KEY_STORES = [
    HOME + "/.ssh",
    HOME + "/.ssh/keys",
    HOME + "/.SSH",
    HOME + "/.gnupg",
    HOME + "/.gnupg/private-keys-v1.d",
    HOME + "/.config/gh",
    HOME + "/.config/gcloud/legacy_credentials",
    HOME + "/.config/op",
    HOME + "/.aws",
    HOME + "/.azure",
    HOME + "/.kube",
    HOME + "/.docker",
    HOME + "/.password-store/work",
    HOME + "/.local/share/keyrings",
    HOME + "/.mozilla/firefox/x.default",
    HOME + "/.terraform.d",
    HOME + "/Library/Keychains",
    HOME + "/library/keychains",
    HOME + "/Library/Cookies",
    "/etc/ssh/keys",
    "/home/bob/.ssh",  # another user's
    "/root/.aws",
    "/srv/backup/home/ana/.gnupg",
    "/etc/ssh",
    "/etc/ssl/private",
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
    "/home/ana/notes/.obsidian-notes-not-hidden-home",
    "/home/ana/work/ssh",
    "/home/ana/docs/config/gh",
    "/etc-notes/ssh",
    "/home/ana/notes/etc/ssh",  # only the host's own /etc/ssh
    "/home/ana/notes/library/cookies",  # recipes, not Library/Cookies
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


@pytest.mark.parametrize("path", KEY_STORES)
def test_key_stores_are_refused_whoever_asks(path: str) -> None:
    assert key_store_in(path) is not None
    for allow in (False, True):
        with pytest.raises(InvalidPathError) as info:
            check_collection_root(path, HOME, allow_broad=allow)
        assert info.value.details["code"] == KEY_STORE
        assert "notes folder inside" not in info.value.message


def test_key_store_in_names_the_store_as_spelled() -> None:
    assert key_store_in("/home/ana/.SSH/keys") == "/home/ana/.SSH"
    assert key_store_in("work/.config/gh/hosts.yml") == "work/.config/gh"
    assert key_store_in("docs/.netrc") == "docs/.netrc"
    assert key_store_in("docs/config/gh/x.md") is None
    assert key_store_in("/Users/ana/Library/Cookies/x") == "/Users/ana/Library/Cookies"
    assert key_store_in("Library/Cookies/x") == "Library/Cookies"
    assert key_store_in("/etc/ssl/private/k.pem") == "/etc/ssl/private"
    assert key_store_in("etc/ssl/private/k.pem") is None


def test_hidden_home_folders_need_the_persons_override() -> None:
    with pytest.raises(InvalidPathError) as info:
        check_collection_root(HOME + "/.config/app", HOME)
    assert info.value.details["code"] == BROAD_ROOT
    assert "notes folder inside" not in info.value.message
    check_collection_root(HOME + "/.config/app", HOME, allow_broad=True)


def test_overlapping_roots() -> None:
    others = [("va", "/n/va"), ("other", "/n/other")]
    assert overlapping_root("/n/va/sub", others) == ("va", "/n/va", "inside")
    assert overlapping_root("/n", others) == ("va", "/n/va", "contains")
    assert overlapping_root("/n/va/", others) == ("va", "/n/va", "same")
    assert overlapping_root("/n/vab", others) is None
    assert overlapping_root("/n/v", others) is None
