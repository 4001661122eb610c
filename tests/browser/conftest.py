"""Fixtures of the browser tests: a Chromium per test (Playwright's sync driver keeps an event
loop running while it lives, so it must not outlast the test: other tests of the same worker
call ``asyncio.run``), over a ``gno serve`` of foam-docs shared by the worker's browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import CHROMIUM_ARGS, chromium_path, indexed, serving


@pytest.fixture
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture(scope="session")
def foam_env(shared_data: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    return indexed(tmp_path_factory.mktemp("web-foam"), {"foam": shared_data / "foam-docs"})


@pytest.fixture(scope="session")
def foam(foam_env: dict[str, str]) -> Iterator[str]:
    """The base URL of a read-only ``gno serve`` of foam-docs."""
    with serving(foam_env) as base:
        yield base
