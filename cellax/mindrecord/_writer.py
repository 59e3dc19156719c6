"""``FileWriter``: write MindRecord shard files and their index files."""

from __future__ import annotations

import os
import re
import struct

import numpy as np

from .. import log as logger
from . import _format
from ._format import Schema
from ._msgpack import pack_row

__all__ = ["FileWriter"]

_API = "FileWriter"


def _check_file_name(api: str, file_name) -> str:
    if not isinstance(file_name, (str, os.PathLike)):
        raise TypeError(
            f"For '{api}', 'file_name' must be a str, but got {type(file_name).__name__}."
        )
    file_name = os.fspath(file_name)
    if not os.path.basename(file_name) or file_name.endswith(os.sep):
        raise ValueError(f"For '{api}', 'file_name' must name a file, but got {file_name!r}.")
    return file_name


def _check_range(api: str, name: str, value, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(
            f"For '{api}', '{name}' must be an int in [{low}, {high}], but got {value!r}."
        )
    return value


def _check_schema(content) -> None:
    if not content or not isinstance(content, dict):
        raise ValueError(
            f"For 'FileWriter.add_schema', 'content' must be a non-empty dict of fields, but got "
            f"{content!r}."
        )
    for name, field in content.items():
        if not isinstance(name, str) or not re.fullmatch(r"[0-9a-zA-Z_]+", name):
            raise ValueError(
                f"For 'FileWriter.add_schema', field {name!r} should be composed of '0-9' or "
                "'a-z' or 'A-Z' or '_'."
            )
        if not isinstance(field, dict) or "type" not in field or set(field) - {"type", "shape"}:
            raise ValueError(
                f"For 'FileWriter.add_schema', field {name!r} must be a dict like "
                f"{{'type': 'int32'}} or {{'type': 'float32', 'shape': [-1]}}, but got {field!r}."
            )
        allowed = _format.ARRAY_TYPES if "shape" in field else _format.SCALAR_TYPES
        if field["type"] not in allowed:
            raise ValueError(
                f"For 'FileWriter.add_schema', field {name!r} has type {field['type']!r}; "
                f"it must be one of {list(allowed)}."
            )
        shape = field.get("shape")
        if shape is not None and (
            not isinstance(shape, list)
            or not shape
            or not all(isinstance(d, int) and (d > 0 or d == -1) for d in shape)
            or shape.count(-1) > 1
        ):
            raise ValueError(
                f"For 'FileWriter.add_schema', the shape of field {name!r} must be a list of "
                f"positive ints with at most one -1, but got {shape!r}."
            )


_SCALAR_TYPES = {
    "int32": (int, np.int32),
    "int64": (int, np.int64),
    "float32": (float, np.float32),
    "float64": (float, np.float64),
    "string": (str,),
    "bytes": (bytes,),
}


def _field_error(schema: Schema, row, index: int) -> str | None:
    """Why ``row`` does not fit ``schema`` (MindSpore drops such rows with a warning)."""
    for name, field in schema.fields.items():
        if name not in row:
            return f"for schema, {index} th data is wrong, there is not field: '{name}' in the raw data."
        value = row[name]
        if "shape" in field:
            if not isinstance(value, np.ndarray) or str(value.dtype) != field["type"]:
                kind = str(value.dtype) if isinstance(value, np.ndarray) else type(value).__name__
                return (
                    f"for schema, {index} th data is wrong, data type: '{kind}' for field: "
                    f"'{name}' is not matched."
                )
            try:
                np.reshape(value, field["shape"])
            except ValueError:
                return (
                    f"for schema, {index} th data is wrong, data shape: '{value.shape}' for "
                    f"field: '{name}' is not matched."
                )
        elif isinstance(value, bool) or not isinstance(value, _SCALAR_TYPES[field["type"]]):
            return (
                f"for schema, {index} th data is wrong, data type: '{type(value).__name__}' for "
                f"field: '{name}' is not matched."
            )
    return None


def _raw_value(value):
    if isinstance(value, np.generic):
        return value.item()
    return value


class _Shard:
    """One shard file being written: its pages so far, and the open blob and raw pages."""

    def __init__(self, path: str, shard_id: int, header: dict | None = None) -> None:
        self.path, self.shard_id = path, shard_id
        self.pages: list[dict] = []
        self.rows = 0
        self.blob = self.raw = None  # page dicts being filled
        self.blob_data, self.raw_data = bytearray(), bytearray()
        self.file = None
        if header is not None:
            self._resume(header)

    def _resume(self, header: dict) -> None:
        """Continue a committed shard: reopen its last blob and raw pages for filling."""
        self.pages = [dict(p) for p in header["page"]]
        self.file = open(self.path, "r+b")  # noqa: SIM115 - closed by commit
        for kind in ("BLOB_DATA", "RAW_DATA"):
            pages = [p for p in self.pages if p["page_type"] == kind]
            if not pages:
                continue
            last = max(pages, key=lambda p: p["page_id"])
            self.file.seek(header["header_size"] + last["page_id"] * header["page_size"])
            data = bytearray(self.file.read(last["page_size"]))
            if kind == "BLOB_DATA":
                self.blob, self.blob_data = last, data
                self.rows = max(p["end_row_id"] for p in pages)
            else:
                self.raw, self.raw_data = last, data

    def _new_page(self, kind: str, start_row: int) -> dict:
        page = {
            "end_row_id": start_row,
            "page_id": len(self.pages),
            "page_size": 0,
            "page_type": kind,
            "page_type_id": sum(p["page_type"] == kind for p in self.pages),
            "row_group_ids": [{"id": 0, "offset": 0}] if kind == "BLOB_DATA" else [],
            "shard_id": self.shard_id,
            "start_row_id": start_row,
        }
        if kind == "RAW_DATA":
            page["start_row_id"] = page["end_row_id"] = 0
        self.pages.append(page)
        return page

    def _flush(self, page: dict, data: bytearray, header_size: int, page_size: int) -> None:
        if self.file is None:
            self.file = open(self.path, "w+b")  # noqa: SIM115 - closed by commit
        page["page_size"] = len(data)
        self.file.seek(header_size + page["page_id"] * page_size)
        self.file.write(data)

    def add(self, blob: bytes, raw: bytes, header_size: int, page_size: int) -> None:
        blob_size, raw_size = 8 + len(blob), 8 + len(raw)
        if blob_size > page_size or raw_size > page_size:
            raise RuntimeError(
                f"For '{_API}', a row of {max(blob_size, raw_size)} bytes does not fit in a page "
                f"of {page_size} bytes. Call 'set_page_size' with a larger size."
            )
        group_start = self.raw["row_group_ids"][-1]["offset"] if self.raw else 0
        group_raw = len(self.raw_data) - group_start
        if (
            self.blob is None
            or len(self.blob_data) + blob_size > page_size
            or group_raw + raw_size > page_size
        ):
            if self.blob is not None:
                self._flush(self.blob, self.blob_data, header_size, page_size)
            self.blob, self.blob_data = self._new_page("BLOB_DATA", self.rows), bytearray()
            group = self.blob["page_type_id"]
            if self.raw is None or len(self.raw_data) + raw_size > page_size:
                if self.raw is not None:
                    self._flush(self.raw, self.raw_data, header_size, page_size)
                self.raw, self.raw_data = self._new_page("RAW_DATA", 0), bytearray()
            self.raw["row_group_ids"].append({"id": group, "offset": len(self.raw_data)})
        elif len(self.raw_data) + raw_size > page_size:
            # A row group stays within one raw page: move its rows to a new raw page.
            moved = self.raw_data[group_start:]
            del self.raw_data[group_start:]
            group = self.raw["row_group_ids"].pop()
            self._flush(self.raw, self.raw_data, header_size, page_size)
            self.raw, self.raw_data = self._new_page("RAW_DATA", 0), bytearray(moved)
            self.raw["row_group_ids"].append({"id": group["id"], "offset": 0})
        self.blob_data += struct.pack("<Q", len(blob)) + blob
        self.raw_data += struct.pack("<Q", len(raw)) + raw
        self.rows += 1
        self.blob["end_row_id"] = self.rows

    def finish(self, header_size: int, page_size: int) -> None:
        for page, data in ((self.blob, self.blob_data), (self.raw, self.raw_data)):
            if page is not None:
                self._flush(page, data, header_size, page_size)
        if self.file is None:
            self.file = open(self.path, "w+b")  # noqa: SIM115 - closed below


class FileWriter:
    """Write rows (dicts of fields) to MindRecord files: ``shard_num`` shard files, each with
    an index file ``<file>.db``, readable by MindSpore and by :class:`FileReader` /
    ``dataset.MindDataset``.

    Args:
        file_name (str): The file name; with ``shard_num > 1`` the shards are ``file_name``
            followed by the shard number (``data.mindrecord0``, ``data.mindrecord1``...).
        shard_num (int, optional): Number of shard files, in [1, 1000]. Default: ``1``.
        overwrite (bool, optional): Replace files that already exist. Default: ``False``.

    Raises:
        ValueError: If `shard_num` is out of range or `file_name` is not a file name.
        TypeError: If `file_name` is not a str or `overwrite` not a bool.
        RuntimeError: When the files are created, if they exist and `overwrite` is ``False``.

    Differences from MindSpore: each call of ``write_raw_data`` spreads its rows over the shards
    with the larger shares first (MindSpore picks the shards that get one more row at random);
    ``parallel_writer`` writes in the calling process; encryption is not supported.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindspore.mindrecord.html

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellax.mindrecord import FileWriter, FileReader
        >>> path = os.path.join(tempfile.mkdtemp(), "test.mindrecord")
        >>> writer = FileWriter(path, shard_num=1, overwrite=True)
        >>> writer.add_schema({"label": {"type": "int32"}, "x": {"type": "float32", "shape": [2]}})
        0
        >>> writer.write_raw_data([{"label": i, "x": np.full(2, i, np.float32)} for i in range(3)])
        >>> writer.commit()
        >>> [int(row["label"]) for row in FileReader(path).get_next()]
        [0, 1, 2]
    """

    def __init__(self, file_name, shard_num=1, overwrite=False) -> None:
        file_name = _check_file_name(_API, file_name)
        _check_range(_API, "shard_num", shard_num, _format.MIN_SHARDS, _format.MAX_SHARDS)
        if not isinstance(overwrite, bool):
            raise TypeError(f"For '{_API}', 'overwrite' must be a bool, but got {overwrite!r}.")
        self._file_name, self._shard_num, self._overwrite = file_name, shard_num, overwrite
        if shard_num == 1:
            self._paths = [file_name]
        else:
            width = len(str(shard_num - 1))
            self._paths = [f"{file_name}{str(i).rjust(width, '0')}" for i in range(shard_num)]
        self._schema: Schema | None = None
        self._index_fields: list[str] | None = None
        self._header_size = _format.DEFAULT_HEADER_SIZE
        self._page_size = _format.DEFAULT_PAGE_SIZE
        self._shards: list[_Shard] | None = None
        self._compression = 0
        self._committed = False

    @classmethod
    def open_for_append(cls, file_name) -> FileWriter:
        """Open a committed MindRecord file (written by MindSpore or cellax) to add rows.

        Args:
            file_name (str): One shard file; every shard of its set is appended to.

        Returns:
            FileWriter, ready for ``write_raw_data`` and ``commit``.

        Raises:
            RuntimeError: If the file or its index file is missing or not MindRecord.

        Examples:
            >>> import os, tempfile
            >>> from cellax.mindrecord import FileWriter, FileReader
            >>> path = os.path.join(tempfile.mkdtemp(), "test.mindrecord")
            >>> writer = FileWriter(path)
            >>> writer.add_schema({"label": {"type": "int32"}}, "labels")
            0
            >>> writer.write_raw_data([{"label": 0}])
            >>> writer.commit()
            >>> writer = FileWriter.open_for_append(path)
            >>> writer.write_raw_data([{"label": 1}])
            >>> writer.commit()
            >>> FileReader(path).len()
            2
        """
        file_name = _check_file_name("FileWriter.open_for_append", file_name)
        for path in (file_name, file_name + ".db"):
            if not os.path.isfile(path):
                raise RuntimeError(
                    f"For 'FileWriter.open_for_append', the file {path} does not exist."
                )
        header = _format.read_header(file_name)
        folder = os.path.dirname(os.path.abspath(file_name))
        paths = [os.path.join(folder, name) for name in header["shard_addresses"]]
        headers = [header if i == header["shard_id"] else None for i in range(len(paths))]
        headers = [h if h is not None else _format.read_header(p) for h, p in zip(headers, paths)]
        writer = cls(file_name, 1, True)
        writer._paths = paths
        writer._shard_num = len(paths)
        writer._schema = Schema.from_json(header["schema"][0])
        fields = header["index_fields"]
        writer._index_fields = None if fields is None else [f["index_field"] for f in fields]
        writer._header_size, writer._page_size = header["header_size"], header["page_size"]
        writer._compression = header.get("compression_size", 0)
        writer._shards = [_Shard(p, h["shard_id"], h) for p, h in zip(paths, headers)]
        return writer

    def add_schema(self, content, desc=None) -> int:
        """Describe the fields of the rows: ``{name: {"type": t}}`` with ``t`` in ``int32``,
        ``int64``, ``float32``, ``float64``, ``string``, ``bytes``, or
        ``{name: {"type": t, "shape": [...]}}`` for a NumPy array field (``t`` numeric, one
        dimension may be ``-1``).

        Args:
            content (dict): The fields.
            desc (str, optional): A description. Default: ``None``.

        Returns:
            int, the schema id (0).

        Raises:
            ValueError: If `content` is not a valid schema.
            RuntimeError: If a schema was already added.

        Examples:
            >>> from cellax.mindrecord import FileWriter
            >>> writer = FileWriter("never_created.mindrecord")
            >>> writer.add_schema({"image": {"type": "bytes"}, "label": {"type": "int64"}})
            0
        """
        _check_schema(content)
        if desc is not None and not isinstance(desc, str):
            raise TypeError(f"For 'FileWriter.add_schema', 'desc' must be a str, but got {desc!r}.")
        if self._schema is not None:
            raise RuntimeError(
                "For 'FileWriter.add_schema', a schema was already added; MindRecord files hold "
                "one schema."
            )
        self._schema = Schema(content, desc or "")
        return 0

    def add_index(self, index_fields) -> None:
        """Choose the scalar fields that the index file indexes (by default, all of them).

        Args:
            index_fields (list[str]): Fields of the schema (not ``bytes`` or array fields).

        Raises:
            TypeError: If `index_fields` is not a non-empty list of str.
            ValueError: If a field is not a scalar field of the schema.

        Examples:
            >>> from cellax.mindrecord import FileWriter
            >>> writer = FileWriter("never_created.mindrecord")
            >>> writer.add_schema({"name": {"type": "string"}, "label": {"type": "int32"}})
            0
            >>> writer.add_index(["label"])
        """
        api = "FileWriter.add_index"
        if not index_fields or not isinstance(index_fields, list):
            raise TypeError(f"For '{api}', 'index_fields' must be a non-empty list of str.")
        if self._schema is None:
            raise RuntimeError(f"For '{api}', call 'add_schema' first.")
        for field in index_fields:
            if not isinstance(field, str):
                raise TypeError(f"For '{api}', each index field must be a str, but got {field!r}.")
            if field in self._schema.blob_fields:
                raise ValueError(
                    f"For '{api}', failed to set field {field} since it's not primitive type."
                )
            if field not in self._schema.fields:
                raise ValueError(f"For '{api}', field {field!r} is not in the schema.")
        self._index_fields = list(dict.fromkeys(index_fields))

    def set_header_size(self, header_size) -> None:
        """Set the size of each shard's header area, in [16 KB, 128 MB] (default 16 MB).

        Args:
            header_size (int): Bytes, a multiple of 4.

        Raises:
            ValueError: If `header_size` is out of range.

        Examples:
            >>> from cellax.mindrecord import FileWriter
            >>> FileWriter("never_created.mindrecord").set_header_size(1 << 14)
        """
        self._check_open("set_header_size")
        self._header_size = self._check_size("header_size", header_size, "HEADER")

    def set_page_size(self, page_size) -> None:
        """Set the size of a page, in [32 KB, 256 MB] (default 32 MB). A row's blob fields and
        its scalar fields must each fit in one page.

        Args:
            page_size (int): Bytes, a multiple of 4.

        Raises:
            ValueError: If `page_size` is out of range.

        Examples:
            >>> from cellax.mindrecord import FileWriter
            >>> FileWriter("never_created.mindrecord").set_page_size(1 << 15)
        """
        self._check_open("set_page_size")
        self._page_size = self._check_size("page_size", page_size, "PAGE")

    def _check_size(self, name, value, kind):
        low, high = getattr(_format, f"MIN_{kind}_SIZE"), getattr(_format, f"MAX_{kind}_SIZE")
        _check_range(f"FileWriter.set_{name}", name, value, low, high)
        if value % 4:
            raise ValueError(
                f"For 'FileWriter.set_{name}', '{name}' must be a multiple of 4, but got {value}."
            )
        return value

    def _check_open(self, api):
        if self._shards is not None:
            raise RuntimeError(
                f"For 'FileWriter.{api}', the size cannot change once rows are written."
            )

    def _open(self) -> None:
        if self._shards is not None:
            return
        if self._committed:
            raise RuntimeError(
                "Not allowed to call `write_raw_data` on flushed MindRecord files. To add rows "
                "to committed files, call `FileWriter.open_for_append` first."
            )
        if self._schema is None:
            raise RuntimeError(f"For '{_API}', call 'add_schema' before writing rows.")
        for path in self._paths:
            for name in (path, path + ".db"):
                if os.path.exists(name):
                    if not self._overwrite:
                        raise RuntimeError(
                            f"Invalid file, mindrecord files already exist: {name}. Remove them "
                            "or pass overwrite=True to FileWriter."
                        )
                    os.remove(name)
            folder = os.path.dirname(os.path.abspath(path))
            if not os.path.isdir(folder):
                raise RuntimeError(f"For '{_API}', the directory {folder} does not exist.")
        self._shards = [_Shard(path, i) for i, path in enumerate(self._paths)]

    def write_raw_data(self, raw_data, parallel_writer=False) -> None:
        """Write rows, spread over the shards. Rows that do not match the schema are dropped
        with a warning in the log (as MindSpore does).

        Args:
            raw_data (list[dict]): The rows: every schema field, as a Python scalar, ``bytes``,
                a NumPy scalar or a NumPy array of the schema's type.
            parallel_writer (bool, optional): Accepted for compatibility. Default: ``False``.

        Raises:
            TypeError: If `raw_data` is not a list of dicts.
            RuntimeError: If no row is valid, or a row does not fit in a page.

        Examples:
            >>> import os, tempfile
            >>> from cellax.mindrecord import FileWriter
            >>> path = os.path.join(tempfile.mkdtemp(), "test.mindrecord")
            >>> writer = FileWriter(path)
            >>> writer.add_schema({"text": {"type": "string"}})
            0
            >>> writer.write_raw_data([{"text": "hello"}, {"text": "world"}])
            >>> writer.commit()
        """
        if not isinstance(parallel_writer, bool):
            raise TypeError("The parameter `parallel_writer` must be bool.")
        if not isinstance(raw_data, list) or not all(isinstance(r, dict) for r in raw_data):
            raise TypeError(
                "For 'FileWriter.write_raw_data', 'raw_data' must be a list of dicts, but got "
                f"{type(raw_data).__name__}."
            )
        self._open()
        schema = self._schema
        rows = []
        for index, row in enumerate(raw_data):
            error = _field_error(schema, row, index)
            if error is None:
                rows.append(row)
            else:
                logger.warning(error)
        if not rows:
            raise RuntimeError(
                "There is no valid data which can be written by 'write_raw_data' to mindrecord "
                "file. Please check the abnormal input data indicated in the warning log above."
            )
        encoded = []
        for row in rows:
            blob, saved = schema.merge_blob(row)
            self._compression += saved
            raw = {n: _raw_value(row[n]) for n in schema.raw_fields} or _format.DUMMY_RAW
            encoded.append((blob, pack_row(raw)))
        share, extra = divmod(len(encoded), len(self._shards))
        start = 0
        for i, shard in enumerate(self._shards):
            end = start + share + (i < extra)
            for blob, raw in encoded[start:end]:
                shard.add(blob, raw, self._header_size, self._page_size)
            start = end

    def _header(self, shard: _Shard) -> dict:
        schema = self._schema
        fields = self._index_fields
        if fields is None:
            fields = schema.raw_fields
        return {
            "header_size": self._header_size,
            "index_fields": [{"index_field": f, "schema_id": 0} for f in fields] or None,
            "page": sorted(shard.pages, key=lambda p: p["page_id"]),
            "page_size": self._page_size,
            "compression_size": max(self._compression, 0),
            "schema": [schema.to_json()],
            "shard_addresses": [os.path.basename(p) for p in self._paths],
            "shard_id": shard.shard_id,
            "statistics": None,
            "version": _format.VERSION,
        }

    def commit(self) -> None:
        """Write the headers and the index files; the files are then complete.

        Raises:
            RuntimeError: If no schema was added, or a header does not fit in ``header_size``.

        Examples:
            >>> import os, tempfile
            >>> from cellax.mindrecord import FileWriter
            >>> path = os.path.join(tempfile.mkdtemp(), "empty.mindrecord")
            >>> writer = FileWriter(path)
            >>> writer.add_schema({"label": {"type": "int32"}})
            0
            >>> writer.commit()
            >>> sorted(os.listdir(os.path.dirname(path)))
            ['empty.mindrecord', 'empty.mindrecord.db']
        """
        self._open()
        try:
            for shard in self._shards:
                shard.finish(self._header_size, self._page_size)
                header = self._header(shard)
                data = _format.header_bytes(header)
                if len(data) > self._header_size:
                    raise RuntimeError(
                        f"For 'FileWriter.commit', the header of {shard.path} needs {len(data)} "
                        f"bytes, more than the header size {self._header_size}. Call "
                        "'set_header_size' with a larger size."
                    )
                shard.file.seek(0)
                shard.file.write(data)
                shard.file.close()
                shard.file = None
                os.chmod(shard.path, 0o600)
                _format.write_index(shard.path, header)
                os.chmod(shard.path + ".db", 0o600)
        finally:
            for shard in self._shards:
                if shard.file is not None:
                    shard.file.close()
        self._shards, self._committed = None, True
