"""Two Linux network namespaces joined by a veth pair, made and torn down by a test.

``NetnsPair`` creates ``<name>-s`` (the server side, ``10.77.N.1/24``) and ``<name>-c`` (the
client side, ``10.77.N.2/24``) with ``ip netns add`` and ``ip link add ... type veth peer ...``,
so traffic between them crosses a real network path that is not loopback: the server sees the
client's private address as the socket peer. ``N`` is random per pair, so parallel test workers
never share a subnet. Everything is removed on exit (deleting a namespace destroys its veth end
and the pair with it), and any process a test started inside is stopped by its pid first.

A server runs in the server namespace as a child process (``ip netns exec``); a client runs in
the test process, on a thread that has entered the client namespace (``setns`` applies to the
calling thread only, so the rest of the test process stays where it was).

Needs root (``CAP_SYS_ADMIN``) and iproute2; ``netns_unavailable()`` says why not when either is
missing, for a skip that names the reason.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

T = TypeVar("T")
CLONE_NEWNET = 0x40000000
IP = shutil.which("ip") or next(
    (p for p in ("/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip") if os.path.exists(p)), None
)


def _ip(*argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    assert IP is not None
    return subprocess.run([IP, *argv], check=check, capture_output=True, text=True, timeout=30)


def netns_unavailable() -> str | None:
    """``None`` when this process can create a network namespace, else the reason it cannot."""
    if IP is None:
        return "iproute2 (the ip command) is not installed"
    if os.geteuid() != 0:
        return "network namespaces need root (CAP_SYS_ADMIN)"
    probe = f"gnoprobe{secrets.token_hex(3)}"
    made = _ip("netns", "add", probe, check=False)
    if made.returncode != 0:
        return f"ip netns add failed: {made.stderr.strip() or made.returncode}"
    _ip("netns", "del", probe, check=False)
    return None


@dataclass
class NetnsPair:
    """The two namespaces, their addresses, and the processes started inside."""

    name: str
    subnet: int
    processes: list[subprocess.Popen[Any]] = field(default_factory=list)

    @property
    def server_ns(self) -> str:
        return f"{self.name}-s"

    @property
    def client_ns(self) -> str:
        return f"{self.name}-c"

    @property
    def server_ip(self) -> str:
        return f"10.77.{self.subnet}.1"

    @property
    def client_ip(self) -> str:
        return f"10.77.{self.subnet}.2"

    def exec_argv(self, argv: list[str]) -> list[str]:
        """``argv`` run inside the server namespace."""
        assert IP is not None
        return [IP, "netns", "exec", self.server_ns, *argv]

    def start(self, argv: list[str], **popen: Any) -> subprocess.Popen[Any]:
        """Start ``argv`` in the server namespace; stopped (by its pid) when the pair closes."""
        proc = subprocess.Popen(self.exec_argv(argv), **popen)
        self.processes.append(proc)
        return proc

    def in_client(self, fn: Callable[[], T], timeout: float = 120) -> T:
        """``fn()`` on a thread that entered the client namespace; its result or its error."""
        box: dict[str, Any] = {}

        def run() -> None:
            try:
                enter_netns(self.client_ns)
                box["value"] = fn()
            except BaseException as exc:  # handed to the calling thread
                box["error"] = exc

        thread = threading.Thread(target=run, name=f"netns-{self.client_ns}", daemon=True)
        thread.start()
        thread.join(timeout)
        if thread.is_alive():
            raise TimeoutError(f"client in {self.client_ns} did not finish in {timeout} s")
        if "error" in box:
            raise box["error"]
        return box["value"]  # type: ignore[no-any-return]


def enter_netns(name: str) -> None:
    """Move the calling thread into network namespace ``name`` (``setns(2)``)."""
    libc = ctypes.CDLL(None, use_errno=True)
    fd = os.open(f"/run/netns/{name}", os.O_RDONLY)
    try:
        if libc.setns(fd, CLONE_NEWNET) != 0:
            errno = ctypes.get_errno()
            raise OSError(errno, f"setns into {name}: {os.strerror(errno)}")
    finally:
        os.close(fd)


@contextmanager
def netns_pair() -> Iterator[NetnsPair]:
    """A server and a client namespace joined by a veth pair, both up, always torn down."""
    tag = secrets.token_hex(3)
    pair = NetnsPair(name=f"gno{tag}", subnet=secrets.randbelow(250) + 2)
    server_if, client_if = f"gv{tag}s", f"gv{tag}c"
    made: list[str] = []
    try:
        for ns in (pair.server_ns, pair.client_ns):
            _ip("netns", "add", ns)
            made.append(ns)
        _ip("link", "add", server_if, "type", "veth", "peer", "name", client_if)
        for ns, iface, ip in (
            (pair.server_ns, server_if, pair.server_ip),
            (pair.client_ns, client_if, pair.client_ip),
        ):
            _ip("link", "set", iface, "netns", ns)
            _ip("-n", ns, "addr", "add", f"{ip}/24", "dev", iface)
            _ip("-n", ns, "link", "set", iface, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        yield pair
    finally:
        for proc in pair.processes:
            _stop(proc)
        # A veth end not yet moved would outlive the namespaces: remove it by name.
        _ip("link", "del", server_if, check=False)
        for ns in reversed(made):
            _ip("netns", "del", ns, check=False)


def _stop(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            with contextlib.suppress(OSError):
                stream.close()
