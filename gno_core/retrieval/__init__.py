"""Retrieval: the lexical query grammar, filters, ranking assembly and (later) fusion."""
