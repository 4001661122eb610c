"""The ``SourceTree`` contract, run against every adapter (ids: ``local``, ``memory``).

The second half covers what only a real file system has: symlinks, special files, permissions.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gno_adapters.files.walker import LocalSourceTree
from gno_adapters.inmemory.tree import InMemorySourceTree
from gno_core.defaults import DEFAULT_EXCLUDES, DEFAULT_PATTERN
from gno_core.errors import GnoError
from gno_core.ports.files import SourceTree
from gno_core.sources.patterns import compile_glob

#: Builds a tree holding ``files`` (relative POSIX path -> bytes); returns it and its root.
TreeFactory = Callable[[dict[str, bytes]], tuple[SourceTree, str]]


@pytest.fixture(params=["local", "memory"])
def make_tree(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TreeFactory]:
    def local(files: dict[str, bytes]) -> tuple[SourceTree, str]:
        root = tmp_path / "root"
        root.mkdir()
        for rel, data in files.items():
            path = root / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        return LocalSourceTree(), str(root)

    def memory(files: dict[str, bytes]) -> tuple[SourceTree, str]:
        tree = InMemorySourceTree()
        tree.mkdir("/mem/root")
        for rel, data in files.items():
            tree.write(f"/mem/root/{rel}", data)
        return tree, "/mem/root"

    yield {"local": local, "memory": memory}[request.param]


FILES = {
    "README.md": b"# Readme\n",
    "a-c.md": b"dash\n",
    "a/b.md": b"nested\n",
    "a/deep/er/c.md": b"deep\n",
    "notes/NOTES.TXT": b"upper-case extension\n",
    "notes/plain.txt": b"text\n",
    "notes/draft-1.md": b"draft\n",
    "notes/scratch.tmp": b"tmp\n",
    "node_modules/pkg/readme.md": b"vendored\n",
    "docs/private/secret.md": b"secret\n",
    "docs/public.md": b"public\n",
    "image.png": b"\x89PNG\r\n",
}


def _rels(tree: SourceTree, root: str, pattern: str = DEFAULT_PATTERN, **kw: object) -> list[str]:
    include = kw.get("include", ())
    exclude = kw.get("exclude", DEFAULT_EXCLUDES)
    assert isinstance(include, tuple) and isinstance(exclude, tuple)
    return [f.rel_path for f in tree.walk(root, pattern, include, exclude)]


def test_default_pattern_sorted_and_excluding_defaults(make_tree: TreeFactory) -> None:
    tree, root = make_tree(FILES)
    assert _rels(tree, root) == [
        "README.md",
        "a-c.md",
        "a/b.md",
        "a/deep/er/c.md",
        "docs/private/secret.md",
        "docs/public.md",
        "notes/draft-1.md",
    ]


def test_include_adds_extensions_case_insensitively(make_tree: TreeFactory) -> None:
    tree, root = make_tree(FILES)
    rels = _rels(tree, root, include=(".txt",))
    assert "notes/NOTES.TXT" in rels and "notes/plain.txt" in rels
    assert "image.png" not in rels


def test_exclude_names_globs_and_paths(make_tree: TreeFactory) -> None:
    tree, root = make_tree(FILES)
    rels = _rels(tree, root, "**", exclude=("node_modules", "*.tmp", "draft-*", "docs/private"))
    assert "notes/scratch.tmp" not in rels and "notes/draft-1.md" not in rels
    assert not any(r.startswith(("node_modules/", "docs/private/")) for r in rels)
    assert "docs/public.md" in rels and "image.png" in rels


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("*.md", ["README.md", "a-c.md"]),
        ("a/**/*.md", ["a/b.md", "a/deep/er/c.md"]),
        ("**/*.{txt,TXT}", ["notes/NOTES.TXT", "notes/plain.txt"]),
        (
            "notes/*",
            ["notes/NOTES.TXT", "notes/draft-1.md", "notes/plain.txt", "notes/scratch.tmp"],
        ),
        ("**/c.md", ["a/deep/er/c.md"]),
        ("?-c.md", ["a-c.md"]),
        ("[ab]/*.md", ["a/b.md"]),
    ],
)
def test_patterns(make_tree: TreeFactory, pattern: str, expected: list[str]) -> None:
    tree, root = make_tree(FILES)
    assert _rels(tree, root, pattern, exclude=()) == expected


def test_source_file_facts_and_read(make_tree: TreeFactory) -> None:
    tree, root = make_tree(FILES)
    files = {f.rel_path: f for f in tree.walk(root, "**", (), ())}
    readme = files["README.md"]
    assert readme.size == len(FILES["README.md"]) and readme.mtime_ns > 0
    for rel, source in files.items():
        assert tree.read(source.abs_path, 1024) == FILES[rel]


def test_read_too_large(make_tree: TreeFactory) -> None:
    tree, root = make_tree({"big.md": b"x" * 5000})
    (big,) = tree.walk(root, "**", (), ())
    with pytest.raises(GnoError) as info:
        tree.read(big.abs_path, 4999)
    assert (info.value.code, info.value.details["code"]) == ("VALIDATION", "TOO_LARGE")
    assert tree.read(big.abs_path, 5000) == b"x" * 5000


def test_read_missing_is_unreadable(make_tree: TreeFactory) -> None:
    tree, root = make_tree({"gone.md": b"x"})
    with pytest.raises(GnoError) as info:
        tree.read(root + "/not-there.md", 100)
    assert (info.value.code, info.value.details["code"]) == ("RUNTIME", "UNREADABLE")


def test_missing_root(make_tree: TreeFactory) -> None:
    tree, root = make_tree({})
    with pytest.raises(GnoError) as info:
        list(tree.walk(root + "/nope", DEFAULT_PATTERN, (), ()))
    assert info.value.code == "PATH_NOT_FOUND"


def test_empty_root(make_tree: TreeFactory) -> None:
    tree, root = make_tree({})
    assert list(tree.walk(root, DEFAULT_PATTERN, (), ())) == []


@pytest.mark.parametrize("kind", ["local", "memory"])
@pytest.mark.parametrize("store", [".ssh", ".config/gh", ".gnupg/private-keys-v1.d"])
def test_a_root_in_a_key_store_is_refused(kind: str, store: str, tmp_path: Path) -> None:
    tree: SourceTree
    if kind == "local":
        (tmp_path / store).mkdir(parents=True)
        (tmp_path / store / "id.md").write_text("key\n")
        tree, root = LocalSourceTree(), str(tmp_path / store)
    else:
        tree = InMemorySourceTree()
        tree.write(f"/mem/{store}/id.md", b"key\n")
        root = f"/mem/{store}"
    with pytest.raises(GnoError) as info:
        list(tree.walk(root, "**", (), ()))
    assert (info.value.code, info.value.details["code"]) == ("INVALID_PATH", "KEY_STORE")


# -- the local file system only ----------------------------------------------------------------


@pytest.fixture
def disk(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "real.md").write_text("real\n")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text("secret\n")
    return root


def _walk(root: Path) -> list[str]:
    return [f.rel_path for f in LocalSourceTree().walk(str(root), "**", (), ())]


def test_symlinks_inside_the_root_are_followed(disk: Path) -> None:
    (disk / "alias.md").symlink_to(disk / "sub" / "real.md")
    (disk / "linked-dir").symlink_to(disk / "sub", target_is_directory=True)
    assert _walk(disk) == ["alias.md", "linked-dir/real.md", "sub/real.md"]


def test_symlinks_leaving_the_root_are_not_followed(disk: Path) -> None:
    outside = disk.parent / "outside"
    (disk / "escape.md").symlink_to(outside / "secret.md")
    (disk / "escape-dir").symlink_to(outside, target_is_directory=True)
    (disk / "sub" / "dotdot").symlink_to("../../outside", target_is_directory=True)
    (disk / "broken.md").symlink_to(disk / "missing.md")
    assert _walk(disk) == ["sub/real.md"]


def test_symlinks_into_a_key_store_are_not_followed(disk: Path) -> None:
    (disk / ".aws").mkdir()
    (disk / ".aws" / "credentials.md").write_text("key\n")
    (disk / "cloud").symlink_to(disk / ".aws", target_is_directory=True)
    (disk / "creds.md").symlink_to(disk / ".aws" / "credentials.md")
    (disk / "home-link").symlink_to(disk.parent / "outside", target_is_directory=True)
    assert _walk(disk) == [".aws/credentials.md", "sub/real.md"]  # sync drops the first


def test_symlink_cycles_terminate(disk: Path) -> None:
    (disk / "sub" / "up").symlink_to(disk, target_is_directory=True)
    (disk / "a").mkdir()
    (disk / "b").mkdir()
    (disk / "a" / "to-b").symlink_to(disk / "b", target_is_directory=True)
    (disk / "b" / "to-a").symlink_to(disk / "a", target_is_directory=True)
    (disk / "b" / "x.md").write_text("x\n")
    rels = _walk(disk)
    assert rels == ["a/to-b/x.md", "b/x.md", "sub/real.md"]


def test_root_given_through_a_symlink(disk: Path) -> None:
    link = disk.parent / "root-link"
    link.symlink_to(disk, target_is_directory=True)
    (disk / "inner.md").symlink_to(disk / "sub" / "real.md")
    assert _walk(link) == ["inner.md", "sub/real.md"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_special_files_are_skipped_and_never_block(disk: Path) -> None:
    os.mkfifo(disk / "pipe.md")
    assert _walk(disk) == ["sub/real.md"]
    with pytest.raises(GnoError) as info:
        LocalSourceTree().read(str(disk / "pipe.md"), 100)
    assert info.value.details["code"] == "UNREADABLE"


def test_names_that_are_not_utf8_are_yielded_as_unindexable(disk: Path) -> None:
    try:
        with open(os.fsencode(disk) + b"/bad-\xff.md", "wb") as handle:
            handle.write(b"x\n")
        os.mkdir(os.fsencode(disk) + b"/dir-\xfe")
    except OSError:
        pytest.skip("file system refuses non-UTF-8 names")
    found = {f.rel_path: f for f in LocalSourceTree().walk(str(disk), "**", (), ())}
    assert sorted(found) == ["bad-\\xff.md", "dir-\\xfe/", "sub/real.md"]
    assert found["bad-\\xff.md"].unindexable == "FILENAME_ENCODING"
    assert found["bad-\\xff.md"].size == 2
    assert found["dir-\\xfe/"].unindexable == "FILENAME_ENCODING"
    assert found["sub/real.md"].unindexable is None


def test_unreadable_directory_and_file(disk: Path) -> None:
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        pytest.skip("running as root: permission bits do not stop reads")
    (disk / "locked").mkdir()
    (disk / "locked" / "hidden.md").write_text("x\n")
    (disk / "locked").chmod(0)
    (disk / "sub" / "real.md").chmod(0)
    try:
        assert _walk(disk) == ["sub/real.md"]
        with pytest.raises(GnoError) as info:
            LocalSourceTree().read(str(disk / "sub" / "real.md"), 100)
        assert info.value.details["code"] == "UNREADABLE"
    finally:
        (disk / "locked").chmod(0o755)
        (disk / "sub" / "real.md").chmod(0o644)


def test_glob_translation() -> None:
    assert compile_glob("**/*.md").fullmatch("x.md")
    assert compile_glob("**/*.md").fullmatch("a/b/x.md")
    assert not compile_glob("*.md").fullmatch("a/x.md")
    assert compile_glob("a/**").fullmatch("a/b/c")
    assert compile_glob("[!x]*.md").fullmatch("y.md")
    assert not compile_glob("[!x]*.md").fullmatch("x.md")
    assert compile_glob("{a,b}/**/*.{md,txt}").fullmatch("b/c/d.txt")
    assert compile_glob("file(1).md").fullmatch("file(1).md")
