"""A fake OpenAI-compatible chat endpoint on a free 127.0.0.1 port, stopped by the test that
starts it. It answers generation requests with ``reply(user_prompt)`` and claim verification
requests (those asking for ``response_format``) with ``verdicts(claims)``, the verdicts the test
scripts; ``None`` from either is an HTTP 500, ``delay`` seconds are slept before answering, and
``raw`` replaces the verification answer's content verbatim (a malformed answer)."""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

#: One claim line of the verifier prompt: ``3. text (cites E1, E2)``.
CLAIM_LINE = re.compile(r"^(\d+)\. (.*) \(cites ([^)]*)\)$")

Scripted = dict[str, Any]


def claims_in(prompt: str) -> list[tuple[int, str, list[str]]]:
    """(index, text, cited labels) of every claim in a verification prompt."""
    out = []
    for line in prompt.splitlines():
        m = CLAIM_LINE.match(line)
        if m:
            labels = [x.strip() for x in m.group(3).split(",") if x.strip() != "none"]
            out.append((int(m.group(1)), m.group(2), labels))
    return out


def verdict_json(rows: list[Scripted]) -> str:
    return json.dumps({"protocol": "gno-claim-verifier-v1", "verdicts": rows})


def all_supported(claims: list[tuple[int, str, list[str]]]) -> str | None:
    return verdict_json(
        [
            {"claim": i, "verdict": "supported", "evidence": cited, "reason": "stated"}
            for i, _, cited in claims
        ]
    )


class FakeChat:
    def __init__(self) -> None:
        self.reply: Callable[[str], str | None] = lambda prompt: "nothing"
        self.verdicts: Callable[[list[tuple[int, str, list[str]]]], str | None] = all_supported
        self.delay = 0.0
        self.raw: bytes | None = None
        self.requests: list[dict[str, Any]] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                fake.requests.append({"path": self.path, "body": body})
                if fake.delay:
                    time.sleep(fake.delay)
                prompt = body["messages"][1]["content"]
                verifying = "response_format" in body
                if verifying and fake.raw is not None:
                    self._send(200, fake.raw)
                    return
                text = fake.verdicts(claims_in(prompt)) if verifying else fake.reply(prompt)
                if text is None:
                    self._send(500, b"{}")
                    return
                payload = {"choices": [{"message": {"role": "assistant", "content": text}}]}
                self._send(200, json.dumps(payload).encode())

            def _send(self, status: int, payload: bytes) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except OSError:  # the client gave up (a time-out test)
                    pass

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def verification_requests(self) -> list[dict[str, Any]]:
        return [r for r in self.requests if "response_format" in r["body"]]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()
