"""The YAML configuration file (ruamel.yaml round-trip, so the user's comments survive saves)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pydantic
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from gno_adapters.fsutil import atomic_write
from gno_core.config import GnoConfig
from gno_core.errors import NotInitializedError, RuntimeFailure, ValidationError

HEADER = "# gno configuration: collections and indexing settings. Edit freely; comments are kept.\n"


class YamlConfigRepository:
    """``ConfigRepository`` over one YAML file."""

    def __init__(self, path: Path) -> None:
        self._path = path
        # (mtime_ns, size, inode) of the file the cached config was parsed from: a resident
        # server must not re-parse YAML on every request, yet must see the user's edits.
        self._cache: tuple[tuple[int, int, int], GnoConfig] | None = None
        self._yaml = YAML(typ="rt")
        self._yaml.default_flow_style = False
        self._yaml.indent(mapping=2, sequence=4, offset=2)

    @property
    def location(self) -> str:
        return str(self._path)

    def exists(self) -> bool:
        return self._path.is_file()

    def _read(self) -> Any:
        try:
            text = self._path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise NotInitializedError(
                f"No gno configuration at {self._path}; run `gno init` first"
            ) from exc
        except OSError as exc:
            raise RuntimeFailure(f"Cannot read {self._path}: {exc.strerror}") from exc
        try:
            return self._yaml.load(text)
        except YAMLError as exc:
            raise ValidationError(f"Malformed YAML in {self._path}: {exc}") from exc

    def load(self) -> GnoConfig:
        stamp = self._stamp()
        if stamp is not None and self._cache is not None and self._cache[0] == stamp:
            return self._cache[1].model_copy(deep=True)
        config = self._parse()
        if stamp is not None:
            self._cache = (stamp, config.model_copy(deep=True))
        return config

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            st = self._path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def _parse(self) -> GnoConfig:
        data = self._read()
        if data is None:
            return GnoConfig()
        try:
            return GnoConfig.model_validate(_plain(data))
        except pydantic.ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()
            )
            raise ValidationError(f"Invalid configuration in {self._path}: {problems}") from exc

    def save(self, config: GnoConfig) -> None:
        fresh = config.model_dump(mode="json", by_alias=True)
        doc: Any = self._read() if self.exists() else None
        if not isinstance(doc, dict):
            doc = fresh
        else:
            for key in list(doc):
                if key not in fresh:
                    del doc[key]
            for key, value in fresh.items():
                doc[key] = value
        buffer = io.StringIO()
        if not self.exists():
            buffer.write(HEADER)
        self._yaml.dump(doc, buffer)
        _atomic_write(self._path, buffer.getvalue())
        self._cache = None


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _atomic_write(path: Path, text: str) -> None:
    try:
        atomic_write(path, text.encode("utf-8"))
    except OSError as exc:
        raise RuntimeFailure(f"Cannot write {path}: {exc.strerror}") from exc
