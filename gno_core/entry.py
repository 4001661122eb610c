"""``gno_core.open``: the way in for Python callers, without the core importing any adapter.

Adapter sets register a factory under the ``gno.adapters`` entry-point group (the SQLite one
that ships with gno is ``sqlite``); the factory is called as ``factory(index, config_path, env=env)``
and returns a ready ``Gno`` facade. Nothing here runs at ``import gno_core`` time: the entry points
are read, and the chosen set imported, only when ``open`` is called.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Protocol

from gno_core.errors import AdaptersNotFoundError, AmbiguousAdaptersError

if TYPE_CHECKING:
    from gno_core.facade import Gno

# The two errors ``open`` raises live in ``gno_core.errors``; the Python API page names them
# here too, so they stay importable from here.
__all__ = [
    "ADAPTERS_GROUP",
    "ADAPTERS_VARIABLE",
    "AdapterFactory",
    "AdaptersNotFoundError",
    "AmbiguousAdaptersError",
    "EntryPointLike",
    "open",
    "select_adapters",
]

#: The entry-point group adapter sets register under.
ADAPTERS_GROUP = "gno.adapters"
#: The environment variable that picks an adapter set when several are installed.
ADAPTERS_VARIABLE = "GNO_ADAPTERS"

AdapterFactory = Callable[..., "Gno"]


class EntryPointLike(Protocol):
    """What ``importlib.metadata.EntryPoint`` offers that the selection needs."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    def load(self) -> object: ...


# ``gno_core.open`` reads like ``gzip.open``: the module is the namespace, so the builtin name is fine.
def open(
    index: str | None = None,
    *,
    config_path: str | None = None,
    env: Mapping[str, str] | None = None,
    adapters: str | None = None,
) -> Gno:
    """Open the ``Gno`` facade for ``index`` (default ``default``) with an installed adapter set.

    ``adapters`` names the set (an entry point of the ``gno.adapters`` group); without it the
    ``GNO_ADAPTERS`` variable of ``env`` (default: the process environment) decides, and
    without that the only installed set is used. ``env`` also moves the configuration, data and
    cache folders (``GNO_CONFIG_DIR``, ``GNO_DATA_DIR``, ``GNO_CACHE_DIR``). Cheap: the index is
    opened by the first operation that needs it. Use it as a context manager to close it.
    """
    from importlib.metadata import entry_points

    environment = env if env is not None else os.environ
    requested = adapters or environment.get(ADAPTERS_VARIABLE) or None
    factory = select_adapters(entry_points(group=ADAPTERS_GROUP), requested)
    return factory(index, config_path, env=env)


def select_adapters(registered: Iterable[EntryPointLike], requested: str | None) -> AdapterFactory:
    """The factory of the ``requested`` adapter set, or of the only one installed."""
    by_name: dict[str, EntryPointLike] = {}
    for point in registered:
        # The same distribution seen twice on sys.path (an editable install beside a wheel)
        # lists one name twice; it is one set, not an ambiguity.
        by_name.setdefault(point.name, point)
    names = sorted(by_name)
    if requested is not None:
        chosen = by_name.get(requested)
        if chosen is None:
            raise AdaptersNotFoundError(
                f"Adapter set not installed: {requested} (installed: {', '.join(names) or 'none'})",
                details={"requested": requested, "installed": names},
            )
    elif not names:
        raise AdaptersNotFoundError(
            f"No gno adapter set is installed (no '{ADAPTERS_GROUP}' entry point); "
            "install gno with its adapters (pip install gno)",
            details={"installed": []},
        )
    elif len(names) > 1:
        raise AmbiguousAdaptersError(
            f"Several gno adapter sets are installed ({', '.join(names)}); choose one with "
            f"gno_core.open(adapters=NAME) or {ADAPTERS_VARIABLE}=NAME",
            details={"installed": names},
        )
    else:
        chosen = by_name[names[0]]
    factory = chosen.load()
    if not callable(factory):
        raise AdaptersNotFoundError(
            f"Adapter set {chosen.name} ({chosen.value}) is not callable",
            details={"requested": chosen.name, "installed": names},
        )
    return factory
