"""``Index``: each port given as a function is opened on its first use, once; a port given as
itself is returned as it is."""

from __future__ import annotations

from typing import Any

from gno_core.ports.index import Index

NAMES = ("documents", "ledger", "stats", "lexical", "vectors", "links", "memory")


def test_ports_given_as_functions_open_on_first_use_once() -> None:
    opened: list[str] = []

    def opener(name: str) -> Any:
        def open_port() -> object:
            opened.append(name)
            return ("port", name)

        return open_port

    index = Index(**{name: opener(name) for name in NAMES})
    assert opened == []
    assert index.lexical == ("port", "lexical")
    assert index.documents == ("port", "documents")
    assert opened == ["lexical", "documents"]
    for name in NAMES:
        assert getattr(index, name) == ("port", name)
        assert getattr(index, name) is getattr(index, name)
    assert sorted(opened) == sorted(NAMES)


def test_ports_given_as_themselves_are_kept() -> None:
    ports: dict[str, Any] = {name: object() for name in NAMES}
    closed: list[bool] = []
    index = Index(**ports, closer=lambda: closed.append(True))
    assert all(getattr(index, name) is port for name, port in ports.items())
    with index:
        pass
    assert closed == [True]
