"""What Ask drafts and verifies with, chosen from the config (``generation``) and the
environment: the user's OpenAI-compatible endpoint does both when one is configured; else the
built-in extractive generator drafts and the pulled NLI model (if any) verifies. Only settings
and files are looked at here; nothing is contacted or loaded."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from gno_core.errors import GnoError, ValidationError

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from gno_adapters.onnx.nli import OnnxNliVerifier
    from gno_core.config import GenerationConfig
    from gno_core.model_registry import ModelLocation
    from gno_core.ports import (
        ClaimVerdict,
        ClaimVerifier,
        ConfigRepository,
        Generator,
        VerificationRequest,
    )

#: ``GNO_ASK_VERIFIER`` overrides ``generation.verifier``.
VERIFIER_ENV = "GNO_ASK_VERIFIER"
#: ``GNO_NLI_MODEL``: a registry name or a model directory (default: the registry's NLI model
#: once pulled); ``none`` turns it off. ``GNO_NLI_THRESHOLD``: the entailment probability a
#: claim needs (default 0.6).
NLI_ENV = "GNO_NLI_MODEL"
NLI_THRESHOLD_ENV = "GNO_NLI_THRESHOLD"
OFF = frozenset({"none", "off", "0", "false"})


class LazyNliVerifier:
    """A ``ClaimVerifier`` that knows its identity from the resolved model files and builds
    the ``OnnxNliVerifier`` (onnxruntime, numpy) on the first ``verify``."""

    def __init__(self, location: ModelLocation, threshold: float) -> None:
        self._location = location
        self._threshold = threshold
        self._real: OnnxNliVerifier | None = None
        self._lock = threading.Lock()

    @property
    def verifier_id(self) -> str:
        return f"nli:{self._location.model_id}@{self._threshold:g}"

    def verify(self, request: VerificationRequest) -> list[ClaimVerdict]:
        with self._lock:
            if self._real is None:
                from gno_adapters.onnx.nli import OnnxNliVerifier

                self._real = OnnxNliVerifier(self._location, threshold=self._threshold)
        return self._real.verify(request)


def nli_verifier(models_dir: Path, env: Mapping[str, str]) -> LazyNliVerifier | None:
    """The NLI verifier when its model is on disk (pulled, or a directory ``GNO_NLI_MODEL``
    names), else None. Looks at files only."""
    from gno_adapters.model_files.cache import ModelStore
    from gno_core.model_registry import ModelRole

    ref = env.get(NLI_ENV, "").strip() or None
    if ref is not None and ref.lower() in OFF:
        return None
    raw = env.get(NLI_THRESHOLD_ENV, "").strip()
    try:
        threshold = float(raw) if raw else 0.6
    except ValueError:
        threshold = -1.0
    if not 0.0 <= threshold <= 1.0:
        raise ValidationError(
            f"{NLI_THRESHOLD_ENV} must be a number in [0, 1], not {raw!r}",
            details={"field": NLI_THRESHOLD_ENV},
        )
    try:
        location = ModelStore(models_dir).resolve(ModelRole.NLI, ref)
    except GnoError:
        return None
    return LazyNliVerifier(location, threshold)


def generation_settings(config: ConfigRepository) -> GenerationConfig:
    from gno_core.config import GenerationConfig

    return config.load().generation if config.exists() else GenerationConfig()


def configured_endpoint(
    settings: GenerationConfig, env: Mapping[str, str]
) -> tuple[str, str, str | None] | None:
    """(endpoint, model, API key) of the configured chat endpoint, or None."""
    endpoint = env.get("GNO_ASK_ENDPOINT") or settings.endpoint
    if not endpoint:
        return None
    key_env = env.get("GNO_ASK_API_KEY_ENV") or settings.api_key_env
    model = env.get("GNO_ASK_MODEL") or settings.model
    return endpoint, model, env.get(key_env) if key_env else None


def choose_generator(config: ConfigRepository, env: Mapping[str, str]) -> Generator:
    """The configured endpoint, else the built-in extractive generator."""
    settings = generation_settings(config)
    chosen = configured_endpoint(settings, env)
    if chosen is None:
        from gno_adapters.generation.extractive import ExtractiveGenerator

        return ExtractiveGenerator()
    from gno_adapters.generation.openai_chat import OpenAiChatGenerator

    endpoint, model, key = chosen
    return OpenAiChatGenerator(
        endpoint, model, api_key=key, timeout_seconds=settings.timeout_seconds
    )


def choose_verifier(
    config: ConfigRepository, env: Mapping[str, str], models_dir: Path
) -> ClaimVerifier | None:
    """Ask's semantic verifier (``generation.verifier`` or ``GNO_ASK_VERIFIER``: ``auto``,
    ``endpoint``, ``nli``, ``none``): with ``auto`` the configured endpoint (the one that
    generates), else the pulled NLI model, else None."""
    settings = generation_settings(config)
    choice = (env.get(VERIFIER_ENV) or settings.verifier).strip().lower()
    if choice in ("none", "off"):
        return None
    chosen = configured_endpoint(settings, env)
    if chosen is not None and choice in ("auto", "endpoint"):
        from gno_adapters.generation.openai_verifier import OpenAiChatVerifier

        endpoint, model, key = chosen
        return OpenAiChatVerifier(
            endpoint, model, api_key=key, timeout_seconds=settings.timeout_seconds
        )
    if choice in ("auto", "nli"):
        return nli_verifier(models_dir, env)
    return None
