"""The knowledge audit: read-only, offline checks of links, provenance and freshness over the
index and the source files (``run.py`` the report; ``frame.py`` the scope, the evidence read
once and the findings; one module per rule group)."""
