"""Everything a plan read, to prove at apply that the plan is still current without planning
again.

The planner is a function of the configuration and of what its ports answered: the bytes of
every note it read (or the error a read raised), whether a path exists, the stored documents,
the links into the note, the names the collection carries and the files sync could not index.
``record`` hands the planner ports that keep every call and its answer (of a read, the SHA-256
of the bytes); ``Inputs.current`` asks the same questions again, in the same order, and says
whether every answer is the same. When it is, planning again would read the same inputs and
give the same plan, so the plan made at preview is the plan of now; when anything differs, the
caller plans again."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from gno_core.errors import GnoError
from gno_core.ports import DocumentStore, LinkStore, NoteFiles, SyncLedger

__all__ = ["Inputs", "record"]


def _answer(method: str, result: Any) -> Any:
    if method == "read":
        return hashlib.sha256(result[1]).hexdigest()  # the bytes; their stat is not read
    return result


def _raised(exc: GnoError) -> tuple[str, str, dict[str, Any]]:
    """The answer kept of a call that raised ``exc``."""
    return ("raised", exc.code, exc.details)


def _ask(port: object, method: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The answer of one call: its result as kept, or the typed error it raised."""
    try:
        return _answer(method, getattr(port, method)(*args, **kwargs))
    except GnoError as exc:
        return _raised(exc)


@dataclass(slots=True)
class Inputs:
    """The calls a plan made through its ports, in order, with their answers."""

    calls: list[tuple[str, str, tuple[Any, ...], dict[str, Any], Any]] = field(default_factory=list)

    def current(
        self, documents: DocumentStore, links: LinkStore, notes: NoteFiles, ledger: SyncLedger
    ) -> bool:
        """Whether every call, asked of these ports, answers as it did (stops at the first
        that does not)."""
        ports: dict[str, object] = {
            "documents": documents,
            "links": links,
            "notes": notes,
            "ledger": ledger,
        }
        for port, method, args, kwargs, answer in self.calls:
            if _ask(ports[port], method, args, kwargs) != answer:
                return False
        return True


class _Recording:
    """A port whose calls are kept in ``inputs`` (then answered as the port answers)."""

    def __init__(self, role: str, port: object, inputs: Inputs) -> None:
        self._role = role
        self._port = port
        self._inputs = inputs

    def __getattr__(self, method: str) -> Callable[..., Any]:
        call = getattr(self._port, method)

        def recorded(*args: Any, **kwargs: Any) -> Any:
            try:
                result = call(*args, **kwargs)
            except GnoError as exc:
                self._inputs.calls.append((self._role, method, args, kwargs, _raised(exc)))
                raise
            answer = _answer(method, result)
            self._inputs.calls.append((self._role, method, args, kwargs, answer))
            return result

        return recorded


def record(
    documents: DocumentStore, links: LinkStore, notes: NoteFiles, ledger: SyncLedger
) -> tuple[DocumentStore, LinkStore, NoteFiles, SyncLedger, Inputs]:
    """The four ports a planner reads, each keeping its calls in the returned ``Inputs``."""
    inputs = Inputs()
    return (
        cast(DocumentStore, _Recording("documents", documents, inputs)),
        cast(LinkStore, _Recording("links", links, inputs)),
        cast(NoteFiles, _Recording("notes", notes, inputs)),
        cast(SyncLedger, _Recording("ledger", ledger, inputs)),
        inputs,
    )
