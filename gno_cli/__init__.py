"""The ``gno`` command line: argument parsing, output formatting and exit codes."""
