"""``gno vsearch``/``query`` load the embedding model on a thread while the command goes on:
the load runs once, off the main thread, its failure is left for the search to report, and the
command's end waits for it."""

from __future__ import annotations

import argparse
import threading

import pytest

from gno_cli.context import Context
from gno_core.errors import ModelUnavailableError


class Facade:
    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.loads: list[str] = []
        self.release = threading.Event()
        self.closed = False

    def load_embedder(self) -> None:
        self.release.wait(5)
        self.loads.append(threading.current_thread().name)
        if self.fail:
            raise ModelUnavailableError("no model")

    def close(self) -> None:
        self.closed = True


@pytest.mark.parametrize("fail", [False, True])
def test_the_model_loads_on_a_thread_and_close_waits_for_it(fail: bool) -> None:
    ctx = Context(argparse.Namespace(index=None, config=None))
    facade = Facade(fail)
    ctx._gno = facade  # type: ignore[assignment]
    ctx.load_embedder_meanwhile()
    assert facade.loads == []  # the command goes on while the model loads
    facade.release.set()
    ctx.close()
    assert facade.loads == ["gno-load-embedder"]
    assert facade.closed
