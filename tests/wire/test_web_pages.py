"""The Web UI's pages on the gateway, in process over the real in-memory facade: each page is
HTML with the strict CSP, behind the same Host/Origin/peer rules as ``/mcp``, served on
``serve`` and not on ``daemon``; static files are an allowlist. (The pages in a real browser, on
a real corpus: ``tests/browser``.)"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import TypeVar
from urllib.parse import quote

import httpx
import pytest

from tests.http_support import assert_refusal, in_process
from tests.wire.real_facade import ALPHA, BETA

T = TypeVar("T")
PORT = 8765
PAGES = (
    "/",
    "/search",
    "/search?q=foam",
    "/search?q=ideas&mode=hybrid",
    f"/doc?ref={ALPHA}",
    "/browse",
    "/browse?collection=notes",
    "/browse?collection=notes&folder=sub%20dir",
    "/graph",
    "/graph?collection=notes&limit=5&similar=1",
)


def run(coro: Callable[[], Awaitable[T]]) -> T:
    return asyncio.run(coro())  # type: ignore[arg-type]


def assert_page(response: httpx.Response, status: int = 200) -> str:
    assert response.status_code == status, response.text[:500]
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    csp = response.headers["content-security-policy"]
    assert csp.startswith("default-src 'self';") and "script-src 'self';" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert response.headers["x-content-type-options"] == "nosniff"
    html = response.text
    # No inline script, no inline style, nothing from another host.
    scripts = re.findall(r"<script[^>]*>", html)
    assert re.fullmatch(r'<script src="/static/gno\.js\?v=[0-9a-f]{12}" defer>', scripts[0])
    assert all(
        re.fullmatch(r'<script src="/static/[a-z]+\.js\?v=[0-9a-f]{12}" defer>', s) for s in scripts
    )
    assert "<style" not in html and " style=" not in html
    assert not re.search(r"""(?:src|href)=["']?(?:https?:)?//""", html)
    return html


def test_every_page_is_html_under_the_strict_csp() -> None:
    async def body() -> None:
        with in_process() as (_, client):
            for path in PAGES:
                assert_page(await client.get(path))

    run(body)


def test_pages_answer_what_the_facade_answers() -> None:
    async def body() -> None:
        with in_process() as (_, client):
            dashboard = assert_page(await client.get("/"))
            assert "Counting 1 collection: notes" in dashboard
            assert 'data-src="/api/status"' in dashboard
            graph = assert_page(await client.get("/graph?collection=notes&limit=5&similar=1"))
            assert 'data-src="/api/graph?limit=5&amp;edgeLimit=20000&amp;collection=notes' in graph
            found = assert_page(await client.get("/search?q=foam"))
            assert found.count('class="result"') == 1
            assert f'href="/doc?ref={ALPHA}&amp;line=' in found
            doc = assert_page(await client.get(f"/doc?ref={ALPHA}&line=6"))
            # Lines are the file's: the frontmatter holds lines 1-3, the heading is line 4.
            assert '<h2 data-line="4" data-b="0">Alpha</h2>' in doc
            assert '<p data-line="6" data-b="1" id="cited">Foam notes link ideas.' in doc
            folder = assert_page(await client.get("/browse?collection=notes&folder=sub%20dir"))
            assert f'href="/doc?ref={quote(BETA, safe="/:")}"' in folder
            assert "alpha.md" not in folder

    run(body)


def test_a_missing_document_is_a_404_page() -> None:
    async def body() -> None:
        with in_process() as (_, client):
            html = assert_page(await client.get("/doc?ref=notes/nope.md"), 404)
            assert "NOT_FOUND" in html
            assert_page(await client.get("/doc"), 400)

    run(body)


@pytest.mark.parametrize(
    ("headers", "reason"),
    [
        ({"Host": "evil.example.com"}, "host_not_allowed"),
        ({"Host": "127.0.0.1"}, "host_not_allowed"),
        ({"Origin": "http://evil.example.com"}, "origin_not_allowed"),
        ({"Origin": "null"}, "origin_not_allowed"),
    ],
)
def test_pages_keep_the_mcp_host_and_origin_rules(headers: dict[str, str], reason: str) -> None:
    async def body() -> None:
        with in_process() as (_, client):
            for path in ("/", "/search?q=foam", f"/doc?ref={ALPHA}", "/static/gno.js"):
                response = await client.get(path, headers=headers)
                assert_refusal(response, 403, reason)
                assert "Foam" not in response.text

    run(body)


def test_a_remote_peer_gets_no_page() -> None:
    async def body() -> None:
        with in_process(peer="10.1.2.3") as (_, client):
            assert_refusal(await client.get("/"), 403, "peer_not_allowed")

    run(body)


def test_static_files_are_an_allowlist() -> None:
    async def body() -> None:
        with in_process() as (_, client):
            js = await client.get("/static/gno.js")
            assert js.status_code == 200 and js.headers["content-type"].startswith(
                "text/javascript"
            )
            assert js.headers["cache-control"] == "no-cache"
            page_html = (await client.get("/")).text
            versioned = re.search(r'src="(/static/gno\.js\?v=[0-9a-f]{12})"', page_html)
            assert versioned is not None
            kept = await client.get(versioned.group(1))
            assert kept.content == js.content
            assert kept.headers["cache-control"] == "public, max-age=31536000, immutable"
            css = await client.get("/static/gno.css")
            assert css.status_code == 200 and "prefers-color-scheme: dark" in css.text
            graph = await client.get("/static/graph.js")
            assert graph.status_code == 200 and "textContent" in graph.text
            for name in ("..%2Fpages.py", "pages.py", "%2E%2E/assets.py", "templates"):
                assert (await client.get(f"/static/{name}")).status_code == 404, name

    run(body)


def test_the_daemon_serves_no_page() -> None:
    async def body() -> None:
        with in_process(mode="daemon") as (_, client):
            assert (await client.get("/")).status_code == 404
            assert (await client.get("/search?q=foam")).status_code == 404

    run(body)


def test_a_read_only_server_offers_and_accepts_no_capture() -> None:
    async def body() -> None:
        with in_process() as (_, client):
            assert 'href="/capture"' not in assert_page(await client.get("/"))
            html = assert_page(await client.get("/capture"), 403)
            assert "WRITE_DISABLED" in html and 'method="post"' not in html
            posted = await client.post(
                "/capture", data={"collection": "notes", "title": "Nope", "content": "x"}
            )
            assert_page(posted, 403)
            found = await client.get("/search?q=Nope")
            assert 'class="result"' not in found.text

    run(body)


def test_capture_with_writes_on_creates_the_note_and_opens_it() -> None:
    async def body() -> None:
        with in_process(enable_write=True) as (_, client):
            assert 'href="/capture"' in assert_page(await client.get("/"))
            assert '<form class="capture"' in assert_page(await client.get("/capture"))
            origin = {"Origin": f"http://127.0.0.1:{PORT}"}
            form = {
                "collection": "notes",
                "title": "Zebra crossing",
                "content": "Striped zebracrossword notes.",
                "tags": "walk, city",
            }
            posted = await client.post("/capture", data=form, headers=origin)
            assert posted.status_code == 303, posted.text[:300]
            location = posted.headers["location"]
            assert location.startswith("/doc?ref=gno://notes/")
            doc = assert_page(await client.get(location))
            assert "Striped zebracrossword notes." in doc
            found = assert_page(await client.get("/search?q=zebracrossword"))
            assert found.count('class="result"') == 1
            # Another site's form is refused by the boundary before the page sees it.
            evil = await client.post(
                "/capture", data=form, headers={"Origin": "http://evil.example.com"}
            )
            assert_refusal(evil, 403, "origin_not_allowed")
            unknown = await client.post("/capture", data={**form, "collection": "nope"})
            assert "NOT_FOUND" in assert_page(unknown, 404)

    run(body)


def test_search_filters_reach_the_facade_and_bad_ones_are_shown() -> None:
    async def body() -> None:
        with in_process() as (_, client):
            # alpha.md is tagged work/project, beta.md work and personal.
            both = assert_page(await client.get("/search?q=ideas&tags_any=work"))
            assert both.count('class="result"') == 2
            one = assert_page(await client.get("/search?q=ideas&tags_all=work,personal"))
            assert one.count('class="result"') == 1 and "Beta" in one
            assert 'value="work,personal"' in one and '<details class="advanced" open>' in one
            bad = assert_page(await client.get("/search?q=ideas&since=yesterdayish"))
            assert 'role="alert"' in bad and "VALIDATION" in bad
            broken = assert_page(await client.get("/search?q=ideas&filter=%7Bnope"))
            assert "filter: not JSON" in broken
            explained = assert_page(await client.get("/search?q=ideas&mode=hybrid&explain=1"))
            assert '<details class="explain">' in explained

    run(body)


def test_ask_shows_the_abstention_and_the_evidence_to_read() -> None:
    async def body() -> None:
        with in_process() as (_, client):
            html = assert_page(await client.get("/ask?q=What%20do%20foam%20notes%20link%3F"))
            # No semantic verifier here: gno abstains and says so, with the evidence.
            assert '<h2 id="answer-h">Abstained</h2>' in html
            assert "<code>semantic_verifier_unavailable</code>" in html
            assert f'href="/doc?ref={ALPHA}&amp;line=' in html
            assert_page(await client.get("/ask"))

    run(body)


def test_a_cited_line_in_a_tight_list_marks_its_item() -> None:
    from gno_adapters.web.markdown import render

    html = render("# T\n\n1. first\n   - nested\n2. second\n", {}, cited_line=4).html
    assert re.search(r'<li data-line="4" data-b="\d+" id="cited">nested</li>', html)
    assert html.count('id="cited"') == 1


def test_a_blank_cited_line_marks_the_block_above_it() -> None:
    from gno_adapters.web.markdown import render

    html = render("# T\n\npara one\n\n\npara two\n", {}, cited_line=4).html
    assert re.search(r'<p data-line="3" data-b="\d+" id="cited">para one</p>', html)
    assert 'id="cited"' not in render("# T\n", {}, cited_line=None).html


def test_a_page_reports_a_failure_as_rest_does() -> None:
    """A page's status for a gno error is REST's (one table), and a refused field reads as in
    REST's envelope (no ``Value error,`` prefix of the validation library)."""
    from pydantic import BaseModel, ValidationError, field_validator

    from gno_adapters.web.views import failure
    from gno_core.errors import JobConflictError

    class Form(BaseModel):
        url: str

        @field_validator("url")
        @classmethod
        def absolute(cls, value: str) -> str:
            raise ValueError("url must be absolute")

    assert failure(JobConflictError("a job runs"))[:2] == (409, "JOB_CONFLICT")
    with pytest.raises(ValidationError) as caught:
        Form(url="x")
    assert failure(caught.value) == (400, "VALIDATION", "url: url must be absolute")
