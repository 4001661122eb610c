"""gno's version, in a leaf module: the use cases that report it must not import the
``gno_core`` package (whose ``__init__`` imports the entry function above them)."""

__version__ = "0.1.0"
