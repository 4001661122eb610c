"""Model files on this machine: bundled in packages, pulled into the cache, or at a user's path.

The manifest code loads on first use (a pull, or a pulled model's status), not when a bundled
model is resolved.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gno_adapters.model_files.cache import ModelStore, PullProgress, default_client
from gno_adapters.model_files.download import download, file_sha256

if TYPE_CHECKING:
    from gno_adapters.model_files.manifest import Manifest, ManifestFile, read_manifest

__all__ = [
    "Manifest",
    "ManifestFile",
    "ModelStore",
    "PullProgress",
    "default_client",
    "download",
    "file_sha256",
    "read_manifest",
]


def __getattr__(name: str) -> Any:
    if name in ("Manifest", "ManifestFile", "read_manifest"):
        return getattr(importlib.import_module(f"{__name__}.manifest"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
