"""The slice of the ONNX protobuf format gno needs, written and read without the ``onnx`` package.

gno builds one kind of graph (a fused BERT encoder) and reads the initializers and nodes of one
kind of file (an exported BERT encoder), so a few field numbers from ``onnx.proto`` and the
protobuf wire format (varints, fixed32, length-delimited fields) are all it takes. Leaving out
``onnx`` (and its ``ml_dtypes``) keeps about 33 MB out of every install.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

# TensorProto.DataType values.
FLOAT, UINT8, INT8, INT32, INT64 = 1, 2, 3, 6, 7
_NUMPY: dict[int, str] = {FLOAT: "<f4", UINT8: "u1", INT8: "i1", INT32: "<i4", INT64: "<i8"}
_DTYPE_CODE: dict[np.dtype[Any], int] = {np.dtype(v): k for k, v in _NUMPY.items()}
# AttributeProto.AttributeType values.
_ATTR_FLOAT, _ATTR_INT = 1, 2
_VARINT, _FIXED64, _BYTES, _FIXED32 = 0, 1, 2, 5


class OnnxFormatError(ValueError):
    """The file is not an ONNX model this reader understands."""


# --- writing -------------------------------------------------------------------------------


def _varint(value: int) -> bytes:
    if value < 0:  # int64 fields carry negatives as their 64-bit two's complement
        value += 1 << 64
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _key(number: int, wire: int) -> bytes:
    return _varint(number << 3 | wire)


def _int(number: int, value: int) -> bytes:
    return _key(number, _VARINT) + _varint(value)


def _bytes(number: int, value: bytes) -> bytes:
    return _key(number, _BYTES) + _varint(len(value)) + value


def _str(number: int, value: str) -> bytes:
    return _bytes(number, value.encode("utf-8"))


def tensor(name: str, array: npt.NDArray[Any]) -> bytes:
    """A serialized ``TensorProto`` holding ``array`` as raw little-endian bytes."""
    data = np.ascontiguousarray(array)
    code = _DTYPE_CODE.get(data.dtype)
    if code is None:
        raise ValueError(f"unsupported tensor dtype {data.dtype}")
    dims = b"".join(_int(1, d) for d in data.shape)
    return dims + _int(2, code) + _str(8, name) + _bytes(9, data.tobytes())


def _attribute(name: str, value: float | int | Sequence[int]) -> bytes:
    if isinstance(value, float):
        return _str(1, name) + _key(2, _FIXED32) + struct.pack("<f", value) + _int(20, _ATTR_FLOAT)
    if isinstance(value, int):
        return _str(1, name) + _int(3, value) + _int(20, _ATTR_INT)
    raise ValueError(f"unsupported attribute {name}={value!r}")


def node(
    op: str,
    inputs: Sequence[str],
    outputs: Sequence[str],
    *,
    name: str,
    domain: str = "",
    attributes: Mapping[str, float | int] | None = None,
) -> bytes:
    """A serialized ``NodeProto``."""
    out = b"".join(_str(1, i) for i in inputs) + b"".join(_str(2, o) for o in outputs)
    out += _str(3, name) + _str(4, op)
    for key, value in (attributes or {}).items():
        out += _bytes(5, _attribute(key, value))
    if domain:
        out += _str(7, domain)
    return out


def value_info(name: str, elem_type: int, dims: Sequence[int | str]) -> bytes:
    """A serialized ``ValueInfoProto`` for a tensor; a ``str`` dim is a symbolic size."""
    shape = b"".join(_bytes(1, _str(2, d) if isinstance(d, str) else _int(1, d)) for d in dims)
    tensor_type = _int(1, elem_type) + _bytes(2, shape)
    return _str(1, name) + _bytes(2, _bytes(1, tensor_type))


def model(
    *,
    graph_name: str,
    nodes: Sequence[bytes],
    initializers: Sequence[bytes],
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    opsets: Mapping[str, int],
    ir_version: int,
    producer: tuple[str, str],
) -> bytes:
    """A serialized ``ModelProto`` around one graph."""
    graph = b"".join(_bytes(1, n) for n in nodes) + _str(2, graph_name)
    graph += b"".join(_bytes(5, t) for t in initializers)
    graph += b"".join(_bytes(11, i) for i in inputs) + b"".join(_bytes(12, o) for o in outputs)
    out = _int(1, ir_version) + _str(2, producer[0]) + _str(3, producer[1]) + _bytes(7, graph)
    for domain, version in opsets.items():
        out += _bytes(8, (_str(1, domain) if domain else b"") + _int(2, version))
    return out


# --- reading -------------------------------------------------------------------------------


def _read_varint(data: memoryview, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data):
            raise OnnxFormatError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise OnnxFormatError("varint too long")


def _fields(data: memoryview) -> Iterator[tuple[int, int, int | memoryview]]:
    """``(field number, wire type, value)`` for each field of one message."""
    pos = 0
    while pos < len(data):
        key, pos = _read_varint(data, pos)
        number, wire = key >> 3, key & 7
        value: int | memoryview
        if wire == _VARINT:
            value, pos = _read_varint(data, pos)
        elif wire == _BYTES:
            length, pos = _read_varint(data, pos)
            if pos + length > len(data):
                raise OnnxFormatError("truncated field")
            value = data[pos : pos + length]
            pos += length
        elif wire == _FIXED32:
            value = data[pos : pos + 4]
            pos += 4
        elif wire == _FIXED64:
            value = data[pos : pos + 8]
            pos += 8
        else:
            raise OnnxFormatError(f"unsupported protobuf wire type {wire}")
        yield number, wire, value


def _text(value: int | memoryview) -> str:
    if isinstance(value, int):
        raise OnnxFormatError("expected a string field")
    return bytes(value).decode("utf-8")


def _message(value: int | memoryview) -> memoryview:
    if isinstance(value, int):
        raise OnnxFormatError("expected an embedded message")
    return value


def _ints(wire: int, value: int | memoryview) -> list[int]:
    """A repeated int64 field's values, packed or not."""
    if isinstance(value, int):
        return [value - (1 << 64) if value >= 1 << 63 else value]
    out: list[int] = []
    pos = 0
    while pos < len(value):
        item, pos = _read_varint(value, pos)
        out.append(item - (1 << 64) if item >= 1 << 63 else item)
    return out


@dataclass(frozen=True, slots=True)
class Node:
    """The parts of a ``NodeProto`` a reader of weights needs."""

    op: str
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]


@dataclass(slots=True)
class Graph:
    """The initializers (as numpy arrays) and nodes of a model's main graph."""

    initializers: dict[str, npt.NDArray[Any]] = field(default_factory=dict)
    nodes: list[Node] = field(default_factory=list)


def _read_tensor(data: memoryview) -> tuple[str, npt.NDArray[Any] | None]:
    """A tensor's name and value; the value is None for types gno never reads (bool, fp16)."""
    name, dims, code = "", [], FLOAT
    raw: memoryview | None = None
    packed: dict[int, list[memoryview | int]] = {}
    for number, wire, value in _fields(data):
        if number == 1:
            dims.extend(_ints(wire, value))
        elif number == 2 and isinstance(value, int):
            code = value
        elif number == 8:
            name = _text(value)
        elif number == 9:
            raw = _message(value)
        elif number in (4, 5, 7):
            packed.setdefault(number, []).append(value)
        elif number == 14 and value == 1:
            raise OnnxFormatError(f"tensor {name or '?'} keeps its data in an external file")
    dtype = _NUMPY.get(code)
    if dtype is None:
        return name, None
    if raw is not None:
        array = np.frombuffer(raw, dtype=dtype).copy()
    elif 4 in packed:  # float_data
        chunks = [bytes(v) if not isinstance(v, int) else struct.pack("<I", v) for v in packed[4]]
        array = np.frombuffer(b"".join(chunks), dtype="<f4").astype(dtype)
    elif 5 in packed or 7 in packed:  # int32_data (also int8/uint8) or int64_data
        values: list[int] = []
        for v in packed.get(5, []) + packed.get(7, []):
            values.extend(_ints(_VARINT if isinstance(v, int) else _BYTES, v))
        array = np.array(values, dtype=np.int64).astype(dtype)
    else:
        array = np.zeros(0, dtype=dtype)
    size = int(np.prod(dims)) if dims else 1
    if array.size != size:
        raise OnnxFormatError(f"tensor {name!r}: {array.size} values for shape {dims}")
    return name, array.reshape(dims)


def read_graph(data: bytes) -> Graph:
    """The main graph of a serialized ``ModelProto``. Raises ``OnnxFormatError``."""
    view = memoryview(data)
    graph_bytes = next((v for n, _, v in _fields(view) if n == 7), None)
    if graph_bytes is None:
        raise OnnxFormatError("not an ONNX model: no graph")
    graph = Graph()
    for number, _, value in _fields(_message(graph_bytes)):
        if number == 5:
            name, array = _read_tensor(_message(value))
            if array is not None:
                graph.initializers[name] = array
        elif number == 1:
            parts: dict[int, list[str]] = {1: [], 2: [], 4: []}
            for n, _, v in _fields(_message(value)):
                if n in parts:
                    parts[n].append(_text(v))
            op = parts[4][0] if parts[4] else ""
            graph.nodes.append(Node(op, tuple(parts[1]), tuple(parts[2])))
    return graph
