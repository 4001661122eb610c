"""Indexing: the collections a user configured, and the runs that bring the index up to date
with them (sync of files, embedding of chunks, both together)."""
