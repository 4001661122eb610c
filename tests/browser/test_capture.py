"""Capture from the browser on a server with writes on: ``N`` opens the form, saving creates
the file in the collection's folder (through the facade's capture: the write lease and gate of
every writer) and opens its page, and a search then finds it. The same pages on a read-only
server offer no write control (``test_pages``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import indexed, serving, watch

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def writable(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    notes = tmp_path_factory.mktemp("capture-notes")
    (notes / "start.md").write_text("# Start\n\nA first note about gardens.\n")
    env = indexed(tmp_path_factory.mktemp("capture-index"), {"garden": notes})
    with serving(env, "--mcp-enable-write") as base:
        yield base, notes


def test_capture_creates_a_file_that_search_then_finds(
    browser: Any, writable: tuple[str, Path]
) -> None:
    from playwright.sync_api import expect

    base, notes = writable
    context = browser.new_context(base_url=base)
    seen = watch(context, base)
    page = context.new_page()
    page.goto("/")
    expect(page.locator(".mode-badge")).to_have_text("writes on")
    page.keyboard.press("n")
    page.wait_for_url(re.compile(r"/capture$"))
    page.get_by_label("Title").fill("Tomato trellis")
    page.get_by_label("Markdown").fill("# Tomato trellis\n\nTie the vines with quuxtwine.\n")
    page.get_by_label("Tags").fill("garden, summer")
    page.get_by_role("button", name="Save note").click()
    page.wait_for_url(re.compile(r"/doc\?ref=gno://garden/"))
    expect(page.locator("h1#doc-title")).to_have_text("Tomato trellis")
    written = [p for p in notes.rglob("*.md") if p.name != "start.md"]
    assert len(written) == 1 and "quuxtwine" in written[0].read_text()
    page.keyboard.press("/")
    page.keyboard.type("quuxtwine")
    page.keyboard.press("Enter")
    expect(page.locator(".result .result-title")).to_have_text(["Tomato trellis"])
    context.close()
    seen.clean()
