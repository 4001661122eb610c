"""The embedding model loaded in a forked child process (``gno vsearch``/``gno query``, POSIX).

A new ``vsearch``/``query`` process spends most of its start holding the GIL (gno's imports,
the index, BM25), so a loader thread overlaps little with it. ``EmbedChild.start`` forks
before any other thread exists and before numpy or onnxruntime are imported: the child loads
the same ``OnnxEmbedder`` (through the facade it inherited) on the second core, then answers
embedding requests over a pipe until EOF and leaves with ``os._exit``. ``ChildEmbedder`` is the
``Embedder`` the parent's facade gets: identity from the model files (as ever), vectors from the
child as their exact float32 bytes. When the child is gone, failed or silent past
``TIMEOUT`` seconds it is killed and reaped, and the text is embedded in process instead, which
gives the in-process embedder's own result or typed error (``MODEL_UNAVAILABLE``...).

``GNO_EMBED_FORK=0`` turns the child off (the model then loads on a thread, as without
``os.fork``). The child never touches the parent's index connection: the facade's store opens
on first use, after the fork.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
import sys
import threading
from array import array
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import subprocess

    from gno_core.ports.embedder import Embedder, TextProfile, Vector

FORK_ENV = "GNO_EMBED_FORK"
#: Seconds the parent waits for one answer (a first run builds the model's graph meanwhile).
TIMEOUT = 300.0
_COUNT = struct.Struct("<I")
_SHAPE = struct.Struct("<II")


def fork_wanted(env: Mapping[str, str]) -> bool:
    """Whether ``vsearch``/``query`` may load the model in a child: POSIX ``fork``, no other
    thread running, and ``GNO_EMBED_FORK`` not off."""
    if env.get(FORK_ENV, "").strip().lower() in ("0", "off", "false", "no"):
        return False
    return hasattr(os, "fork") and single_threaded()


def single_threaded() -> bool:
    """No other thread in the process: Python's count, and on Linux every native thread."""
    if threading.active_count() != 1:
        return False
    try:
        return len(os.listdir("/proc/self/task")) == 1
    except OSError:
        return True


class EmbedChild:
    """A forked process holding the embedding model; ``close`` ends and reaps it."""

    def __init__(
        self, pid: int, requests: int, answers: int, spawned: subprocess.Popen[bytes] | None = None
    ) -> None:
        self._pid: int | None = pid
        self._spawned = spawned  # the fresh interpreter, when the process could not fork
        self._requests = requests
        self._answers = answers
        self._idle = False  # True once the child answered: it then only waits for the pipe

    @classmethod
    def start(cls) -> EmbedChild:
        """Fork the child (a fresh interpreter when other threads run): it imports the model
        runtime at once, then waits for ``send``."""
        down_r, down_w = os.pipe()
        up_r, up_w = os.pipe()
        if not (hasattr(os, "fork") and single_threaded()):
            return cls._spawn(down_r, down_w, up_r, up_w)
        pid = os.fork()
        if pid == 0:  # the child: never returns
            code = 1
            try:
                os.close(down_w)
                os.close(up_r)
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                _run_child(down_r, up_w)
                code = 0
            finally:
                os._exit(code)
        os.close(down_r)
        os.close(up_w)
        return cls(pid, down_w, up_r)

    @classmethod
    def _spawn(cls, down_r: int, down_w: int, up_r: int, up_w: int) -> EmbedChild:
        """The child as a new interpreter reading requests on its stdin and answering on its
        stdout; it sees this process's import path (the embedder is pickled by name)."""
        import subprocess

        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
        try:
            spawned = subprocess.Popen(
                [sys.executable, "-P", "-c", _SPAWNED_CHILD],
                stdin=down_r,
                stdout=up_w,
                env=env,
                close_fds=True,
            )
        finally:
            os.close(down_r)
            os.close(up_w)
        return cls(spawned.pid, down_w, up_r, spawned)

    def send(self, embedder: Embedder) -> bool:
        """Give the child the embedder to load (pickled: its choice of model, not the model);
        ``False`` when the child is gone."""
        import pickle

        if self._pid is None:
            return False
        try:
            data = pickle.dumps(embedder)
            _write_all(self._requests, _COUNT.pack(len(data)) + data)
        except (OSError, pickle.PicklingError):
            self.close()
            return False
        return True

    @property
    def alive(self) -> bool:
        return self._pid is not None

    def embed(self, texts: Sequence[str]) -> list[Vector] | None:
        """The vectors of ``texts`` from the child, or ``None`` (child gone, failed or silent:
        it is then ended)."""
        if self._pid is None:
            return None
        try:
            payload = [t.encode("utf-8", "surrogatepass") for t in texts]
            frame = [_COUNT.pack(len(payload))]
            for data in payload:
                frame += (_COUNT.pack(len(data)), data)
            _write_all(self._requests, b"".join(frame))
            count, dims = _SHAPE.unpack(self._read(_SHAPE.size))
            if count != len(texts):  # the child's failure frame is (0, 0)
                raise OSError("embedding child failed")
            body = self._read(count * dims * 4)
        except OSError:
            self.close()
            return None
        self._idle = True
        vectors = []
        for i in range(count):
            vector = array("f")
            vector.frombytes(body[i * dims * 4 : (i + 1) * dims * 4])
            vectors.append(vector)
        return vectors

    def _read(self, size: int) -> bytes:
        chunks: list[bytes] = []
        left = size
        while left:
            ready, _, _ = select.select([self._answers], [], [], TIMEOUT)
            if not ready:
                raise OSError("embedding child timed out")
            chunk = os.read(self._answers, min(left, 1 << 20))
            if not chunk:
                raise OSError("embedding child exited")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)

    def close(self) -> None:
        """End the child (EOF when it is idle, a kill while it still loads) and reap it."""
        pid, self._pid = self._pid, None
        if pid is None:
            return
        for fd in (self._requests, self._answers):
            with contextlib.suppress(OSError):
                os.close(fd)
        if not self._idle:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if self._spawned is not None:
            self._spawned.wait()
            return
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)


#: The spawned child's program: the forked child's life on stdin (requests) and stdout.
_SPAWNED_CHILD = (
    "import signal; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "from gno_adapters.embed_child import _run_child; _run_child(0, 1)"
)


def _run_child(requests: int, answers: int) -> None:
    """The child's life: import the runtime, load the embedder the parent sends, then answer
    requests until EOF: texts in, ``(count, dims)`` and the float32 bytes out. A failed
    embedding answers ``(0, 0)`` (the parent then embeds in process); a failed load ends the
    child (the parent sees EOF)."""
    import pickle

    import numpy  # noqa: F401  (the slow imports first, while the parent parses and resolves)
    import onnxruntime  # noqa: F401

    import gno_adapters.onnx.embedder  # noqa: F401

    with os.fdopen(requests, "rb") as down:
        (size,) = _COUNT.unpack(down.read(_COUNT.size))
        embedder: Embedder = pickle.loads(down.read(size))
        load = getattr(embedder, "load", None)
        if callable(load):
            load()
        while head := down.read(_COUNT.size):
            (count,) = _COUNT.unpack(head)
            texts = []
            for _ in range(count):
                (size,) = _COUNT.unpack(down.read(_COUNT.size))
                texts.append(down.read(size).decode("utf-8", "surrogatepass"))
            try:
                vectors = embedder.embed_batch(texts)
            except Exception:
                _write_all(answers, _SHAPE.pack(0, 0))
                continue
            dims = len(vectors[0]) if vectors else 0
            _write_all(answers, _SHAPE.pack(len(vectors), dims) + b"".join(map(bytes, vectors)))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


class ChildEmbedder:
    """The ``Embedder`` over ``EmbedChild``: ``inner`` (the in-process embedder) gives the
    identity, and the vectors when the child cannot."""

    def __init__(self, inner: Embedder, child: EmbedChild) -> None:
        self._inner = inner
        self._child = child
        child.send(inner)  # the child loads it while the parent goes on

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    @property
    def dimensions(self) -> int:
        return self._inner.dimensions

    @property
    def max_tokens(self) -> int:
        return self._inner.max_tokens

    @property
    def profile(self) -> TextProfile:
        return self._inner.profile

    @property
    def fingerprint(self) -> str:
        return self._inner.fingerprint

    def embed_batch(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        vectors = self._child.embed(texts)
        return self._inner.embed_batch(texts) if vectors is None else vectors
