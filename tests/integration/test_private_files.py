"""The index holds every indexed note: data and cache folders are 0700, database files 0600,
whether gno creates them or finds them looser (an index made by an older gno)."""

from __future__ import annotations

import os
import socket
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from gno_adapters.fsutil import ensure_private_dir
from gno_adapters.model_files.cache import ModelStore
from gno_core.errors import ModelUnavailableError
from gno_core.model_registry import ModelFile, ModelFormat, ModelRegistry, ModelRole, ModelSpec
from tests.contract.store_support import apsw_index
from tests.integration.cli_helpers import Cli


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(autouse=True)
def _usual_umask() -> Iterator[None]:
    old = os.umask(0o022)  # what most systems run with: new files 0644, folders 0755
    try:
        yield
    finally:
        os.umask(old)


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "home", monkeypatch, capsys)


def test_new_index_is_owner_only(cli: Cli, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nsecret\n", encoding="utf-8")
    cli.ok("collection", "add", str(notes))
    cli.ok("update")
    data = cli.home / "data"
    assert _mode(data) == 0o700
    db = data / "index-default.sqlite"
    assert _mode(db) == 0o600
    with apsw_index(str(db)) as store:
        store.stats.counts()
        for side in ("-wal", "-shm"):
            path = Path(str(db) + side)
            assert path.exists() and _mode(path) == 0o600, side


def test_loose_index_is_tightened_on_open(cli: Cli, tmp_path: Path) -> None:
    notes = tmp_path / "notes"
    notes.mkdir()
    cli.ok("collection", "add", str(notes))
    data = cli.home / "data"
    db = data / "index-default.sqlite"
    writer = apsw_index(str(db))  # keeps -wal and -shm in place
    try:
        for path in (data, db, Path(str(db) + "-wal"), Path(str(db) + "-shm")):
            os.chmod(path, 0o755 if path == data else 0o644)
        cli.ok("status")
    finally:
        writer.close()
    assert _mode(data) == 0o700
    assert _mode(db) == 0o600
    assert all(_mode(p) == 0o600 for p in data.glob("index-default.sqlite-*"))


def test_private_dir_leaves_shared_folders_alone(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o1777)  # like /tmp
    ensure_private_dir(shared)
    assert _mode(shared) == 0o1777
    nested = tmp_path / "parent" / "gno"
    ensure_private_dir(nested)
    assert _mode(nested) == 0o700
    assert _mode(nested.parent) == 0o755  # only gno's own folder is made private


def test_model_cache_folder_is_owner_only(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: nothing listens there
    spec = ModelSpec(
        role=ModelRole.RERANK,
        name="tiny",
        model_id="test/tiny",
        format=ModelFormat.ONNX_CROSS_ENCODER,
        license="MIT",
        source=f"http://127.0.0.1:{port}",
        files=(ModelFile("model.onnx", url=f"http://127.0.0.1:{port}/m.onnx"),),
        default=True,
    )
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o755)
    store = ModelStore(cache / "models", ModelRegistry((spec,)))
    with pytest.raises(ModelUnavailableError):
        store.pull(ModelRole.RERANK)
    assert _mode(cache) == 0o700


def test_tightening_is_best_effort(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An index on a read-only mount (chmod fails with EROFS) must still open for reading.
    db = tmp_path / "data" / "index.sqlite"
    ensure_private_dir(db.parent)
    apsw_index(str(db)).close()
    os.chmod(db.parent, 0o755)
    os.chmod(db, 0o644)

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(os, "chmod", refuse)
    ensure_private_dir(db.parent)
    with apsw_index(str(db)) as store:
        assert store.stats.counts() == []
    assert _mode(db) == 0o644


def test_embedding_cache_folder_is_owner_only_before_a_graph_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gno_adapters.onnx.embedder as onnx_embedder
    from gno_adapters.bootstrap.model_wiring import SemanticModels

    built: list[object] = []

    class Recorder:
        def __init__(self, location: object, precision: str) -> None:
            built.append(location)
            assert _mode(cache) == 0o700  # private before anything is written into it

    cache = tmp_path / "cache"
    cache.mkdir(mode=0o755)
    models = SemanticModels(cache / "models", {"GNO_RERANK_MODEL": "none"})
    if models.embedder is None:
        pytest.skip(f"no embedding model here: {models.unavailable}")
    monkeypatch.setattr(onnx_embedder, "OnnxEmbedder", Recorder)
    models.embedder._embedder()
    assert built and _mode(cache) == 0o700
