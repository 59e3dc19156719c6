"""The MindRecord file layout (version 3.0), shared by the writer and the readers.

A shard file is a header area of ``header_size`` bytes (an 8-byte little-endian length, then
the header as compact JSON) followed by pages of ``page_size`` bytes each; page ``p`` starts at
``header_size + p * page_size`` and the last page is not padded. Two kinds of pages:

- a *blob* page is one row group: per row, an 8-byte little-endian length and the row's blob
  (its ``bytes`` and array fields, sorted by name; with several blob fields each is preceded by
  its 8-byte big-endian length). int32/int64 array fields are packed: a 4-byte big-endian count,
  a bitmap of 2 bits per value (the width: 1, 2, 4 or 8 bytes), then each value little-endian in
  its width. A schema without blob fields stores 4 zero bytes per row.
- a *raw* page holds, per row, an 8-byte little-endian length and a MessagePack map of the
  scalar fields (``{"id": 0}`` when every field is a blob). Its ``row_group_ids`` say where in
  the page each row group's rows begin; a row group never straddles two raw pages.

Beside each shard, ``<file>.db`` (SQLite) maps each row to its pages and offsets and holds the
index fields, as MindSpore's readers expect.
"""

from __future__ import annotations

import json
import os
import sqlite3
import struct

import numpy as np

from . import _msgpack

__all__ = [
    "VERSION",
    "Schema",
    "read_header",
    "header_bytes",
    "write_index",
    "read_index",
]

VERSION = "3.0"
SCALAR_TYPES = ("int32", "int64", "float32", "float64", "string", "bytes")
ARRAY_TYPES = ("int32", "int64", "float32", "float64")
DEFAULT_HEADER_SIZE = 1 << 24
DEFAULT_PAGE_SIZE = 1 << 25
MIN_HEADER_SIZE, MAX_HEADER_SIZE = 1 << 14, 1 << 27
MIN_PAGE_SIZE, MAX_PAGE_SIZE = 1 << 15, 1 << 28
MIN_SHARDS, MAX_SHARDS = 1, 1000
DUMMY_BLOB = bytes(4)
DUMMY_RAW = {"id": 0}
_SQL_TYPES = {"int32": "INTEGER", "int64": "INTEGER", "float32": "REAL", "float64": "REAL"}


class Schema:
    """One MindRecord schema: ``fields`` (``{name: {"type": ..., "shape": [...]}}``) and its
    blob fields (``bytes`` and arrays, sorted by name as MindSpore stores them)."""

    def __init__(self, fields: dict, desc: str = "") -> None:
        self.fields = {name: dict(fields[name]) for name in sorted(fields)}
        self.desc = desc
        self.blob_fields = [n for n, f in self.fields.items() if _is_blob(f)]
        self.raw_fields = [n for n in self.fields if n not in self.blob_fields]
        # MindSpore packs int32/int64 blob fields whenever the schema has an int array field.
        self.packs_ints = any(
            "shape" in f and f["type"] in ("int32", "int64") for f in fields.values()
        )

    @classmethod
    def from_json(cls, meta: dict) -> Schema:
        return cls(meta["schema"], meta.get("desc", ""))

    def to_json(self) -> dict:
        fields = {n: {k: f[k] for k in sorted(f)} for n, f in self.fields.items()}
        return {"blob_fields": self.blob_fields, "desc": self.desc, "schema": fields}

    def merge_blob(self, row: dict) -> tuple[bytes, int]:
        """A row's blob bytes and the bytes saved by packing its int arrays."""
        if not self.blob_fields:
            return DUMMY_BLOB, 0
        parts, saved = [], 0
        for name in self.blob_fields:
            field, value = self.fields[name], row[name]
            if field["type"] == "bytes":
                data = bytes(value)
            else:
                array = np.ascontiguousarray(value, dtype=np.dtype(field["type"]).newbyteorder("<"))
                data = array.tobytes()
                if self.packs_ints and field["type"] in ("int32", "int64"):
                    packed = pack_ints(array.ravel())
                    saved += len(data) - len(packed)
                    data = packed
            parts.append(data)
        if len(parts) == 1:
            return parts[0], saved
        return b"".join(struct.pack(">Q", len(p)) + p for p in parts), saved

    def split_blob(self, blob: bytes, columns=None) -> dict:
        """The blob fields of a row (``bytes`` as bytes, arrays as shaped NumPy arrays)."""
        out, pos = {}, 0
        for name in self.blob_fields:
            if len(self.blob_fields) == 1:
                data = blob
            else:
                (size,) = struct.unpack_from(">Q", blob, pos)
                data = blob[pos + 8 : pos + 8 + size]
                pos += 8 + size
            if columns is not None and name not in columns:
                continue
            field = self.fields[name]
            if field["type"] == "bytes":
                out[name] = bytes(data)
                continue
            dtype = np.dtype(field["type"])
            if self.packs_ints and field["type"] in ("int32", "int64"):
                array = unpack_ints(data).astype(dtype)
            else:
                array = np.frombuffer(data, dtype.newbyteorder("<")).astype(dtype)
            out[name] = array.reshape(field["shape"])
        return out


def _is_blob(field: dict) -> bool:
    return field["type"] == "bytes" or "shape" in field


_WIDTH_TYPES = ("<i1", "<i2", "<i4", "<i8")
_SHIFTS = np.array([6, 4, 2, 0], np.uint8)


def pack_ints(values: np.ndarray) -> bytes:
    """MindSpore's packed int array: a 4-byte big-endian count, 2 bits per value giving its
    width (1, 2, 4 or 8 bytes), then each value little-endian in its width."""
    values = np.asarray(values, np.int64)
    codes = np.full(len(values), 3, np.uint8)
    for code in (2, 1, 0):
        info = np.iinfo(np.dtype(_WIDTH_TYPES[code]))
        codes[(values >= info.min) & (values <= info.max)] = code
    padded = np.zeros(-(-len(values) // 4) * 4, np.uint8)
    padded[: len(values)] = codes
    bitmap = (padded.reshape(-1, 4) << _SHIFTS).sum(1, dtype=np.uint8)
    widths = np.left_shift(1, codes.astype(np.int64))
    starts = np.cumsum(widths) - widths
    body = np.empty(int(widths.sum()), np.uint8)
    little = values.astype("<i8").view(np.uint8).reshape(-1, 8)
    for code in range(4):
        picked = codes == code
        width = 1 << code
        # Two's complement little-endian: a value's first bytes are its narrower encoding.
        body[starts[picked][:, None] + np.arange(width)] = little[picked, :width]
    return struct.pack(">I", len(values)) + bitmap.tobytes() + body.tobytes()


def unpack_ints(data: bytes) -> np.ndarray:
    """The int64 values of a packed int array."""
    (count,) = struct.unpack_from(">I", data, 0)
    bitmap = np.frombuffer(data, np.uint8, -(-count // 4), 4)
    codes = ((bitmap[:, None] >> _SHIFTS) & 3).ravel()[:count]
    widths = np.left_shift(1, codes.astype(np.int64))
    starts = 4 + len(bitmap) + np.cumsum(widths) - widths
    raw = np.frombuffer(data, np.uint8)
    out = np.empty(count, np.int64)
    for code in range(4):
        picked = codes == code
        width = 1 << code
        chunk = np.ascontiguousarray(raw[starts[picked][:, None] + np.arange(width)])
        out[picked] = chunk.view(_WIDTH_TYPES[code]).ravel()
    return out


def read_header(path: str) -> dict:
    """The JSON header of the shard file ``path``."""
    with open(path, "rb") as file:
        head = file.read(8)
        if len(head) < 8:
            raise RuntimeError(f"Invalid file, {path} is not a MindRecord file: it is too short.")
        (size,) = struct.unpack("<Q", head)
        if size == 0 or size > MAX_HEADER_SIZE:
            raise RuntimeError(f"Invalid file, {path} is not a MindRecord file.")
        try:
            header = json.loads(file.read(size).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise RuntimeError(
                f"Invalid file, {path} is not a MindRecord file: its header is not JSON."
            ) from error
    if not isinstance(header, dict) or "schema" not in header or "page" not in header:
        raise RuntimeError(f"Invalid file, {path} is not a MindRecord file.")
    return header


def header_bytes(header: dict) -> bytes:
    """The header area's contents: the length and the JSON, in MindSpore's key order."""
    order = (
        "header_size",
        "index_fields",
        "page",
        "page_size",
        "compression_size",
        "schema",
        "shard_addresses",
        "shard_id",
        "statistics",
        "version",
    )
    text = json.dumps({k: header[k] for k in order}, separators=(",", ":"), ensure_ascii=False)
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def _rows_of_shard(path: str, header: dict):
    """Each row of a shard: (raw page id, raw offset, raw end, group id, blob page id, blob
    offset, blob end, raw fields), walking the pages as the header lays them out."""
    header_size, page_size = header["header_size"], header["page_size"]
    pages = header["page"]
    blob_pages = {p["page_type_id"]: p for p in pages if p["page_type"] == "BLOB_DATA"}
    raw_pages = sorted(
        (p for p in pages if p["page_type"] == "RAW_DATA"), key=lambda p: p["page_id"]
    )
    with open(path, "rb") as file:
        for raw in raw_pages:
            file.seek(header_size + raw["page_id"] * page_size)
            raw_data = file.read(raw["page_size"])
            groups = raw["row_group_ids"]
            for g, group in enumerate(groups):
                end = groups[g + 1]["offset"] if g + 1 < len(groups) else raw["page_size"]
                blob_page = blob_pages[group["id"]]
                file.seek(header_size + blob_page["page_id"] * page_size)
                blob_data = file.read(blob_page["page_size"])
                raw_pos, blob_pos = group["offset"], 0
                while raw_pos < end:
                    (raw_len,) = struct.unpack_from("<Q", raw_data, raw_pos)
                    (blob_len,) = struct.unpack_from("<Q", blob_data, blob_pos)
                    fields = _msgpack.unpack(raw_data[raw_pos + 8 : raw_pos + 8 + raw_len])
                    yield (
                        raw["page_id"],
                        raw_pos,
                        raw_pos + 8 + raw_len,
                        group["id"],
                        blob_page["page_id"],
                        blob_pos,
                        blob_pos + 8 + blob_len,
                        fields,
                    )
                    raw_pos += 8 + raw_len
                    blob_pos += 8 + blob_len


def write_index(path: str, header: dict) -> None:
    """Write ``path``'s index file ``path.db`` (replacing one that is there)."""
    schema = Schema.from_json(header["schema"][0])
    fields = [f["index_field"] for f in header["index_fields"] or []]
    columns = "".join(
        f",INC_{i} INT, {name}_0 {_SQL_TYPES.get(schema.fields[name]['type'], 'TEXT')}"
        for i, name in enumerate(fields)
    )
    keys = "".join(f",INC_{i}" for i in range(len(fields)))
    create = (
        "CREATE TABLE INDEXES(  ROW_ID               INT  NOT NULL, "
        "PAGE_ID_RAW          INT  NOT NULL, PAGE_OFFSET_RAW      INT  NOT NULL, "
        "PAGE_OFFSET_RAW_END  INT  NOT NULL, ROW_GROUP_ID         INT  NOT NULL, "
        "PAGE_ID_BLOB         INT  NOT NULL, PAGE_OFFSET_BLOB     INT  NOT NULL, "
        f"PAGE_OFFSET_BLOB_END INT  NOT NULL{columns}, PRIMARY KEY(ROW_ID{keys}));"
    )
    db_path = path + ".db"
    temporary = db_path + ".tmp"
    if os.path.exists(temporary):
        os.remove(temporary)
    connection = sqlite3.connect(temporary)
    try:
        connection.execute(create)
        connection.execute("CREATE TABLE SHARD_NAME(NAME TEXT NOT NULL);")
        connection.execute("INSERT INTO SHARD_NAME (NAME) VALUES (?);", (os.path.basename(path),))
        rows = []
        for row_id, row in enumerate(_rows_of_shard(path, header)):
            values = [row_id, *row[:7]]
            for name in fields:
                values += [0, row[7].get(name)]
            rows.append(values)
        marks = ",".join("?" * (8 + 2 * len(fields)))
        connection.executemany(f"INSERT INTO INDEXES VALUES ({marks});", rows)
        connection.commit()
    finally:
        connection.close()
    os.replace(temporary, db_path)


def read_index(path: str) -> np.ndarray:
    """The pages and offsets of each row of shard ``path``, by row id, from ``path.db``:
    columns raw page id, raw offset, raw end, blob page id, blob offset, blob end."""
    db_path = path + ".db"
    if not os.path.exists(db_path):
        raise RuntimeError(
            f"Invalid database file, path: {db_path}: the index file of {path} does not exist."
        )
    connection = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
    try:
        (name,) = connection.execute("SELECT NAME FROM SHARD_NAME;").fetchone() or (None,)
        if name != os.path.basename(path):
            raise RuntimeError(
                f"Invalid database file, shard name [{os.path.basename(path)}] can not match "
                f"[{name}]."
            )
        rows = connection.execute(
            "SELECT ROW_ID, PAGE_ID_RAW, PAGE_OFFSET_RAW, PAGE_OFFSET_RAW_END, PAGE_ID_BLOB, "
            "PAGE_OFFSET_BLOB, PAGE_OFFSET_BLOB_END FROM INDEXES GROUP BY ROW_ID ORDER BY ROW_ID;"
        ).fetchall()
    except sqlite3.DatabaseError as error:
        raise RuntimeError(f"Invalid database file, path: {db_path}: {error}") from error
    finally:
        connection.close()
    return np.array([r[1:] for r in rows], np.int64).reshape(-1, 6)
