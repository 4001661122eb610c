"""Adapters: the concrete implementations of gno_core's ports, and the composition root."""
