"""Every exit status of ``gno`` and what it means: one table for ``gno --help``, the README and
``docs/reference/cli.md`` (a test keeps them equal, and fails on a status no row explains)."""

from __future__ import annotations

#: ``serve``/``daemon --status`` or ``--stop`` found no live server.
NOT_RUNNING = 3
#: ``gno audit`` found problems (a rule failed) in a complete report.
AUDIT_FINDINGS = 4
#: ``gno audit`` could not finish: a partial report (cancelled or Ctrl-C, a rule unavailable
#: or inconclusive) or the index changed during it.
AUDIT_PARTIAL = 5
#: Ctrl-C (``gno audit`` excepted: it prints the partial report and exits ``AUDIT_PARTIAL``).
INTERRUPTED = 130
#: The reader of stdout left (``gno search x | head``): the status of a process killed by SIGPIPE.
BROKEN_PIPE = 141

MEANINGS: dict[int, str] = {
    0: "ok",
    1: (
        "bad input: the command cannot succeed as given (also: `graph path` finds no path, "
        "a refactor plan cannot apply, a `multi-get` glob matches nothing, `collection policy "
        "check` denies)"
    ),
    2: (
        "runtime failure while doing valid work (I/O, database, model, a lock held; "
        "`changes --follow`: retention passed its cursor, entries were lost)"
    ),
    NOT_RUNNING: "not running: `serve`/`daemon --status` or `--stop` found no live server",
    AUDIT_FINDINGS: (
        "conflict to retry: re-read the memory and write again; or `audit` found problems "
        "(a complete report with a failing rule)"
    ),
    AUDIT_PARTIAL: (
        "`audit` could not finish: the report is partial (a rule unavailable or inconclusive, "
        "cancelled, Ctrl-C) or the index changed during it; never a clean result"
    ),
    INTERRUPTED: "interrupted (Ctrl-C); `audit` prints its partial report and exits 5 instead",
    BROKEN_PIPE: "the reader of stdout went away (a pipe into `head`), as SIGPIPE",
}


def error_codes() -> dict[int, list[str]]:
    """Exit status -> the error codes (``--json``: ``error.code``) that exit with it."""
    from gno_core.errors import EXIT_CODES, MEMORY_CODES, GnoError

    found: dict[int, list[str]] = {}
    for code, status in EXIT_CODES.items():
        found.setdefault(status, []).append(code)
    for code, (_, status) in MEMORY_CODES.items():
        found.setdefault(status, []).append(code)
    # The errors that carry their own status (the egress codes ...), in definition order.
    for cls in GnoError.__subclasses__():
        if cls.exit_code is not None and cls.code not in found.get(cls.exit_code, []):
            found.setdefault(cls.exit_code, []).append(cls.code)
    return found


def help_text() -> str:
    """The ``Exit codes:`` block of ``gno --help``."""
    import textwrap

    rows = [
        textwrap.fill(f"{status:<4d} {meaning}", 98, initial_indent="  ", subsequent_indent=" " * 7)
        for status, meaning in MEANINGS.items()
    ]
    return (
        "Exit codes:\n" + "\n".join(rows) + "\n  (the error codes of each: docs/reference/cli.md)"
    )


def markdown_table() -> str:
    """The exit codes as the Markdown table of the README and ``docs/reference/cli.md``."""
    codes = error_codes()
    lines = ["| Exit | Meaning | Error codes (`--json`: `error.code`) |", "|---|---|---|"]
    for status, meaning in MEANINGS.items():
        named = ", ".join(f"`{c}`" for c in codes.get(status, []))
        if status == 2:
            named = (named + ", any other") if named else "any other"
        lines.append(f"| {status} | {meaning} | {named} |")
    return "\n".join(lines) + "\n"


def sigint_catchable() -> bool:
    """Whether a command may take Ctrl-C over (its own SIGINT handler): not on another thread,
    nor where SIGINT is ignored (a job started with `&` by a shell without job control): it
    stays ignored, as it is for every other command."""
    import signal
    import threading

    return threading.current_thread() is threading.main_thread() and (
        signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
    )
