"""What every command receives: parsed global options and a lazily built facade."""

from __future__ import annotations

import argparse
import contextlib
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gno_adapters.embed_child import EmbedChild
    from gno_core.facade import Gno
    from gno_core.ports.lease import LeaseHolder


class Context:
    def __init__(self, args: argparse.Namespace, embed_child: EmbedChild | None = None) -> None:
        self.args = args
        self._gno: Gno | None = None
        self._loading: threading.Thread | None = None
        # ``vsearch``/``query`` on POSIX: the process forked at start to load the model
        self._child = embed_child

    @property
    def json(self) -> bool:
        return bool(getattr(self.args, "json", False))

    @property
    def quiet(self) -> bool:
        return bool(getattr(self.args, "quiet", False))

    @property
    def gno(self) -> Gno:
        if self._gno is None:
            from gno_adapters.bootstrap.local import open_gno

            self._gno = self._told(open_gno(self.args.index, self.args.config))
        return self._gno

    def _told(self, gno: Gno) -> Gno:
        """A write that has to wait for the lease says so on stderr at once (who holds it)."""
        if not self.quiet:
            gno.handle.on_wait = _print_waiting
        return gno

    def load_embedder_meanwhile(self) -> None:
        """Start loading the embedding model (``vsearch``, ``query``) in the child process
        forked at start (POSIX, see ``gno_adapters.embed_child``) or else on a
        thread: the load runs beside the command's own imports, request validation, index
        opening and BM25, and the first embedding waits for it. A failure is left for the
        search to report with its own error; ``close`` ends the child or waits for the thread."""
        if self._gno is None and self._child is not None:
            from gno_adapters.bootstrap.local import open_gno

            self._gno = self._told(
                open_gno(self.args.index, self.args.config, embed_child=self._child)
            )
            self._gno.load_embedder()  # resolves the model and sends it to the child
            return
        gno = self.gno

        def load() -> None:
            with contextlib.suppress(Exception):
                gno.load_embedder()

        self._loading = threading.Thread(target=load, name="gno-load-embedder")
        self._loading.start()

    def close(self) -> None:
        if self._child is not None:
            self._child.close()
            self._child = None
        if self._loading is not None:
            self._loading.join()
            self._loading = None
        if self._gno is not None:
            self._gno.close()
            self._gno = None


def _print_waiting(holder: LeaseHolder | None) -> None:
    import sys

    from gno_core.ports.lease import waiting_message

    print(f"gno: {waiting_message(holder)} ...", file=sys.stderr, flush=True)
