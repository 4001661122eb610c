"""``FixedResidentProbe``: reports whatever resident URL it was given."""

from __future__ import annotations


class FixedResidentProbe:
    def __init__(self, url: str | None = None) -> None:
        self.url = url

    def serve_url(self) -> str | None:
        return self.url
