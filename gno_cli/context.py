"""What every command receives: parsed global options and a lazily built facade."""

from __future__ import annotations

import argparse
import contextlib
import threading
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gno_core.facade import Gno


class Context:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self._gno: Gno | None = None
        self._loading: threading.Thread | None = None

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

            self._gno = open_gno(self.args.index, self.args.config)
        return self._gno

    def load_embedder_meanwhile(self) -> None:
        """Start loading the embedding model on a thread (``vsearch``, ``query``): most of the
        load runs outside the GIL, beside the command's own imports, request validation and
        index opening, and the first embedding waits for it. A failure is left for the search
        to report with its own error; ``close`` waits for the thread."""
        gno = self.gno

        def load() -> None:
            with contextlib.suppress(Exception):
                gno.load_embedder()

        self._loading = threading.Thread(target=load, name="gno-load-embedder")
        self._loading.start()

    def close(self) -> None:
        if self._loading is not None:
            self._loading.join()
            self._loading = None
        if self._gno is not None:
            self._gno.close()
            self._gno = None
