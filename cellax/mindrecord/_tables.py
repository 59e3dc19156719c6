"""The converters from tables to MindRecord: ``CsvToMR`` (column types inferred as pandas
infers them) and ``TFRecordToMR`` (through TensorFlow)."""

from __future__ import annotations

import csv
import importlib
import math
import os
import re
import string

import numpy as np

from ._images import SUCCESS, check_partitions, check_path, write_batches
from ._writer import FileWriter

__all__ = ["CsvToMR", "TFRecordToMR"]

# The strings pandas.read_csv reads as missing values by default.
_MISSING = frozenset(
    "|#N/A|#N/A N/A|#NA|-1.#IND|-1.#QNAN|-NaN|-nan|1.#IND|1.#QNAN|<NA>|N/A|NA|NULL|NaN|None|"
    "n/a|nan|null".split("|")
)
_INT = re.compile(r"\s*[+-]?\d+\s*")
_FLOAT = re.compile(r"\s*[+-]?((\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|inf|infinity)\s*", re.IGNORECASE)
_BOOLS = {"True": 1, "TRUE": 1, "true": 1, "False": 0, "FALSE": 0, "false": 0}
_INT64 = np.iinfo(np.int64)


def _column_type(values: list) -> str:
    """The MindRecord type of a CSV column: the pandas dtype ``read_csv`` infers, mapped as
    MindSpore maps it (int64, float64, bool -> int32, anything else -> string)."""
    present = [v for v in values if v is not None]
    if not present:
        return "float64"
    if len(present) == len(values):
        if all(_INT.fullmatch(v) and _INT64.min <= int(v) <= _INT64.max for v in present):
            return "int64"
        if all(v in _BOOLS for v in present):
            return "int32"
    if all(_INT.fullmatch(v) or _FLOAT.fullmatch(v) for v in present):
        return "float64"
    return "string"


def _value(kind: str, value):
    if kind == "int64":
        return int(value)
    if kind == "int32":
        return _BOOLS[value]
    if kind == "float64":
        return math.nan if value is None else float(value)
    # pandas gives NaN for a missing string; it does not fit the schema, so the writer drops
    # the row with a warning, as MindSpore does.
    return math.nan if value is None else value


class CsvToMR:
    """Convert a CSV file (a header line, then one row per line) to MindRecord. Each column
    becomes a field whose type is inferred as ``pandas.read_csv`` infers it: whole numbers ->
    ``int64``, numbers -> ``float64``, ``True``/``False`` -> ``int32`` (1/0), anything else ->
    ``string``; every field is indexed.

    Args:
        source (str): The CSV file.
        destination (str): The MindRecord file to write.
        columns_list (list[str], optional): The columns to convert. Default: ``None`` (all).
        partition_number (int, optional): Shard files. Default: ``1``.

    Raises:
        ValueError: If `source`, `destination` or `partition_number` is invalid, or
            `columns_list` is not a list of str.

    Differences from MindSpore: cellax parses the file itself (MindSpore needs pandas). Where
    MindSpore fails on a well-formed file, cellax writes it: a table of only numbers with a float
    column (pandas hands MindSpore the int columns as floats, and every row is dropped), and
    missing numbers (NaN) in an indexed field (MindSpore's index writer aborts the process).

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindrecord/mindspore.mindrecord.CsvToMR.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.mindrecord import CsvToMR, FileReader
        >>> folder = tempfile.mkdtemp()
        >>> with open(os.path.join(folder, "data.csv"), "w") as f:
        ...     _ = f.write("name,score,ok\\nada,1.5,True\\nbob,2,false\\n")
        >>> CsvToMR(os.path.join(folder, "data.csv"), os.path.join(folder, "data.mindrecord")).transform()
        >>> reader = FileReader(os.path.join(folder, "data.mindrecord"))
        >>> reader.schema()
        {'name': {'type': 'string'}, 'ok': {'type': 'int32'}, 'score': {'type': 'float64'}}
        >>> list(reader.get_next())
        [{'name': 'ada', 'ok': 1, 'score': 1.5}, {'name': 'bob', 'ok': 0, 'score': 2}]
    """

    _API = "CsvToMR"

    def __init__(self, source, destination, columns_list=None, partition_number=1) -> None:
        if not isinstance(source, str):
            raise ValueError(f"For '{self._API}', 'source' must be a str, but got {source!r}.")
        self.source = check_path(self._API, "source", source)
        if columns_list and (
            not isinstance(columns_list, list) or not all(isinstance(c, str) for c in columns_list)
        ):
            raise ValueError(
                f"For '{self._API}', 'columns_list' must be a list of str, but got "
                f"{columns_list!r}."
            )
        self.columns_list = columns_list
        if not isinstance(destination, str):
            raise ValueError(
                f"For '{self._API}', 'destination' must be a str, but got {destination!r}."
            )
        self.destination = check_path(self._API, "destination", destination)
        self.partition_number = check_partitions(self._API, partition_number)
        self.writer = FileWriter(destination, partition_number)

    def _read(self):
        with open(self.source, newline="", encoding="utf-8") as file:
            lines = list(csv.reader(file))
        if not lines:
            raise RuntimeError(f"For '{self._API}', {self.source} is empty: it has no header.")
        header, body = lines[0], [line for line in lines[1:] if line]
        columns = {}
        for i, name in enumerate(header):
            cells = [line[i] if i < len(line) else "" for line in body]
            columns[name] = [None if cell in _MISSING else cell for cell in cells]
        return columns, len(body)

    def run(self) -> int:
        """Convert, and return ``SUCCESS`` (0); see ``transform``."""
        if not os.path.exists(self.source):
            raise OSError(f"For '{self._API}', the CSV file {self.source} does not exist.")
        columns, count = self._read()
        names = self.columns_list or list(columns)
        for name in names:
            if name not in columns:
                raise RuntimeError(
                    f"For '{self._API}', the parameter columns_list is illegal, column {name} "
                    "does not exist."
                )
        kinds = {name: _column_type(columns[name]) for name in names}
        self.writer.set_header_size(1 << 24)
        self.writer.set_page_size(1 << 26)
        self.writer.add_schema({name: {"type": kind} for name, kind in kinds.items()}, "csv_schema")
        for name in names:
            if name[:1].isdigit():
                raise RuntimeError(
                    f"For '{self._API}', the column name {name!r} (the first line of the CSV "
                    "file) is an index field and must not start with a digit."
                )
        self.writer.add_index(list(names))
        rows = (
            {name: _value(kinds[name], columns[name][i]) for name in names} for i in range(count)
        )
        write_batches(self.writer, rows)
        return SUCCESS

    def transform(self) -> None:
        """Write the MindRecord files.

        Raises:
            OSError: If the CSV file does not exist.
            RuntimeError: If `columns_list` names a missing column, a column name starts with a
                digit, no row fits the schema, or the files exist.
        """
        self.run()


_PUNCTUATION = set(string.punctuation) - {"_"}


def _field_name(key: str) -> str:
    return "".join("_" if c in _PUNCTUATION else c for c in key)


class TFRecordToMR:
    """Convert a TFRecord file of ``tf.train.Example`` records to MindRecord, reading it with
    TensorFlow (``tensorflow`` must be installed). Punctuation in feature names becomes ``_``.

    Args:
        source (str): The TFRecord file.
        destination (str): The MindRecord file to write.
        feature_dict (dict[str, tf.io.FixedLenFeature]): The features: scalars (shape ``[]``)
            or 1-D lists (shape ``[n]``) of numbers.
        bytes_fields (list[str], optional): The ``tf.string`` scalar features to store as
            ``bytes`` (images) rather than as strings. Default: ``None``.

    Raises:
        ImportError: If TensorFlow is not installed.
        ValueError: If an argument is invalid.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindrecord/mindspore.mindrecord.TFRecordToMR.html

    Examples:
        >>> from cellax.mindrecord import TFRecordToMR
        >>> try:
        ...     TFRecordToMR("data.tfrecord", "data.mindrecord", {})
        ... except ImportError as error:
        ...     print("tensorflow" in str(error))
        ... except ValueError:
        ...     print(True)
        True
    """

    _API = "TFRecordToMR"

    def __init__(self, source, destination, feature_dict, bytes_fields=None) -> None:
        try:
            self.tf = importlib.import_module("tensorflow")
        except ImportError as error:
            raise ImportError(
                f"For '{self._API}', reading TFRecord files needs the 'tensorflow' package, "
                "which is not installed. Install it with: pip install tensorflow."
            ) from error
        tf = self.tf
        for name, value in (("source", source), ("destination", destination)):
            if not isinstance(value, str):
                raise ValueError(f"For '{self._API}', '{name}' must be a str, but got {value!r}.")
            check_path(self._API, name, value)
        if not feature_dict or not isinstance(feature_dict, dict):
            raise ValueError(
                f"For '{self._API}', 'feature_dict' must be a non-empty dict, but got "
                f"{feature_dict!r}."
            )
        for value in feature_dict.values():
            if not isinstance(value, tf.io.FixedLenFeature):
                raise ValueError(
                    f"For '{self._API}', 'feature_dict' supports only tf.io.FixedLenFeature, "
                    f"but got {value!r}."
                )
        self.source, self.destination, self.feature_dict = source, destination, feature_dict
        self.bytes_fields_list = []
        for item in bytes_fields or []:
            if not isinstance(item, str) or item not in feature_dict:
                raise ValueError(
                    f"For '{self._API}', each item of 'bytes_fields' must be a key of "
                    f"'feature_dict', but got {item!r}."
                )
            if feature_dict[item].dtype != tf.string:
                raise ValueError(
                    f"For '{self._API}', the bytes field {item!r} must be tf.string in "
                    "'feature_dict'."
                )
            self.bytes_fields_list.append(_field_name(item))
        self.mindrecord_schema = self._schema()

    def _type(self, dtype) -> str:
        tf = self.tf
        types = {
            tf.string: "string",
            tf.int8: "int32",
            tf.int16: "int32",
            tf.int32: "int32",
            tf.int64: "int64",
            tf.uint8: "int32",
            tf.uint16: "int32",
            tf.uint32: "int64",
            tf.uint64: "int64",
            tf.float16: "float32",
            tf.float32: "float32",
            tf.float64: "float64",
            tf.bool: "int32",
        }
        if dtype not in types:
            raise ValueError(f"For '{self._API}', type {dtype} is not supported in MindRecord.")
        return types[dtype]

    def _schema(self) -> dict:
        schema = {}
        for key, feature in self.feature_dict.items():
            name = _field_name(key)
            shape = list(feature.shape)
            if not shape:
                kind = "bytes" if name in self.bytes_fields_list else self._type(feature.dtype)
                schema[name] = {"type": kind}
                continue
            if len(shape) != 1 or not isinstance(shape[0], int) or shape[0] < 1:
                raise ValueError(
                    f"For '{self._API}', the shape of feature {key!r} must be [] or [n] with "
                    f"n > 0, but got {shape}."
                )
            if feature.dtype == self.tf.string:
                raise ValueError(
                    f"For '{self._API}', feature {key!r} is a list of tf.string, which "
                    "MindRecord does not support."
                )
            schema[name] = {"type": self._type(feature.dtype), "shape": shape}
        return schema

    def _rows(self):
        tf = self.tf
        dataset = tf.data.TFRecordDataset(self.source).map(
            lambda example: tf.io.parse_single_example(example, features=self.feature_dict)
        )
        try:
            for sample in dataset:
                row = {}
                for key, value in sample.items():
                    name, value = _field_name(key), value.numpy()
                    field = self.mindrecord_schema[name]
                    if "shape" in field:
                        row[name] = np.asarray(value, field["type"])
                    elif field["type"] == "bytes":
                        row[name] = bytes(value)
                    elif field["type"] == "string":
                        row[name] = str(value, encoding="utf-8")
                    elif field["type"].startswith("int"):
                        row[name] = int(value)
                    else:
                        row[name] = float(value)
                yield row
        except tf.errors.InvalidArgumentError as error:
            raise ValueError(
                f"For '{self._API}', the records do not match 'feature_dict': {error}"
            ) from error

    def run(self) -> int:
        """Convert, and return ``SUCCESS`` (0); see ``transform``."""
        writer = FileWriter(self.destination)
        writer.add_schema(self.mindrecord_schema, "TFRecord to MindRecord")
        write_batches(writer, self._rows())
        return SUCCESS

    def transform(self) -> None:
        """Write the MindRecord files.

        Raises:
            ValueError: If the records do not match ``feature_dict``.
            RuntimeError: If the files exist.
        """
        self.run()
