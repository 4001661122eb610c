"""Model files on this machine: bundled in packages, pulled into the cache, or at a user's path."""

from __future__ import annotations

from gno_adapters.model_files.cache import ModelStore, PullProgress, default_client
from gno_adapters.model_files.download import download, file_sha256
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
