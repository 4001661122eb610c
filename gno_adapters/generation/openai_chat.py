"""A ``Generator`` over any OpenAI-compatible chat endpoint (llama.cpp server, Ollama, vLLM,
hosted APIs): one ``POST {base}/chat/completions`` with the core's prompt, temperature 0.

The endpoint is the user's choice (``generation.endpoint`` in the config or ``GNO_ASK_ENDPOINT``);
gno never picks a remote service by itself. Failures are typed: nothing listening is
``MODEL_UNAVAILABLE``, an HTTP error or a malformed answer is ``RUNTIME``.
"""

from __future__ import annotations

from typing import Any

import httpx

from gno_core.errors import ModelUnavailableError, RuntimeFailure
from gno_core.ports import GenerationRequest

MAX_RESPONSE_BYTES = 1024 * 1024


class OpenAiChatGenerator:
    def __init__(
        self,
        endpoint: str,
        model: str,
        *,
        api_key: str | None = None,
        timeout_seconds: float = 60.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        self._url = endpoint.rstrip("/") + "/chat/completions"
        self._model = model
        self._headers = {"Content-Type": "application/json"}
        if api_key:
            self._headers["Authorization"] = f"Bearer {api_key}"
        self._timeout = timeout_seconds
        self._transport = transport

    @property
    def model_id(self) -> str:
        return f"openai-compatible:{self._model}"

    def generate(self, request: GenerationRequest) -> str:
        body = {
            "model": self._model,
            "temperature": 0,
            "max_tokens": request.max_tokens,
            "messages": [
                {"role": "system", "content": request.system_prompt},
                {"role": "user", "content": request.user_prompt},
            ],
        }
        try:
            with httpx.Client(timeout=self._timeout, transport=self._transport) as client:
                response = client.post(self._url, json=body, headers=self._headers)
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise ModelUnavailableError(
                f"No chat endpoint answers at {self._url}: {exc}", details={"url": self._url}
            ) from None
        except httpx.HTTPError as exc:
            raise RuntimeFailure(
                f"Chat endpoint failed: {exc}", details={"url": self._url}
            ) from None
        if response.status_code >= 400:
            raise RuntimeFailure(
                f"Chat endpoint answered HTTP {response.status_code}",
                details={"url": self._url, "status": response.status_code},
            )
        if len(response.content) > MAX_RESPONSE_BYTES:
            raise RuntimeFailure("Chat endpoint answer is larger than 1 MiB")
        return _content(response)


def _content(response: httpx.Response) -> str:
    try:
        data: Any = response.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError):
        raise RuntimeFailure("Chat endpoint answer is not an OpenAI chat completion") from None
    if not isinstance(content, str):
        raise RuntimeFailure("Chat endpoint answer has no text content")
    return content
