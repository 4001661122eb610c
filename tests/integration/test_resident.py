"""The resident gateway end to end, through the real CLI in subprocesses, over a real index of
``foam-docs``: ``gno daemon --detach / --status / --stop``, one owner per data directory, the
REST API returning the CLI's ``--json`` contracts, and two HTTP clients plus one stdio client
seeing the same tools, resources and search results."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client, StdioServerParameters

from tests.http_support import validate_contract

REPO = Path(__file__).resolve().parents[2]
GNO = [sys.executable, "-m", "gno_cli.main"]


def gno(env: dict[str, str], *argv: str, timeout: float = 90) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*GNO, *argv],
        check=False,
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture(scope="module")
def foam_env(
    shared_data: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, str]]:
    home = tmp_path_factory.mktemp("gno-resident")
    env = {
        **os.environ,
        "GNO_CONFIG_DIR": str(home / "config"),
        "GNO_DATA_DIR": str(home / "data"),
        "GNO_CACHE_DIR": str(home / "cache"),
    }
    env.pop("GNO_MCP_ENABLE_WRITE", None)
    for argv in (
        ["collection", "add", str(shared_data / "foam-docs"), "--name", "foam"],
        ["update"],
    ):
        assert gno(env, *argv).returncode == 0
    yield env
    kill_leftover(Path(env["GNO_DATA_DIR"]) / "serve.pid")


def kill_leftover(pid_file: Path) -> None:
    try:
        pid = json.loads(pid_file.read_text())["pid"]
        os.kill(pid, signal.SIGKILL)
    except (OSError, ValueError, KeyError):
        pass


@pytest.fixture
def serving(foam_env: dict[str, str]) -> Iterator[dict[str, Any]]:
    """``gno serve --detach`` on a free port for one test; stopped afterwards."""
    started = gno(foam_env, "serve", "--port", "0", "--detach", "--json")
    assert started.returncode == 0, started.stderr
    status = json.loads(started.stdout)
    validate_contract("process-status", status)
    try:
        yield {"port": status["port"], "base": f"http://127.0.0.1:{status['port']}"}
    finally:
        stopped = gno(foam_env, "serve", "--stop")
        assert stopped.returncode == 0, stopped.stderr + stopped.stdout


def test_daemon_detach_status_and_stop(foam_env: dict[str, str]) -> None:
    data = Path(foam_env["GNO_DATA_DIR"])
    started = gno(foam_env, "daemon", "--port", "0", "--detach")
    assert started.returncode == 0, started.stderr
    assert "running in the background" in started.stdout
    try:
        status = gno(foam_env, "daemon", "--status", "--json")
        assert status.returncode == 0, status.stderr
        report = json.loads(status.stdout)
        validate_contract("process-status", report)
        assert report["running"] and report["cmd"] == "daemon"
        assert report["pid_file"] == str(data / "serve.pid")
        assert report["log_file"] == str(data / "daemon.log")
        resident = report["resident"]
        validate_contract("resident-status", resident)
        assert resident["mode"] == "daemon" and resident["listenerPort"] == report["port"]
        assert resident["admission"]["state"] == "accepting"
        human = gno(foam_env, "daemon", "--status")
        assert f"pid {report['pid']}" in human.stdout and "admission: accepting" in human.stdout

        peek = json.loads(gno(foam_env, "peek", "--json").stdout)
        assert peek["serve"] == {"running": True, "url": f"http://localhost:{report['port']}"}

        second = gno(foam_env, "serve", "--port", "0")
        assert second.returncode == 1
        assert "already owns the data directory" in second.stderr
        assert "gno daemon --stop" in second.stderr
        again = gno(foam_env, "daemon", "--port", "0", "--detach")
        assert again.returncode == 1 and "already running" in again.stderr
        wrong = gno(foam_env, "serve", "--stop")
        assert wrong.returncode == 1 and "gno daemon --stop" in wrong.stderr

        base = f"http://127.0.0.1:{report['port']}"
        assert httpx.get(base + "/api/health").json() == {"ok": True}
        assert httpx.get(base + "/api/status").status_code == 404  # headless: no REST API
    finally:
        stopped = gno(foam_env, "daemon", "--stop")
    assert stopped.returncode == 0 and f"Stopped gno daemon (pid {report['pid']})" in stopped.stdout
    assert not (data / "serve.pid").exists()
    after = gno(foam_env, "daemon", "--status", "--json")
    assert after.returncode == 3 and json.loads(after.stdout)["running"] is False
    assert gno(foam_env, "daemon", "--stop").returncode == 3


def test_gno_daemon_console_script_entry(foam_env: dict[str, str]) -> None:
    code = "import sys; from gno_cli.main import daemon_main; sys.exit(daemon_main())"
    result = subprocess.run(
        [sys.executable, "-c", code, "--status"],
        check=False,
        env=foam_env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 3 and "gno daemon is not running" in result.stdout


def test_startup_rules_fail_before_listening(foam_env: dict[str, str], tmp_path: Path) -> None:
    serve = gno(foam_env, "serve", "--host", "0.0.0.0", "--port", "0")
    assert serve.returncode == 1 and "loopback only" in serve.stderr
    profile = gno(foam_env, "daemon", "--mcp-tool-profile", "huge", "--port", "0")
    assert profile.returncode == 1 and "tool profile" in profile.stderr
    bare = gno(foam_env, "daemon", "--host", "0.0.0.0", "--port", "0")
    assert bare.returncode == 1 and "bearer token file" in bare.stderr
    token = tmp_path / "token"
    token.write_text("z" * 40)
    token.chmod(0o644)
    loose = gno(foam_env, "daemon", "--port", "0", "--mcp-token-file", str(token))
    assert loose.returncode == 1 and "0600" in loose.stderr and "z" * 40 not in loose.stderr


def test_a_generated_token_is_never_printed(foam_env: dict[str, str], tmp_path: Path) -> None:
    token_path = tmp_path / "keys" / "gno.token"
    log = tmp_path / "daemon.log"
    started = gno(
        foam_env,
        "daemon",
        "--port",
        "0",
        "--detach",
        "--json",
        "--mcp-token-file",
        str(token_path),
        "--log-file",
        str(log),
    )
    assert started.returncode == 0, started.stderr
    try:
        token = token_path.read_text().strip()
        assert token_path.stat().st_mode & 0o777 == 0o600 and len(token) == 64
        port = json.loads(started.stdout)["port"]
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 401
        authorized = {"Authorization": f"Bearer {token}"}
        assert (
            httpx.get(f"http://127.0.0.1:{port}/api/health", headers=authorized).status_code == 200
        )
        status = gno(foam_env, "daemon", "--status", "--json")
        assert json.loads(status.stdout)["resident"]["transport"]["authenticated"] is True
        for text in (started.stdout, started.stderr, status.stdout, log.read_text()):
            assert token not in text
    finally:
        assert gno(foam_env, "daemon", "--stop").returncode == 0


def cli_json(env: dict[str, str], *argv: str) -> Any:
    result = gno(env, *argv, "--json")
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_rest_answers_with_the_cli_contracts(
    foam_env: dict[str, str], serving: dict[str, Any]
) -> None:
    base = serving["base"]
    with httpx.Client(base_url=base, timeout=30) as http:
        assert http.get("/api/health").json() == {"ok": True}

        status = http.get("/api/status").json()
        validate_contract("status", status)
        expected = cli_json(foam_env, "status")
        assert status["resident"]["mode"] == "serve" and status["resident"]["resident"]
        assert {**status, "resident": None} == {**expected, "resident": None}

        found = http.post("/api/search", json={"query": "wikilinks", "limit": 3})
        validate_contract("search-results", found.json())
        assert found.json() == cli_json(foam_env, "search", "wikilinks", "-n", "3")

        hybrid = http.post("/api/query", json={"query": "wikilinks", "limit": 3})
        validate_contract("search-results", hybrid.json())
        assert hybrid.json() == cli_json(foam_env, "query", "wikilinks", "-n", "3")

        uri = found.json()["results"][0]["uri"]
        doc = http.get("/api/doc", params={"ref": uri, "fromLine": 1, "lineCount": 5})
        validate_contract("get", doc.json())
        assert doc.json() == cli_json(foam_env, "get", uri, "--from", "1", "-l", "5")

        bad = http.post("/api/search", json={"query": ""})
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "VALIDATION"
        validate_contract("error", bad.json())
        missing = http.get("/api/doc", params={"ref": "gno://foam/nope.md"})
        assert missing.status_code == 404 and missing.json()["error"]["code"] == "NOT_FOUND"
        assert http.post("/api/search", content=b"[1]").status_code == 400
        evil = http.get("/api/status", headers={"Host": "evil.example.com"})
        assert (
            evil.status_code == 403 and evil.json()["error"]["data"]["reason"] == "host_not_allowed"
        )


def test_two_http_clients_and_one_stdio_client_see_the_same_index(
    foam_env: dict[str, str], serving: dict[str, Any]
) -> None:
    url = serving["base"] + "/mcp"
    stdio = StdioServerParameters(
        command=GNO[0], args=[*GNO[1:], "mcp"], env=foam_env, cwd=str(REPO)
    )

    async def observe(target: Any, mode: str) -> dict[str, Any]:
        async with Client(target, mode=mode, cache=None) as client:  # type: ignore[arg-type]
            tools = [t.model_dump(exclude_none=True) for t in (await client.list_tools()).tools]
            resources = [str(r.uri) for r in (await client.list_resources()).resources]
            templates = (await client.list_resource_templates()).resource_templates
            results = []
            for query in ("wikilinks", "daily notes", "graph visualization"):
                found = await client.call_tool("gno_search", {"query": query, "limit": 5})
                assert not found.is_error
                results.append(found.structured_content)
            uri = results[0]["results"][0]["uri"]  # type: ignore[index]
            doc = await client.read_resource(uri)
            return {
                "tools": tools,
                "resources": resources,
                "templates": [t.uri_template for t in templates],
                "results": results,
                "doc": doc.contents[0].text,  # type: ignore[union-attr]
            }

    async def main() -> list[dict[str, Any]]:
        return list(
            await asyncio.gather(
                observe(url, "legacy"), observe(url, "2026-07-28"), observe(stdio, "auto")
            )
        )

    first, second, third = asyncio.run(main())
    assert first == second == third
    assert first["results"][0]["results"], "the search found nothing"
    for result in first["results"]:
        validate_contract("search-results", result)


def test_sigterm_stops_a_foreground_server_cleanly(foam_env: dict[str, str]) -> None:
    data = Path(foam_env["GNO_DATA_DIR"])
    proc = subprocess.Popen(
        [*GNO, "serve", "--port", "0"],
        env=foam_env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (data / "serve.pid").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        port = json.loads((data / "serve.pid").read_text())["port"]
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").status_code == 200
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode == 0, err
    assert "listening on http://127.0.0.1:" in err
    assert not (data / "serve.pid").exists()
