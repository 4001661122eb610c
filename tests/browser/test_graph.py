"""The graph page on foam-docs in Chromium: it draws the notes and links ``/api/graph``
returns, says how many (and what it left out), lists the hubs beside the canvas, zooms from the
keyboard, and a click on a note opens that note."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.browser.support import watch

pytestmark = pytest.mark.slow


def test_the_graph_draws_the_index_and_a_click_opens_a_note(browser: Any, foam: str) -> None:
    from playwright.sync_api import expect

    graph = httpx.get(f"{foam}/api/graph", params={"limit": 2000}).json()
    hub = graph["report"]["hubs"][0]
    context = browser.new_context(base_url=foam, viewport={"width": 1280, "height": 900})
    seen = watch(context, foam)
    page = context.new_page()
    page.goto("/graph")
    canvas = page.locator("#graph")
    expect(canvas).to_have_attribute("data-settled", "true", timeout=20_000)
    assert canvas.get_attribute("data-nodes") == str(len(graph["nodes"]))
    assert canvas.get_attribute("data-links") == str(len(graph["links"]))
    expect(page.locator("#graph-status")).to_contain_text(
        f"{graph['meta']['returnedNodes']} notes and {graph['meta']['returnedEdges']} links"
    )
    expect(page.locator("#graph-hubs li a").first).to_have_text(hub["title"])
    # Zoom with the keyboard, then click the hub where it is drawn now.
    canvas.focus()
    page.keyboard.press("+")
    at = page.evaluate("uri => window.gnoGraph.positionOf(uri)", hub["uri"])
    canvas.click(position={"x": at["x"], "y": at["y"]})
    page.wait_for_url(re.compile(r"/doc\?ref=" + re.escape(hub["uri"]) + "$"))
    expect(page.locator("h1#doc-title")).to_have_text(hub["title"])
    context.close()
    seen.clean()


def test_a_truncated_graph_says_so(browser: Any, foam: str) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(base_url=foam)
    seen = watch(context, foam)
    page = context.new_page()
    page.goto("/graph?collection=foam&limit=10")
    canvas = page.locator("#graph")
    expect(canvas).to_have_attribute("data-settled", "true", timeout=20_000)
    assert canvas.get_attribute("data-nodes") == "10"
    expect(page.locator("#graph-status")).to_contain_text("truncated to the 10 best-linked notes")
    context.close()
    seen.clean()
