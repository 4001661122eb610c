"""A ``Generator`` over any OpenAI-compatible chat endpoint (llama.cpp server, Ollama, vLLM,
hosted APIs): one ``POST {base}/chat/completions`` with the core's prompt, temperature 0.

The endpoint is the user's choice (``generation.endpoint`` in the config or ``GNO_ASK_ENDPOINT``);
gno never picks a remote service by itself. Failures are typed (``chat_transport``): nothing
listening is ``MODEL_UNAVAILABLE``, a time-out, an HTTP error or a malformed answer ``RUNTIME``.
"""

from __future__ import annotations

from gno_adapters.generation.chat_transport import MAX_RESPONSE_BYTES, ChatClient
from gno_core.ports import GenerationRequest

__all__ = ["MAX_RESPONSE_BYTES", "OpenAiChatGenerator"]


class OpenAiChatGenerator(ChatClient):
    @property
    def model_id(self) -> str:
        return f"openai-compatible:{self._chat.model}"

    def generate(self, request: GenerationRequest) -> str:
        return self._chat.complete(
            {
                "model": self._chat.model,
                "temperature": 0,
                "max_tokens": request.max_tokens,
                "messages": [
                    {"role": "system", "content": request.system_prompt},
                    {"role": "user", "content": request.user_prompt},
                ],
            }
        )
