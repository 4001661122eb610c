"""The installed ``gno daemon`` beyond the loopback defaults: non-loopback binding only with a
token file, a Host and an Origin (``serve``, which carries the REST app status, never); the
bearer token, its rotation and sessions bound to the identity that opened them; the write gate,
which a bearer alone never opens. Every server listens on a free port and is reached on
127.0.0.1 only."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from pkg_support import (
    CAPTURE,
    assert_refusal,
    detached,
    gno,
    legacy_session,
    rpc_result,
    session_call,
    validate_contract,
    write_token,
)


def test_serve_is_loopback_only_and_daemon_needs_every_control(
    gno_env: dict[str, str], tmp_path: Path
) -> None:
    for host in ("0.0.0.0", "::", "192.0.2.1"):
        refused = gno(gno_env, "serve", "--host", host, "--port", "0")
        assert refused.returncode == 1 and "loopback only" in refused.stderr, refused.stderr
    token = write_token(tmp_path / "token", "t" * 48)
    partial: list[tuple[list[str], str]] = [
        ([], "bearer token file"),
        (["--mcp-token-file", str(token)], "Host"),
        (["--mcp-token-file", str(token), "--mcp-allowed-host", "gno.test"], "Origin"),
    ]
    for flags, problem in partial:
        refused = gno(gno_env, "daemon", "--host", "0.0.0.0", "--port", "0", *flags)
        assert refused.returncode == 1 and problem in refused.stderr, (flags, refused.stderr)
    assert not (Path(gno_env["GNO_DATA_DIR"]) / "serve.pid").exists()


def test_the_daemon_listens_beyond_loopback_only_with_every_control(
    gno_env: dict[str, str], tmp_path: Path
) -> None:
    """Bound to the wildcard address with a token, a Host and an Origin; the test talks to it
    on 127.0.0.1 only, naming the configured Host."""
    token = write_token(tmp_path / "token", "w" * 48)
    flags = [
        "--host",
        "0.0.0.0",
        "--mcp-token-file",
        str(token),
        "--mcp-allowed-host",
        "gno.test",
        "--mcp-allowed-origin",
        "https://gno.test",
    ]
    bearer = {"Authorization": "Bearer " + "w" * 48}
    with detached(gno_env, "daemon", *flags) as status:
        with httpx.Client(base_url=status["base"], timeout=10) as http:
            named = {"Host": "gno.test", **bearer}
            assert http.get("/api/health", headers=named).status_code == 200
            assert_refusal(
                http.get("/api/health", headers={"Host": "gno.test"}), 401, "bearer_required"
            )
            local = {"Host": f"127.0.0.1:{status['port']}", **bearer}
            assert_refusal(http.get("/api/health", headers=local), 403, "host_not_allowed")
            good = {**named, "Origin": "https://gno.test"}
            assert http.get("/api/health", headers=good).status_code == 200
            bad = {**named, "Origin": "https://evil.example.com"}
            assert_refusal(http.get("/api/health", headers=bad), 403, "origin_not_allowed")
            # Headless: no REST API, no app status, beyond loopback or not.
            assert http.get("/api/status", headers=named).status_code == 404
            resident = http.get("/api/resident/status", headers=named).json()
            validate_contract("resident-status", resident)
            assert resident["mode"] == "daemon" and resident["transport"]["authenticated"]
        report = json.loads(gno(gno_env, "daemon", "--status", "--json").stdout)
        validate_contract("process-status", report)
        assert report["resident"]["transport"]["authenticated"] is True


def test_bearer_rotation_identity_and_the_write_gate_on_the_daemon(
    gno_env: dict[str, str], tmp_path: Path
) -> None:
    old_value, new_value = "a" * 40, "c" * 48
    token = write_token(tmp_path / "keys" / "gno.token", old_value)
    old = {"Authorization": f"Bearer {old_value}"}
    new = {"Authorization": f"Bearer {new_value}"}
    log = tmp_path / "daemon.log"
    flags = ["--mcp-token-file", str(token), "--mcp-enable-write", "--log-file", str(log)]
    with (
        detached(gno_env, "daemon", *flags) as status,
        httpx.Client(base_url=status["base"], timeout=30) as http,
    ):
        assert_refusal(http.get("/api/health"), 401, "bearer_required")
        for wrong in ("Bearer " + "b" * 40, "Basic " + old_value, "Bearer"):
            response = http.get("/api/health", headers={"Authorization": wrong})
            assert_refusal(response, 401, "bearer_invalid")
        sid = legacy_session(http, **old)
        assert rpc_result(session_call(http, sid, "tools/list", **old))["tools"]
        # The write gate is open here: the call reaches the tool (which finds no collection).
        reached = rpc_result(session_call(http, sid, "tools/call", CAPTURE, **old))
        assert reached["isError"] is True and "no-such-collection" in json.dumps(reached)

        write_token(token, new_value)
        assert_refusal(session_call(http, sid, "tools/list", **old), 401, "bearer_invalid")
        # The session belongs to the identity that opened it: the new token cannot take it over.
        assert session_call(http, sid, "tools/list", **new).status_code == 404
        fresh = legacy_session(http, **new)
        assert rpc_result(session_call(http, fresh, "tools/list", **new))["tools"]
        report = json.loads(gno(gno_env, "daemon", "--status", "--json").stdout)
        assert report["resident"]["transport"]["writeEnabled"] is True
        for text in (json.dumps(report), log.read_text()):
            assert old_value not in text and new_value not in text


def test_a_bearer_alone_does_not_open_the_write_gate(
    gno_env: dict[str, str], tmp_path: Path
) -> None:
    token = write_token(tmp_path / "token", "d" * 40)
    auth = {"Authorization": "Bearer " + "d" * 40}
    with (
        detached(gno_env, "daemon", "--mcp-token-file", str(token)) as status,
        httpx.Client(base_url=status["base"], timeout=30) as http,
    ):
        sid = legacy_session(http, **auth)
        assert_refusal(
            session_call(http, sid, "tools/call", CAPTURE, **auth), 403, "write_disabled"
        )
