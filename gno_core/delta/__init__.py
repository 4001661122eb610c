"""Knowledge Delta: the change journal (what changed in the index, one entry per document
change, metadata and structure only, never a body) and its reads, ``gno_changes`` and
``gno_diff``."""
