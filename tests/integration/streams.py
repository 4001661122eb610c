"""Reading a long-running ``gno`` child process line by line with deadlines (``changes
--follow``, an audit or an MCP server being interrupted), and the environment of an isolated
home for such children."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

#: ``gno`` with SIGINT as a terminal's foreground job has it, for a test that interrupts it: a
#: test run started in the background by a shell without job control ignores SIGINT, and a
#: child would inherit that (Python then leaves it ignored, as gno does).
GNO_INTERACTIVE = [
    sys.executable,
    "-c",
    "import signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from gno_cli.main import main; sys.exit(main(sys.argv[1:]))",
]
#: ``gno`` as a background job of a shell without job control starts it: SIGINT ignored.
GNO_SIGINT_IGNORED = [
    sys.executable,
    "-c",
    "import signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
    "from gno_cli.main import main; sys.exit(main(sys.argv[1:]))",
]


def home_env(home: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    return env


class Lines:
    """The lines of one stream of a child, read on a thread so a test can wait for the next
    one with a deadline."""

    def __init__(self, stream: IO[str]) -> None:
        self._q: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self._thread.start()
        self.seen: list[str] = []
        self._back: list[str | None] = []

    def _pump(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._q.put(line)
        except ValueError:  # the test closed it (a reader that leaves)
            pass
        finally:
            stream.close()
            self._q.put(None)

    def next(self, timeout: float = 60.0) -> str | None:
        """The next line (without its newline), ``None`` at the end of the stream; fails when
        none comes within ``timeout`` seconds."""
        try:
            got = self._back.pop() if self._back else self._q.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no line within {timeout} s; so far: {self.seen}") from None
        if got is None:
            self._back.append(None)  # stays at the end
            return None
        self.seen.append(got.rstrip("\n"))
        return got.rstrip("\n")

    def rest(self, timeout: float = 60.0) -> list[str]:
        """Every line until the stream ends."""
        out: list[str] = []
        while (line := self.next(timeout)) is not None:
            out.append(line)
        return out

    def quiet_for(self, seconds: float) -> bool:
        """True when no line arrived for ``seconds`` (the stream may have ended meanwhile)."""
        if self._back:
            return self._back[-1] is None
        try:
            got = self._q.get(timeout=seconds)
        except queue.Empty:
            return True
        self._back.append(got)  # not consumed
        return got is None


def wait_for_open_index(proc: subprocess.Popen[str], data_dir: Path, timeout: float = 60) -> None:
    """Wait until ``proc`` holds its index database open (Linux ``/proc``): from then on it is
    past its start-up and into the command's own work."""
    fd_dir = Path(f"/proc/{proc.pid}/fd")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the process ended ({proc.returncode}) before opening its index")
        try:
            targets = [os.readlink(fd) for fd in fd_dir.iterdir()]
        except OSError:
            targets = []
        if any(t.startswith(str(data_dir)) and t.endswith(".sqlite") for t in targets):
            return
        time.sleep(0.02)
    raise AssertionError("the process did not open its index in time")
