"""The manifest of a pulled model: which files it has, their checksums and where they came from.

Stored as ``<cache>/models/<role>/<name>/manifest.json`` and written last (write-then-rename), so
a model directory with a manifest is a complete one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, NamedTuple

from gno_adapters.fsutil import atomic_write

MANIFEST_NAME = "manifest.json"
_SCHEMA = 1


class ManifestFile(NamedTuple):
    path: str
    sha256: str
    size: int
    url: str | None = None


class Manifest(NamedTuple):
    role: str
    name: str
    model_id: str
    source: str
    pulled_at: str
    files: tuple[ManifestFile, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": _SCHEMA,
            "role": self.role,
            "name": self.name,
            "modelId": self.model_id,
            "source": self.source,
            "pulledAt": self.pulled_at,
            "files": [
                {"path": f.path, "sha256": f.sha256, "size": f.size, "url": f.url}
                for f in self.files
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Manifest:
        return cls(
            role=str(data["role"]),
            name=str(data["name"]),
            model_id=str(data["modelId"]),
            source=str(data.get("source", "")),
            pulled_at=str(data.get("pulledAt", "")),
            files=tuple(
                ManifestFile(str(f["path"]), str(f["sha256"]), int(f["size"]), f.get("url"))
                for f in data.get("files", [])
            ),
        )

    def file(self, path: str) -> ManifestFile | None:
        return next((f for f in self.files if f.path == path), None)


def read_manifest(model_dir: Path) -> Manifest | None:
    """The manifest in ``model_dir``, or None when absent or unreadable (an incomplete pull)."""
    try:
        data = json.loads((model_dir / MANIFEST_NAME).read_text(encoding="utf-8"))
        return Manifest.from_json(data)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def write_manifest(model_dir: Path, manifest: Manifest) -> None:
    """Write ``manifest`` atomically into ``model_dir``."""
    atomic_write(model_dir / MANIFEST_NAME, json.dumps(manifest.to_json(), indent=2).encode())
