"""The MessagePack subset a MindRecord raw page holds: a map of str keys to ints, floats and
str (the scalar fields of one row), encoded as MindSpore's JSON library encodes them."""

from __future__ import annotations

import struct

__all__ = ["pack_row", "unpack"]


def _pack_int(value: int, out: bytearray) -> None:
    if 0 <= value < 128:
        out.append(value)
    elif -32 <= value < 0:
        out += struct.pack("b", value)
    elif value >= 0:
        # Non-negative ints take the smallest unsigned width, as MindSpore writes them.
        for code, fmt, limit in (
            (0xCC, ">B", 1 << 8),
            (0xCD, ">H", 1 << 16),
            (0xCE, ">I", 1 << 32),
        ):
            if value < limit:
                out.append(code)
                out += struct.pack(fmt, value)
                return
        out.append(0xCF)
        out += struct.pack(">Q", value)
    else:
        for code, fmt, limit in (
            (0xD0, ">b", 1 << 7),
            (0xD1, ">h", 1 << 15),
            (0xD2, ">i", 1 << 31),
        ):
            if value >= -limit:
                out.append(code)
                out += struct.pack(fmt, value)
                return
        out.append(0xD3)
        out += struct.pack(">q", value)


def _pack_str(value: str, out: bytearray) -> None:
    data = value.encode("utf-8")
    size = len(data)
    if size < 32:
        out.append(0xA0 | size)
    elif size < 1 << 8:
        out += bytes((0xD9, size))
    elif size < 1 << 16:
        out.append(0xDA)
        out += struct.pack(">H", size)
    else:
        out.append(0xDB)
        out += struct.pack(">I", size)
    out += data


def _pack(value, out: bytearray) -> None:
    if isinstance(value, bool):
        out.append(0xC3 if value else 0xC2)
    elif isinstance(value, int):
        _pack_int(value, out)
    elif isinstance(value, float):
        # A float that a float32 holds exactly is written as a float32 (MindSpore's encoder).
        try:
            narrow = struct.pack(">f", value)
        except OverflowError:
            narrow = None
        if narrow is not None and struct.unpack(">f", narrow)[0] == value:
            out.append(0xCA)
            out += narrow
        else:
            out.append(0xCB)
            out += struct.pack(">d", value)
    elif isinstance(value, str):
        _pack_str(value, out)
    elif value is None:
        out.append(0xC0)
    else:
        raise TypeError(f"MindRecord raw fields hold int, float or str, but got {value!r}.")


def pack_row(row: dict) -> bytes:
    """A map of ``row``'s items in key order."""
    out = bytearray()
    size = len(row)
    if size < 16:
        out.append(0x80 | size)
    elif size < 1 << 16:
        out.append(0xDE)
        out += struct.pack(">H", size)
    else:
        out.append(0xDF)
        out += struct.pack(">I", size)
    for key in sorted(row):
        _pack_str(key, out)
        _pack(row[key], out)
    return bytes(out)


_FIXED = {
    0xCA: (">f", 4),
    0xCB: (">d", 8),
    0xCC: (">B", 1),
    0xCD: (">H", 2),
    0xCE: (">I", 4),
    0xCF: (">Q", 8),
    0xD0: (">b", 1),
    0xD1: (">h", 2),
    0xD2: (">i", 4),
    0xD3: (">q", 8),
}
_LENGTH = {0xD9: (">B", 1), 0xDA: (">H", 2), 0xDB: (">I", 4)}
_BIN = {0xC4: (">B", 1), 0xC5: (">H", 2), 0xC6: (">I", 4)}
_ARRAY = {0xDC: (">H", 2), 0xDD: (">I", 4)}
_MAP = {0xDE: (">H", 2), 0xDF: (">I", 4)}


def _unpack(data: bytes, pos: int):
    code = data[pos]
    pos += 1
    if code < 0x80:
        return code, pos
    if code >= 0xE0:
        return code - 0x100, pos
    if 0xA0 <= code <= 0xBF:
        size = code & 0x1F
        return data[pos : pos + size].decode("utf-8"), pos + size
    if 0x80 <= code <= 0x8F:
        return _unpack_map(data, pos, code & 0x0F)
    if 0x90 <= code <= 0x9F:
        return _unpack_array(data, pos, code & 0x0F)
    if code in _FIXED:
        fmt, size = _FIXED[code]
        return struct.unpack_from(fmt, data, pos)[0], pos + size
    if code in _LENGTH or code in _BIN:
        fmt, width = (_LENGTH if code in _LENGTH else _BIN)[code]
        size = struct.unpack_from(fmt, data, pos)[0]
        pos += width
        raw = data[pos : pos + size]
        return (raw.decode("utf-8") if code in _LENGTH else bytes(raw)), pos + size
    if code in _ARRAY or code in _MAP:
        fmt, width = (_ARRAY if code in _ARRAY else _MAP)[code]
        size = struct.unpack_from(fmt, data, pos)[0]
        unpack = _unpack_array if code in _ARRAY else _unpack_map
        return unpack(data, pos + width, size)
    if code in (0xC0, 0xC2, 0xC3):
        return {0xC0: None, 0xC2: False, 0xC3: True}[code], pos
    raise ValueError(f"unsupported MessagePack code 0x{code:02x} at byte {pos - 1}")


def _unpack_map(data, pos, size):
    out = {}
    for _ in range(size):
        key, pos = _unpack(data, pos)
        out[key], pos = _unpack(data, pos)
    return out, pos


def _unpack_array(data, pos, size):
    out = []
    for _ in range(size):
        item, pos = _unpack(data, pos)
        out.append(item)
    return out, pos


def unpack(data: bytes):
    """The value MessagePack ``data`` holds."""
    value, _ = _unpack(data, 0)
    return value
