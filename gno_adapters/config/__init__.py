"""Configuration adapters: directory layout (XDG + GNO_* overrides) and the YAML config file."""

from gno_adapters.config.dirs import GnoPaths, resolve_paths
from gno_adapters.config.yaml_repo import YamlConfigRepository

__all__ = ["GnoPaths", "YamlConfigRepository", "resolve_paths"]
