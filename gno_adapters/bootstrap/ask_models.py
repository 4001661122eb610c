"""What Ask drafts and verifies with, chosen from the config (``generation``) and the
environment: the user's OpenAI-compatible endpoint does both when one is configured; else the
built-in extractive generator drafts and the pulled NLI model (if any) verifies. Only settings
and files are looked at here; nothing is contacted or loaded."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from gno_core.config import GenerationConfig
    from gno_core.ports import ClaimVerifier, ConfigRepository, Generator

#: ``GNO_ASK_VERIFIER`` overrides ``generation.verifier``.
VERIFIER_ENV = "GNO_ASK_VERIFIER"


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
    return None
