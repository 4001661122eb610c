"""A corpus of hostile notes (raw ``<script>``, event-handler attributes on ``<img>``/``<svg>``,
``javascript:``/``data:``/``vbscript:`` links written every way CommonMark allows, a remote
image, a quoted title that tries to break out of its attribute, hostile wikilinks and
frontmatter) opened in Chromium through every page that shows a note's text: nothing runs, no
dialog opens, no request leaves 127.0.0.1, and the page's DOM holds no script but gno's own
files, no ``on*`` attribute, no embedded SVG, frame, image, style or form, and no ``href`` gno
did not write."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.support import indexed, serving, watch

pytestmark = pytest.mark.slow

HOSTILE = """\
---
title: "Hostile <script>window.__xss='frontmatter'</script> note"
tags: ["<img src=x onerror=alert('tag')>"]
---
# Hostile <script>window.__xss = 'heading'</script> heading

<script>window.__xss = 'block'; alert('block')</script>

Inline <img src=x onerror="window.__xss='img'; alert('img')"> image and marker-word.

<svg onload="window.__xss='svg'; alert('svg')"><circle r="5"/></svg>

<iframe src="javascript:alert('iframe')"></iframe>

[click me](javascript:window.__xss='link';alert('link'))
[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)
[vb link](vbscript:msgbox(1))
<javascript:alert('autolink')>
[cased](JaVaScRiPt:alert('case'))
[entity](&#106;avascript:alert('entity'))
[ref link][bad]

[bad]: javascript:alert('ref')

![pic](javascript:alert('imgsrc'))
![remote](http://198.51.100.7/track.png)
[title attr](other.md "x\\" onmouseover=\\"alert('title')")
[[<script>alert('wiki')</script>]]
[[a" onmouseover="alert('wikiattr')|b]]

<a href="javascript:alert('raw-a')">raw anchor</a>
<style>body{display:none}</style>
<form action="http://198.51.100.7/"><button>go</button></form>
<details open ontoggle="alert('toggle')"><summary>x</summary></details>
"""

FIND_BAD = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      if (attr.name.toLowerCase().startsWith('on')) bad.push(el.tagName + ' ' + attr.name);
    }
  }
  const scripts = [...document.scripts].map(s => s.getAttribute('src'))
    .filter(src => !/^[/]static[/](gno|dashboard|graph)[.]js[?]v=[0-9a-f]{12}$/.test(src || ''));
  const body = document.querySelector('main');
  const embedded = body ? [...body.querySelectorAll(
    'svg, iframe, img, style, form:not([role=search]), object, embed, video, audio')].map(e => e.tagName) : [];
  const hrefs = [...document.querySelectorAll('[href]')].map(e => e.getAttribute('href'))
    .filter(h => !/^(\\/|#|https?:\\/\\/|mailto:)/i.test(h));
  return {bad, scripts, embedded, hrefs, xss: window.__xss === undefined ? null : String(window.__xss)};
}"""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    notes = tmp_path_factory.mktemp("hostile-notes")
    (notes / "hostile.md").write_text(HOSTILE)
    (notes / "other.md").write_text("# Other\n\nlinks back to [[hostile]] marker-word.\n")
    env = indexed(tmp_path_factory.mktemp("hostile-index"), {"xss": notes})
    with serving(env) as base:
        yield base


def check(page: Any) -> None:
    found = page.evaluate(FIND_BAD)
    assert found == {
        "bad": [],
        "scripts": [],
        "embedded": [],
        "hrefs": [],
        "xss": None,
    }


@pytest.mark.parametrize(
    "path",
    [
        "/doc?ref=gno://xss/hostile.md",
        "/doc?ref=gno://xss/hostile.md&line=8",
        "/doc?ref=gno://xss/other.md",
        "/search?q=marker-word",
        "/search?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E",
        "/browse?collection=xss",
        "/",
    ],
)
def test_hostile_notes_run_nothing(browser: Any, hostile: str, path: str) -> None:
    context = browser.new_context(base_url=hostile)
    seen = watch(context, hostile)
    page = context.new_page()
    page.goto(path)
    page.wait_for_load_state("load")
    check(page)
    # Point at and focus everything a handler could hang on, then look again.
    for element in page.locator("main a, main span, main details, main summary").all()[:80]:
        element.hover()
    page.keyboard.press("Tab")
    page.wait_for_timeout(200)
    check(page)
    context.close()
    seen.clean()


def test_the_hostile_text_is_shown_as_text(browser: Any, hostile: str) -> None:
    context = browser.new_context(base_url=hostile)
    seen = watch(context, hostile)
    page = context.new_page()
    page.goto("/doc?ref=gno://xss/hostile.md")
    text = page.locator(".markdown").inner_text()
    assert "<script>window.__xss = 'block'; alert('block')</script>" in text
    assert "<svg onload=" in text
    # A link with a scheme other than http(s)/mailto stays text; a link the index did not
    # resolve (the two wikilinks, and other.md, whose quoted title gno's link reader skips) is a
    # marked span, never an ``<a>``.
    assert "[click me](javascript:" in text and "[cased](JaVaScRiPt:" in text
    assert page.locator(".markdown .link.broken").count() == 3
    assert page.locator(".markdown a").count() == 0
    context.close()
    seen.clean()
