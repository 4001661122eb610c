"""What every command receives: parsed global options and a lazily built facade."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gno_core.facade import Gno


@dataclass
class Context:
    args: argparse.Namespace
    _gno: Gno | None = field(default=None, init=False)

    @property
    def json(self) -> bool:
        return bool(getattr(self.args, "json", False))

    @property
    def quiet(self) -> bool:
        return bool(getattr(self.args, "quiet", False))

    @property
    def gno(self) -> Gno:
        if self._gno is None:
            from gno_adapters.bootstrap.local import open_gno

            self._gno = open_gno(self.args.index, self.args.config)
        return self._gno

    def close(self) -> None:
        if self._gno is not None:
            self._gno.close()
            self._gno = None
