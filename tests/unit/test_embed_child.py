"""``gno vsearch``/``query`` embed through a forked child process (``embed_child``): the same
bytes as in process, the in-process result or typed error when the child fails, dies or falls
silent, and no child left behind (reaped by the command, none alive after it, even when the
command is interrupted)."""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from gno_adapters import embed_child
from gno_adapters.bootstrap.model_wiring import LazyOnnxEmbedder
from gno_adapters.embed_child import ChildEmbedder, EmbedChild, fork_wanted
from gno_adapters.inmemory.embedder import HashEmbedder
from gno_adapters.model_files import ModelStore
from gno_core.errors import ModelUnavailableError
from gno_core.model_registry import ModelLocation, ModelRole
from gno_core.ports.embedder import Vector
from tests.embedding_support import models_dir

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="POSIX fork only")

SHAPES = [
    ["one short query"],
    ["how do I declare dependencies", "", "東京は日本の首都です。"],
    [f"text number {i} " * (i % 7 + 1) for i in range(11)],
    ["Ünïcödé façade — naïve café 🚀", " ".join(["retrieval"] * 300)],
]


@pytest.fixture(scope="module")
def location(tmp_path_factory: pytest.TempPathFactory) -> ModelLocation:
    return ModelStore(models_dir(tmp_path_factory)).resolve(ModelRole.EMBED)


@pytest.fixture
def children() -> Iterator[list[EmbedChild]]:
    started: list[EmbedChild] = []
    yield started
    for child in started:
        child.close()


def _start(children: list[EmbedChild]) -> EmbedChild:
    child = EmbedChild.start()
    children.append(child)
    return child


def _gone(pid: int) -> bool:
    """The child was reaped: it is no longer our child, nor a process at all."""
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)
    return not Path(f"/proc/{pid}").exists()


def _bytes(vectors: Sequence[Vector]) -> list[bytes]:
    return [v.tobytes() for v in vectors]


@pytest.mark.parametrize("precision", ["int8", "fp32"])
def test_vectors_are_bit_identical_to_the_in_process_embedder(
    location: ModelLocation, children: list[EmbedChild], precision: str
) -> None:
    in_process = LazyOnnxEmbedder(location, precision)  # type: ignore[arg-type]
    served = ChildEmbedder(LazyOnnxEmbedder(location, precision), _start(children))  # type: ignore[arg-type]
    assert served.fingerprint == in_process.fingerprint
    for texts in SHAPES:
        assert _bytes(served.embed_batch(texts)) == _bytes(in_process.embed_batch(texts))
    assert served.embed_batch([]) == []


_HELD = threading.Lock()


class _Hash(HashEmbedder):
    """A model-free embedder whose child side can be made to fail (it is pickled by name and
    runs in the child forked from this test process)."""

    def __init__(self, mode: str = "ok") -> None:
        super().__init__()
        self.mode = mode

    def load(self) -> None:
        if self.mode == "hang":
            time.sleep(30)
        if self.mode == "lock":  # a lock a thread of the parent holds while the child starts
            with _HELD:
                pass

    def embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        if os.environ.get("GNO_TEST_IN_CHILD") == "1":
            if self.mode == "die":
                os._exit(3)  # killed mid-request
            if self.mode == "raise":
                raise RuntimeError("inference failed")
        return super().embed_batch(texts)


@pytest.fixture
def in_child(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Marks the children forked meanwhile (the parent clears the mark before embedding)."""
    monkeypatch.setenv("GNO_TEST_IN_CHILD", "1")
    yield


@pytest.mark.parametrize("mode", ["die", "raise"])
def test_a_failed_or_dead_child_leaves_the_text_to_the_parent(
    mode: str, children: list[EmbedChild], in_child: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    child = _start(children)
    pid = child._pid
    assert pid is not None
    embedder = ChildEmbedder(_Hash(mode), child)
    monkeypatch.setenv("GNO_TEST_IN_CHILD", "0")
    texts = ["alpha beta", "gamma"]
    assert _bytes(embedder.embed_batch(texts)) == _bytes(HashEmbedder().embed_batch(texts))
    assert not child.alive and _gone(pid)
    # later texts go straight to the parent
    assert _bytes(embedder.embed_batch(["delta"])) == _bytes(HashEmbedder().embed_batch(["delta"]))


def test_a_silent_child_is_killed_after_the_timeout(
    children: list[EmbedChild], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embed_child, "TIMEOUT", 0.3)
    child = _start(children)
    pid = child._pid
    assert pid is not None
    embedder = ChildEmbedder(_Hash("hang"), child)
    started = time.monotonic()
    assert _bytes(embedder.embed_batch(["x"])) == _bytes(HashEmbedder().embed_batch(["x"]))
    assert time.monotonic() - started < 5
    assert _gone(pid)


def test_a_lock_another_thread_holds_does_not_hang_the_child(
    children: list[EmbedChild], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fork copies the lock held, not the thread that would release it (onnxruntime's and
    execnet's threads in a test worker hung the child until ``TIMEOUT``): a process with
    other threads gets a fresh interpreter, which answers."""
    monkeypatch.setattr(embed_child, "TIMEOUT", 20.0)
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with _HELD:
            held.set()
            release.wait()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        held.wait()
        child = _start(children)
        embedder = ChildEmbedder(_Hash("lock"), child)
        release.set()
        assert _bytes(embedder.embed_batch(["x", "y"])) == _bytes(
            HashEmbedder().embed_batch(["x", "y"])
        )
        assert child.alive  # the child answered: the parent did not take over after TIMEOUT
    finally:
        release.set()
        holder.join()


_NATIVE_THREAD = """
import _thread, os, threading, time
from gno_adapters.embed_child import fork_wanted
assert fork_wanted({}) is True, "a fresh interpreter has one thread"
release = threading.Event()
_thread.start_new_thread(release.wait, ())
deadline = time.monotonic() + 5
while len(os.listdir("/proc/self/task")) == 1 and time.monotonic() < deadline:
    time.sleep(0.01)
assert threading.active_count() == 1, "threading does not count it"
assert fork_wanted({}) is False, "but the fork is unsafe"
"""


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="Linux /proc lists threads")
def test_a_native_thread_alone_keeps_the_process_from_forking() -> None:
    """``threading`` does not count a thread started by ``_thread`` or a native library;
    ``/proc/self/task`` does (checked in a fresh interpreter: this one runs other threads)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    env.pop("GNO_EMBED_FORK", None)
    done = subprocess.run(
        [sys.executable, "-P", "-c", _NATIVE_THREAD],
        check=False,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_a_missing_model_gives_the_in_process_error(
    location: ModelLocation, children: list[EmbedChild], tmp_path: Path
) -> None:
    missing = dataclasses.replace(location, weights=str(tmp_path / "model.safetensors"))
    child = _start(children)
    pid = child._pid
    assert pid is not None
    embedder = ChildEmbedder(LazyOnnxEmbedder(missing), child)
    with pytest.raises(ModelUnavailableError) as raised:
        embedder.embed_batch(["a query"])
    with pytest.raises(ModelUnavailableError) as direct:
        LazyOnnxEmbedder(missing).embed_batch(["a query"])
    assert raised.value.envelope() == direct.value.envelope()
    assert _gone(pid)


def test_close_while_loading_kills_and_reaps(
    location: ModelLocation, children: list[EmbedChild]
) -> None:
    child = _start(children)
    pid = child._pid
    assert pid is not None
    ChildEmbedder(LazyOnnxEmbedder(location), child)
    child.close()  # the command ended before it needed a vector
    assert _gone(pid)
    child.close()  # idempotent


def test_fork_only_when_asked_and_single_threaded(monkeypatch: pytest.MonkeyPatch) -> None:
    assert fork_wanted({}) is embed_child.single_threaded()
    for off in ("0", "off", "false", "no", " OFF "):
        assert fork_wanted({"GNO_EMBED_FORK": off}) is False
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert fork_wanted({}) is False
    finally:
        release.set()
        other.join()
    monkeypatch.delattr(os, "fork")
    assert fork_wanted({}) is False


def _marked(marker: str) -> list[int]:
    """Processes whose environment carries ``marker``."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.parametrize("interrupt", [False, True])
def test_no_child_outlives_the_command(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, interrupt: bool
) -> None:
    marker = f"GNO_TEST_MARK_{uuid.uuid4().hex}"
    env = {
        **os.environ,
        marker: "1",
        "GNO_CONFIG_DIR": str(tmp_path / "config"),
        "GNO_DATA_DIR": str(tmp_path / "data"),
        "GNO_CACHE_DIR": str(models_dir(tmp_path_factory).parent / "gno-cache"),
    }
    env.pop("GNO_EMBED_FORK", None)
    command = [sys.executable, "-m", "gno_cli.main", "vsearch", "pets that purr"]
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if interrupt:
        time.sleep(0.15)
        proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=60)
    assert proc.returncode != 0  # an empty index has no vectors; or interrupted
    deadline = time.monotonic() + 2
    while _marked(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _marked(marker) == []
