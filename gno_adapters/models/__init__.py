"""Model files on this machine: bundled in packages, pulled into the cache, or at a user's path."""

from __future__ import annotations

from gno_adapters.models.download import download, file_sha256
from gno_adapters.models.manifest import Manifest, ManifestFile, read_manifest
from gno_adapters.models.store import ModelStore, PullProgress, default_client

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
