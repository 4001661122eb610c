"""The converter process: reads framed requests on stdin, converts, answers on stdout.

Started by ``SandboxedConverters`` with its address-space limit as the first argument; the
limit is set before any converter library is imported, so a hostile file that makes PDFium or
lxml allocate without end fails here (MemoryError, or the process dies) and never in the index
process. The parent bounds the time of each request and kills this process when it is over.
"""

from __future__ import annotations

import json
import struct
import sys
from typing import Any, BinaryIO

_LEN = struct.Struct(">I")


def read_frame(stream: BinaryIO) -> bytes | None:
    head = stream.read(_LEN.size)
    if len(head) < _LEN.size:
        return None
    (size,) = _LEN.unpack(head)
    body = stream.read(size)
    return body if len(body) == size else None


def write_frame(stream: BinaryIO, body: bytes) -> None:
    stream.write(_LEN.pack(len(body)) + body)
    stream.flush()


def _limit_memory(limit: int) -> None:
    try:
        import resource
    except ImportError:  # not POSIX: the parent's time limit still holds
        return
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def main() -> int:
    _limit_memory(int(sys.argv[1]))
    from gno_adapters.converters.common import ConversionFailure
    from gno_adapters.converters.registry import run
    from gno_core.ports.converters import ConvertLimits

    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    while True:
        header = read_frame(stdin)
        data = read_frame(stdin)
        if header is None or data is None:
            return 0
        request = json.loads(header)
        reply: dict[str, Any]
        try:
            converted = run(data, request["ext"], ConvertLimits(**request["limits"]))
            reply = {
                "ok": True,
                "markdown": converted.markdown,
                "title": converted.title,
                "warnings": list(converted.warnings),
                "converter": converted.converter_id,
                "version": converted.converter_version,
            }
        except ConversionFailure as exc:
            reply = {"ok": False, "reason": exc.reason, "message": exc.message}
        except MemoryError:
            reply = {"ok": False, "reason": "CONVERSION_MEMORY", "message": "Out of memory"}
        del data
        write_frame(stdout, json.dumps(reply, ensure_ascii=False).encode("utf-8"))


if __name__ == "__main__":
    sys.exit(main())
