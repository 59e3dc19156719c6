"""Reading MindRecord files: the row store shared by ``FileReader``, ``MindPage`` and
``dataset.MindDataset``, and ``FileReader`` itself."""

from __future__ import annotations

import os

import numpy as np

from . import _format, _msgpack
from ._format import Schema

__all__ = ["ShardSet", "FileReader"]


def _check_files(api: str, file_name) -> list[str]:
    """The shard files to read: every shard of the set for one name, else the names given."""
    if isinstance(file_name, (str, os.PathLike)):
        path = os.fspath(file_name)
        _check_exists(api, path)
        header = _format.read_header(path)
        folder = os.path.dirname(os.path.abspath(path))
        return [os.path.join(folder, name) for name in header["shard_addresses"]]
    if not isinstance(file_name, (list, tuple)) or not file_name:
        raise TypeError(
            f"For '{api}', 'file_name' must be a str or a non-empty list of str, but got "
            f"{file_name!r}."
        )
    paths = []
    for name in file_name:
        if not isinstance(name, (str, os.PathLike)):
            raise TypeError(f"For '{api}', every file name must be a str, but got {name!r}.")
        paths.append(os.fspath(name))
    if len(set(paths)) != len(paths):
        raise ValueError(f"For '{api}', the file names must be unique, but got {paths}.")
    return paths


def _check_exists(api: str, path: str) -> None:
    if not os.path.isfile(path):
        raise RuntimeError(f"For '{api}', the MindRecord file {path} does not exist.")


class ShardSet:
    """The rows of a list of shard files, in file order then row id order. It pickles
    without open files, so grain's worker processes can read it."""

    def __init__(self, api: str, paths: list[str]) -> None:
        self.paths = paths
        self.headers, offsets = [], []
        for path in paths:
            _check_exists(api, path)
            self.headers.append(_format.read_header(path))
            offsets.append(_format.read_index(path))
        schemas = [h["schema"][0] for h in self.headers]
        if any(s != schemas[0] for s in schemas):
            raise RuntimeError(
                f"For '{api}', the files {paths} have different schemas; read them separately."
            )
        self.schema = Schema.from_json(schemas[0])
        self.offsets = np.concatenate(offsets) if offsets else np.zeros((0, 6), np.int64)
        self.shard_of = np.concatenate([np.full(len(o), i) for i, o in enumerate(offsets)])
        self._files: dict = {}

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_files"] = {}
        return state

    def __len__(self) -> int:
        return len(self.offsets)

    def _read(self, shard: int, page_id: int, start: int, end: int) -> bytes:
        file = self._files.get(shard)
        if file is None:
            file = self._files[shard] = open(self.paths[shard], "rb")  # noqa: SIM115
        header = self.headers[shard]
        file.seek(header["header_size"] + page_id * header["page_size"] + start)
        data = file.read(end - start)
        if len(data) != end - start:
            raise RuntimeError(f"Invalid file, {self.paths[shard]} is truncated.")
        return data

    def row(self, index: int, columns=None) -> dict:
        """Row ``index``: scalar fields as Python values (as MindSpore's JSON gives them),
        ``bytes`` fields as bytes and array fields as shaped NumPy arrays."""
        shard = int(self.shard_of[index])
        raw_page, raw_start, raw_end, blob_page, blob_start, blob_end = (
            int(v) for v in self.offsets[index]
        )
        out = {}
        wanted = [n for n in self.schema.raw_fields if columns is None or n in columns]
        if wanted:
            fields = _msgpack.unpack(self._read(shard, raw_page, raw_start + 8, raw_end))
            for name in wanted:
                out[name] = fields[name]
        if self.schema.blob_fields and (
            columns is None or any(n in columns for n in self.schema.blob_fields)
        ):
            blob = self._read(shard, blob_page, blob_start + 8, blob_end)
            out.update(self.schema.split_blob(blob, columns))
        return out

    def close(self) -> None:
        for file in getattr(self, "_files", {}).values():
            file.close()
        self._files = {}

    def __del__(self):
        self.close()


def python_value(field: dict, value):
    """A raw field's value as MindSpore's FileReader returns it."""
    kind = field["type"]
    if kind in ("int32", "int64"):
        return int(np.dtype(kind).type(value))
    if kind in ("float32", "float64"):
        value = float(np.dtype(kind).type(value))
        # MindSpore's reader passes whole floats to Python as ints (1.0 -> 1).
        return int(value) if value.is_integer() else value
    return value


class FileReader:
    """Read the rows of MindRecord files (written by MindSpore or cellax) as dicts.

    Args:
        file_name (Union[str, list[str]]): One shard file (every shard of its set is read) or a
            list of shard files (only those are read).
        num_consumer (int, optional): Reader threads, in [1, cpu count]. Default: ``4``.
        columns (list[str], optional): The fields to read. Default: ``None`` (all).
        operator (int, optional): Reserved. Default: ``None``.

    Raises:
        RuntimeError: If a file or its index file is missing or not MindRecord.
        ValueError: If `columns` names a field that is not in the schema.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindspore.mindrecord.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.mindrecord import FileWriter, FileReader
        >>> path = os.path.join(tempfile.mkdtemp(), "test.mindrecord")
        >>> writer = FileWriter(path)
        >>> writer.add_schema({"name": {"type": "string"}, "data": {"type": "bytes"}})
        0
        >>> writer.write_raw_data([{"name": "a", "data": b"12"}])
        >>> writer.commit()
        >>> reader = FileReader(path)
        >>> list(reader.get_next())
        [{'name': 'a', 'data': b'12'}]
        >>> reader.close()
    """

    def __init__(self, file_name, num_consumer=4, columns=None, operator=None) -> None:
        api = "FileReader"
        if (
            isinstance(num_consumer, bool)
            or not isinstance(num_consumer, int)
            or not (1 <= num_consumer <= max(os.cpu_count() or 1, 4))
        ):
            raise ValueError(
                f"For '{api}', 'num_consumer' must be an int in [1, cpu count], but got "
                f"{num_consumer!r}."
            )
        self._store = ShardSet(api, _check_files(api, file_name))
        fields = self._store.schema.fields
        if columns is not None:
            if not isinstance(columns, list) or not all(isinstance(c, str) for c in columns):
                raise TypeError(
                    f"For '{api}', 'columns' must be a list of str, but got {columns!r}."
                )
            missing = [c for c in columns if c not in fields]
            if missing:
                raise ValueError(f"For '{api}', the columns {missing} are not in the schema.")
        self._columns = columns

    def get_next(self):
        """Yield each row as a dict: its scalar fields first, then its blob fields.

        Returns:
            Iterator of dict, the rows.

        Examples:
            >>> import os, tempfile
            >>> from cellax.mindrecord import FileWriter, FileReader
            >>> path = os.path.join(tempfile.mkdtemp(), "test.mindrecord")
            >>> writer = FileWriter(path)
            >>> writer.add_schema({"label": {"type": "int64"}})
            0
            >>> writer.write_raw_data([{"label": 7}])
            >>> writer.commit()
            >>> next(FileReader(path).get_next())
            {'label': 7}
        """
        store, fields = self._store, self._store.schema.fields
        for index in range(len(store)):
            row = store.row(index, self._columns)
            yield {
                name: (
                    python_value(fields[name], value) if name in store.schema.raw_fields else value
                )
                for name, value in row.items()
            }

    def len(self) -> int:
        """The number of rows."""
        return len(self._store)

    def schema(self) -> dict:
        """The schema's fields: ``{name: {"type": ..., "shape": ...}}``."""
        return {n: dict(f) for n, f in self._store.schema.fields.items()}

    def close(self) -> None:
        """Close the files."""
        self._store.close()
