"""The Web UI in Debian's Chromium on a real corpus (foam-docs) served by ``gno serve``: a
person finds a note, opens it on the cited line (the file's own numbering), follows links, sees
backlinks and broken links, browses folders, and uses the keyboard; every page loads with no
console error and no request leaving 127.0.0.1; a read-only server shows no write control."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser.support import watch

pytestmark = pytest.mark.slow

DAILY = "gno://foam/user/features/daily-notes.md"
#: Line 59 of user/features/daily-notes.md, word for word.
CITED_TEXT = "To customize your daily note location and format"


def open_page(browser: Any, base: str) -> tuple[Any, Any, Any]:
    context = browser.new_context(base_url=base)
    seen = watch(context, base)
    return context, context.new_page(), seen


def no_write_control(page: Any) -> None:
    """A read-only server offers nothing that writes: no POST form, no editable field, no
    control marked as a write."""
    assert page.locator("form[method='post' i]").count() == 0
    assert page.locator("textarea, [contenteditable], [data-write]").count() == 0
    assert page.locator("text=writes on").count() == 0


def test_search_finds_the_note_and_opening_it_lands_on_the_cited_line(
    browser: Any, foam: str, shared_data: Path
) -> None:
    from playwright.sync_api import expect

    file_lines = (shared_data / "foam-docs/user/features/daily-notes.md").read_text().splitlines()
    line = next(i for i, text in enumerate(file_lines, 1) if text.startswith(CITED_TEXT))
    context, page, seen = open_page(browser, foam)
    page.goto("/")
    page.keyboard.press("/")
    expect(page.locator("#quick-q")).to_be_focused()
    page.keyboard.type("customize daily note location format")
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/search\?q="))
    first = page.locator(".result").first
    expect(first.locator(".result-title")).to_have_text("Daily Notes")
    expect(first.locator(".result-line")).to_have_text(str(line))
    first.locator(".result-title").click()
    page.wait_for_url(
        re.compile(rf"/doc\?ref=gno://foam/user/features/daily-notes\.md&line={line}$")
    )
    cited = page.locator("#cited")
    expect(cited).to_contain_text(CITED_TEXT)
    # The gutter number is the file's line, and the page scrolled to it.
    assert cited.get_attribute("data-line") == str(line)
    expect(cited).to_be_in_viewport()
    assert page.evaluate("window.scrollY") > 0
    no_write_control(page)
    context.close()
    seen.clean()


def test_a_document_shows_its_links_backlinks_and_follows_a_wikilink(
    browser: Any, foam: str
) -> None:
    from playwright.sync_api import expect

    context, page, seen = open_page(browser, foam)
    page.goto(f"/doc?ref={DAILY}")
    expect(page.locator("h1#doc-title")).to_have_text("Daily Notes")
    side = page.locator("aside.doc-side")
    expect(side.locator(".backlinks li").first).to_be_visible()
    assert side.locator(".backlinks li a").count() >= 1
    # [[templates]] in the body is a link to the note the index resolved it to.
    page.locator(".markdown a.wiki", has_text="templates").first.click()
    page.wait_for_url(re.compile(r"/doc\?ref=gno://foam/user/features/templates\.md$"))
    expect(page.locator("h1#doc-title")).to_have_text("Note Templates")
    page.go_back()
    expect(page.locator("h1#doc-title")).to_have_text("Daily Notes")
    context.close()
    seen.clean()


def test_broken_links_are_marked(browser: Any, foam: str, foam_env: dict[str, str]) -> None:
    import json

    from tests.browser.support import gno

    # A note with an unresolved link, found through the index rather than assumed.
    status = json.loads(gno(foam_env, "status", "--json").stdout)
    assert status["links"]["unresolved"] > 0
    broken = None
    for uri in _uris(foam_env):
        links = json.loads(gno(foam_env, "links", uri, "--json").stdout)["links"]
        if any(link["resolution"] == "unresolved" for link in links):
            broken = uri
            break
    assert broken is not None
    context, page, seen = open_page(browser, foam)
    page.goto(f"/doc?ref={broken}")
    assert page.locator("aside .links li.broken").count() >= 1
    assert "broken" in page.locator("#out-h").inner_text()
    context.close()
    seen.clean()


def _uris(env: dict[str, str]) -> list[str]:
    import json

    from tests.browser.support import gno

    listing = json.loads(gno(env, "ls", "--json").stdout)
    return [d["uri"] for d in listing["documents"]]


def test_browse_walks_collection_and_folders(browser: Any, foam: str) -> None:
    from playwright.sync_api import expect

    context, page, seen = open_page(browser, foam)
    page.goto("/browse")
    page.get_by_role("link", name="foam", exact=True).click()
    page.get_by_role("link", name="user/").click()
    page.get_by_role("link", name="features/").click()
    page.wait_for_url(re.compile(r"/browse\?collection=foam&folder=user(/|%2F)features$"))
    expect(page.locator(".crumbs [aria-current=page]")).to_have_text("features")
    assert page.locator(".documents li").count() == 19  # the folder's 19 notes, on one page
    page.get_by_role("link", name="Daily Notes").click()
    expect(page.locator("h1#doc-title")).to_have_text("Daily Notes")
    page.go_back()
    page.go_back()
    page.wait_for_url(re.compile(r"/browse\?collection=foam&folder=user$"))
    context.close()
    seen.clean()


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/search",
        "/search?q=graph&mode=keyword",
        "/search?q=graph&mode=hybrid&collection=foam",
        f"/doc?ref={DAILY}&line=59",
        "/doc?ref=gno://foam/user/features/graph-view.md",
        "/browse",
        "/browse?collection=foam&folder=user/recipes",
        "/graph",
        "/ask",
        "/ask?q=What+is+Foam%3F",
        "/doc?ref=gno://foam/nope.md",
    ],
)
def test_every_page_is_clean_and_read_only(browser: Any, foam: str, path: str) -> None:
    context, page, seen = open_page(browser, foam)
    response = page.goto(path)
    assert response is not None
    assert response.status == (404 if "nope" in path else 200)
    page.wait_for_load_state("load")
    # Landmarks and a title on every page.
    assert page.locator("header.top nav[aria-label]").count() == 1
    assert page.locator("main#main h1").count() == 1
    no_write_control(page)
    context.close()
    if "nope" in path:  # the browser reports the page's own 404, and nothing else
        assert seen.console_errors == [
            "Failed to load resource: the server responded with a status of 404 ()"
        ]
        seen.console_errors.clear()
    seen.clean()


def test_the_dashboard_fills_in_the_full_status(browser: Any, foam: str) -> None:
    import httpx
    from playwright.sync_api import expect

    status = httpx.get(f"{foam}/api/status").json()
    context, page, seen = open_page(browser, foam)
    page.goto("/")
    expect(page.locator("#status-panel")).to_have_attribute("data-loaded", re.compile(r"^\d+$"))
    expect(page.locator("#count-documents")).to_have_text(str(status["totalDocuments"]))
    expect(page.locator("#count-chunks")).to_have_text(str(status["totalChunks"]))
    expect(page.locator("#health")).to_have_text(
        "healthy" if status["healthy"] else "needs attention"
    )
    row = page.locator("#status-collections tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("th a")).to_have_text("foam")
    expect(row.locator("td").first).to_have_text(str(status["collections"][0]["documentCount"]))
    row.locator("th a").click()
    page.wait_for_url(re.compile(r"/browse\?collection=foam$"))
    context.close()
    seen.clean()


def test_keyboard_slash_focuses_search_and_escape_leaves_it(browser: Any, foam: str) -> None:
    from playwright.sync_api import expect

    context, page, seen = open_page(browser, foam)
    page.goto("/search")
    page.keyboard.press("/")
    expect(page.locator("#q")).to_be_focused()
    page.keyboard.type("x/y")  # inside a field "/" is a character
    expect(page.locator("#q")).to_have_value("x/y")
    page.keyboard.press("Escape")
    expect(page.locator("#q")).not_to_be_focused()
    context.close()
    seen.clean()


def test_ask_abstains_and_its_evidence_opens_the_cited_lines(browser: Any, foam: str) -> None:
    from playwright.sync_api import expect

    context, page, seen = open_page(browser, foam)
    page.goto("/ask")
    page.get_by_label("Question").fill("Who maintains the Foam releases?")
    page.get_by_role("button", name="Ask").click()
    expect(page.locator("#answer-h")).to_have_text("Abstained")
    expect(page.locator("#abstention-reason code")).to_have_text("semantic_verifier_unavailable")
    first = page.locator(".evidence li").first
    start = int(first.locator(".muted").inner_text().split("lines ")[1].split("–")[0])
    first.locator("a").click()
    page.wait_for_url(re.compile(rf"/doc\?ref=gno://foam/.*&line={start}$"))
    cited = page.locator("#cited")
    expect(cited).to_be_in_viewport()
    assert int(cited.get_attribute("data-line") or 0) <= start
    context.close()
    seen.clean()
