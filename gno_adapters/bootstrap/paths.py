"""Where an index's files live (XDG folders and ``GNO_*`` overrides), for the entry points
that need a path before any facade exists (``serve --status``, ``models``)."""

from gno_adapters.config import GnoPaths, resolve_paths

__all__ = ["GnoPaths", "resolve_paths"]
