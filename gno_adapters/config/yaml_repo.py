"""The YAML configuration file (ruamel.yaml round-trip, so the user's comments survive saves).

Reading it is on the path of every command, so a new process avoids the two costly steps when
the file has not changed since it was last read: importing ruamel.yaml and validating (which
builds the pydantic schemas of every configuration model). A validated configuration is kept
as JSON in the cache directory under the SHA-256 of the file's text; a hit rebuilds the models
without validation (``model_construct``), from data that was validated when it was stored.
"""

from __future__ import annotations

import contextlib
import io
import json
import types
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from gno_adapters.fsutil import atomic_write
from gno_core.errors import (
    NotInitializedError,
    RuntimeFailure,
    ValidationError,
    validation_problems,
)
from gno_core.version import __version__

if TYPE_CHECKING:
    import pydantic
    from ruamel.yaml import YAML

    from gno_core.config import GnoConfig

# pydantic (the configuration models) is imported by the first ``load``: a command that only
# asks whether the file exists (``gno search`` without ``-c``) never loads it.
M = TypeVar("M", bound="pydantic.BaseModel")

#: Bumped when the cache entry's layout changes; entries of another format are ignored.
CACHE_FORMAT = 2  # 2: a stored earlier default exclude list reads as the current one

HEADER = "# gno configuration: collections and indexing settings. Edit freely; comments are kept.\n"


class YamlConfigRepository:
    """``ConfigRepository`` over one YAML file."""

    def __init__(self, path: Path, cache_dir: Path | None = None) -> None:
        self._path = path
        # (mtime_ns, size, inode) of the file the cached config was parsed from: a resident
        # server must not re-parse YAML on every request, yet must see the user's edits.
        self._cache: tuple[tuple[int, int, int], GnoConfig] | None = None
        self._yaml_rt: YAML | None = None
        # The parsed-config cache shared by new processes (None: parse every time).
        self._cache_dir = cache_dir
        # ``section``'s plain values, with the stamp of the file they were read from.
        self._plain: tuple[tuple[int, int, int], dict[str, Any]] | None = None

    @property
    def _yaml(self) -> YAML:
        if self._yaml_rt is None:
            from ruamel.yaml import YAML

            yaml = YAML(typ="rt")
            yaml.default_flow_style = False
            yaml.indent(mapping=2, sequence=4, offset=2)
            self._yaml_rt = yaml
        return self._yaml_rt

    @property
    def _cache_file(self) -> Path | None:
        if self._cache_dir is None:
            return None
        import hashlib  # OpenSSL: loaded by the commands that read the configuration only

        name = hashlib.sha256(str(self._path).encode()).hexdigest()[:24] + ".json"
        return self._cache_dir / "config" / name

    @property
    def location(self) -> str:
        return str(self._path)

    def exists(self) -> bool:
        return self._path.is_file()

    def _text(self) -> str:
        try:
            return self._path.read_text(encoding="utf-8")
        except FileNotFoundError as exc:
            raise NotInitializedError(
                f"No gno configuration at {self._path}; run `gno init` first"
            ) from exc
        except OSError as exc:
            raise RuntimeFailure(f"Cannot read {self._path}: {exc.strerror}") from exc

    def _read(self, text: str | None = None) -> Any:
        from ruamel.yaml.error import YAMLError

        text = self._text() if text is None else text
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

    def section(self, name: str) -> object:
        stamp = self._stamp()
        if stamp is None:
            return None
        if self._plain is None or self._plain[0] != stamp:
            # The shared cache holds the validated config as plain JSON: a hit builds no model
            # (no pydantic in a plain ``gno search``); a miss loads (and stores) it.
            plain = self._cached_plain(self._text())
            if plain is None:
                plain = self.load().model_dump(mode="json")
            self._plain = (stamp, plain)
        return self._plain[1].get(name)

    def _cached_plain(self, text: str) -> dict[str, Any] | None:
        import hashlib

        cache_file = self._cache_file
        if cache_file is None:
            return None
        try:
            entry = json.loads(cache_file.read_bytes())
            ok = entry.get("format") == CACHE_FORMAT and entry.get("gno") == __version__
            if not ok or entry.get("sha256") != hashlib.sha256(text.encode()).hexdigest():
                return None
            config = entry["config"]
            return config if isinstance(config, dict) else None
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            return None

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            st = self._path.stat()
        except OSError:
            return None
        return (st.st_mtime_ns, st.st_size, st.st_ino)

    def _parse(self) -> GnoConfig:
        import hashlib

        import pydantic

        from gno_core.config import GnoConfig

        text = self._text()
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        cached = self._cached(digest)
        if cached is not None:
            return cached
        data = self._read(text)
        if data is None:
            return GnoConfig()
        try:
            config = GnoConfig.model_validate(_plain(data))
        except pydantic.ValidationError as exc:
            problems = validation_problems(exc.errors(), unnamed="")
            raise ValidationError(f"Invalid configuration in {self._path}: {problems}") from exc
        self._store_cached(digest, config)
        return config

    def _cached(self, digest: str) -> GnoConfig | None:
        cache_file = self._cache_file
        if cache_file is None:
            return None
        try:
            entry = json.loads(cache_file.read_bytes())
            if entry.get("format") != CACHE_FORMAT or entry.get("gno") != __version__:
                return None
            if entry.get("sha256") != digest:
                return None
            from gno_core.config import GnoConfig

            return construct(GnoConfig, entry["config"])
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            # A missing, foreign or damaged entry only costs a parse.
            return None

    def _store_cached(self, digest: str, config: GnoConfig) -> None:
        cache_file = self._cache_file
        if cache_file is None:
            return
        entry = {
            "format": CACHE_FORMAT,
            "gno": __version__,
            "sha256": digest,
            "config": config.model_dump(mode="json"),
        }
        # A read-only cache directory only means that every process parses, as without a cache.
        with contextlib.suppress(OSError):
            atomic_write(cache_file, json.dumps(entry).encode("utf-8"))

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
        self._plain = None


def construct(model: type[M], data: Any) -> M:
    """Rebuild ``model`` from its ``model_dump(mode="json")`` without validating: nested models,
    lists and tuples get their declared types back, so the result equals the validated one."""
    values = {
        name: _value(field.annotation, data[name])
        for name, field in model.model_fields.items()
        if name in data
    }
    return model.model_construct(**values)


def _value(annotation: Any, value: Any) -> Any:
    import pydantic

    if value is None:
        return None
    if isinstance(annotation, type) and issubclass(annotation, pydantic.BaseModel):
        return construct(annotation, value)
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is list:
        return [_value(args[0], v) for v in value]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_value(args[0], v) for v in value)
        return tuple(_value(a, v) for a, v in zip(args, value, strict=True))
    if origin is dict:
        return {k: _value(args[1], v) for k, v in value.items()}
    if origin in (typing.Union, types.UnionType):
        options = [a for a in args if a is not type(None)]
        return _value(options[0], value) if len(options) == 1 else value
    if annotation is float and isinstance(value, int):
        return float(value)
    return value


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
