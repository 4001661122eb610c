"""``decode_frame``: every hostile frame becomes a typed JSON-RPC error, never an exception."""

from __future__ import annotations

import json

import pytest

from gno_adapters.mcp.frames import FrameError, decode_frame

PING = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'


def error_of(data: bytes, **limits: int) -> tuple[int, object]:
    with pytest.raises(FrameError) as caught:
        decode_frame(data, **limits)
    return caught.value.error.code, caught.value.request_id


def test_a_plain_frame_decodes() -> None:
    assert decode_frame(PING) == {"jsonrpc": "2.0", "id": 1, "method": "ping"}


def test_escaped_surrogate_pairs_are_text() -> None:
    assert decode_frame(b'{"q":"\\ud83d\\ude00"}') == {"q": "\U0001f600"}


@pytest.mark.parametrize(
    "data",
    [
        b"{not json",
        b'"unterminated',
        b"\xff\xfe{}",
        b'{"q":"\xed\xa0\x80"}',  # a surrogate encoded as UTF-8 bytes, which UTF-8 forbids
        b"[" * 1000 + b"]" * 1000,  # used to end the stdio server with RecursionError
        b"[" * 100_000,
        b'{"a":' * 65 + b"1" + b"}" * 65,
    ],
)
def test_bad_bytes_and_deep_nesting_are_parse_errors(data: bytes) -> None:
    assert error_of(data) == (-32700, None)


def test_nesting_is_counted_outside_strings_only() -> None:
    quoted = json.dumps({"q": "[" * 500 + "{" * 500}).encode()
    assert decode_frame(quoted)["q"].startswith("[[[")
    assert decode_frame(b"[" * 64 + b"]" * 64) is not None
    assert error_of(b"[" * 65 + b"]" * 65) == (-32700, None)


def test_the_frame_size_is_bounded() -> None:
    big = json.dumps({"q": "x" * 2000}).encode()
    assert error_of(big, max_bytes=1000) == (-32700, None)


def test_a_lone_surrogate_in_the_id_is_an_invalid_request_with_a_null_id() -> None:
    assert error_of(b'{"jsonrpc":"2.0","id":"\\ud800","method":"ping"}') == (-32600, None)
    assert error_of(b'{"jsonrpc":"2.0","id":1,"method":"pi\\udc00ng"}') == (-32600, None)


def test_a_lone_surrogate_in_params_is_invalid_params_with_the_request_id() -> None:
    frame = (
        b'{"jsonrpc":"2.0","id":"a","method":"tools/call",'
        b'"params":{"name":"gno_search","arguments":{"query":"note \\ud800"}}}'
    )
    assert error_of(frame) == (-32602, "a")
    in_key = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"\\udfff":1}}'
    assert error_of(in_key) == (-32602, 7)


def test_surrogates_in_a_batch_or_a_notification_are_invalid_requests() -> None:
    assert error_of(b'[{"jsonrpc":"2.0","id":1,"params":{"q":"\\ud800"}}]') == (-32600, None)
    note = b'{"jsonrpc":"2.0","method":"notifications/x","params":{"q":"\\ud800"}}'
    assert error_of(note) == (-32600, None)
