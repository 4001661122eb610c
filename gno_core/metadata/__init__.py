"""Typed document metadata: the frontmatter ``gno:`` → ``metadata:`` namespace extracted at sync
(``extract``), and the typed predicate evaluated directly over it (``evaluate``)."""
