"""What the pages are made of: the Jinja templates and the static files (package data, read once
on first use), and the headers every page and asset carries.

The Content-Security-Policy allows nothing but this origin (no inline script or style, no other
host: the UI loads no font, script or image from anywhere else), no plugin, no framing, forms
posting only here.
"""

from __future__ import annotations

import hashlib
from functools import cache
from importlib import resources
from typing import Any

from quart import Response

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
#: The static files there are, by name, with their content type: nothing else is served.
STATIC_TYPES = {
    "gno.css": "text/css; charset=utf-8",
    "gno.js": "text/javascript; charset=utf-8",
    "graph.js": "text/javascript; charset=utf-8",
    "dashboard.js": "text/javascript; charset=utf-8",
    "favicon.svg": "image/svg+xml",
}


@cache
def templates() -> Any:
    """The template environment: autoescaping on for every template (a value is text unless a
    view marks it ``Markup``, which only the Markdown renderer's output is)."""
    from jinja2 import Environment, PackageLoader, StrictUndefined

    environment = Environment(
        loader=PackageLoader("gno_adapters.web", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    environment.globals["asset"] = asset_url
    return environment


def asset_url(name: str) -> str:
    """``/static/<name>?v=<hash of its bytes>``: a page names each file by its content, so the
    browser keeps it for good and asks again only when gno ships a new one (a page load is one
    request, not five: the gateway's per-peer rate limit counts every request)."""
    return f"/static/{name}?v={version(name)}"


@cache
def version(name: str) -> str:
    body = static_file(name)
    return hashlib.sha256(body).hexdigest()[:12] if body is not None else ""


@cache
def static_file(name: str) -> bytes | None:
    if name not in STATIC_TYPES:
        return None
    return (resources.files("gno_adapters.web") / "static" / name).read_bytes()


def page(template: str, status: int = 200, /, **context: Any) -> Response:
    """A rendered page with the security headers; never cached (it shows the live index)."""
    html = templates().get_template(template).render(**context)
    response = Response(html, status=status, content_type="text/html; charset=utf-8")
    response.headers.update(SECURITY_HEADERS)
    response.headers["Cache-Control"] = "no-store"
    return response


def see_other(location: str) -> Response:
    """``303 See Other`` to a page of this server (after a form's POST)."""
    response = Response(b"", status=303, headers={"Location": location})
    response.headers.update(SECURITY_HEADERS)
    return response


def asset(name: str, wanted: str | None) -> Response:
    """A static file; kept by the browser for a year when asked for by its current version."""
    body = static_file(name)
    if body is None:
        response = Response(b"not found\n", status=404, content_type="text/plain; charset=utf-8")
    else:
        response = Response(body, status=200, content_type=STATIC_TYPES[name])
        fresh = wanted == version(name)
        response.headers["Cache-Control"] = (
            "public, max-age=31536000, immutable" if fresh else "no-cache"
        )
    response.headers.update(SECURITY_HEADERS)
    return response
