"""Where gno keeps things: config, data (index databases) and cache (models), per platform."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import NamedTuple

from gno_core.identity import DEFAULT_INDEX, normalize_index_name


class GnoPaths(NamedTuple):
    config_dir: Path
    data_dir: Path
    cache_dir: Path
    index_name: str
    config_file: Path

    @property
    def db_path(self) -> Path:
        return self.db_path_for(self.index_name)

    def db_path_for(self, index_name: str) -> Path:
        return self.data_dir / f"index-{index_name}.sqlite"

    def config_file_for(self, index_name: str) -> Path:
        name = "index.yml" if index_name == DEFAULT_INDEX else f"index-{index_name}.yml"
        return self.config_dir / name

    @property
    def models_dir(self) -> Path:
        return self.cache_dir / "models"

    @property
    def pid_file(self) -> Path:
        return self.data_dir / "serve.pid"


def _base(env: Mapping[str, str], var: str, xdg: str, fallback: str, mac: str, win: str) -> Path:
    if env.get(var):
        return Path(env[var]).expanduser()
    home = Path(env.get("HOME") or Path.home())
    if sys.platform == "darwin":
        return home / mac
    if sys.platform == "win32":
        root = env.get("LOCALAPPDATA" if "Local" in win else "APPDATA") or str(home)
        return Path(root) / "gno" / win.rsplit("/", maxsplit=1)[-1]
    return Path(env.get(xdg) or home / fallback) / "gno"


def resolve_paths(
    index: str | None = None,
    config_path: str | None = None,
    env: Mapping[str, str] | None = None,
) -> GnoPaths:
    """Resolve the directories for ``index`` (default ``default``). ``GNO_CONFIG_DIR``,
    ``GNO_DATA_DIR`` and ``GNO_CACHE_DIR`` override the platform locations; ``config_path``
    overrides the config file."""
    env = os.environ if env is None else env
    index_name = normalize_index_name(index) if index else DEFAULT_INDEX
    config_dir = _base(
        env,
        "GNO_CONFIG_DIR",
        "XDG_CONFIG_HOME",
        ".config",
        "Library/Application Support/gno/config",
        "Roaming/config",
    )
    data_dir = _base(
        env,
        "GNO_DATA_DIR",
        "XDG_DATA_HOME",
        ".local/share",
        "Library/Application Support/gno/data",
        "Local/data",
    )
    cache_dir = _base(
        env, "GNO_CACHE_DIR", "XDG_CACHE_HOME", ".cache", "Library/Caches/gno", "Local/cache"
    )
    paths = GnoPaths(config_dir, data_dir, cache_dir, index_name, Path())
    config_file = (
        Path(config_path).expanduser().resolve()
        if config_path
        else paths.config_file_for(index_name)
    )
    return GnoPaths(config_dir, data_dir, cache_dir, index_name, config_file)
