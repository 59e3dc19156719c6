"""``MindDataset``: the rows of MindRecord files (MindSpore's own dataset format)."""

from __future__ import annotations

import numpy as np

from ..mindrecord._reader import ShardSet, _check_files
from ._dataset import to_list
from ._samplers import Shuffle
from ._sources import SourceDataset, build_sampler

__all__ = ["MindDataset"]

_API = "MindDataset"


def _column(field: dict, value) -> np.ndarray:
    """A field's value as MindDataset gives it: scalars as 0-d arrays of the schema's type,
    strings as 0-d str arrays, ``bytes`` as a 1-element bytes array, arrays as they are."""
    kind = field["type"]
    if "shape" in field:
        return np.asarray(value, kind)
    if kind == "bytes":
        data = bytes(value)
        return np.array([data], dtype=f"S{max(len(data), 1)}")
    if kind == "string":
        return np.array(str(value))
    return np.array(value, kind)


class _Reader:
    """Rows of a ShardSet as tuples of the chosen columns, then ``num_padded`` copies of the
    padded sample."""

    def __init__(self, store: ShardSet, columns: list[str], padded: tuple | None, count: int):
        self.store, self.columns, self.padded, self.count = store, columns, padded, count
        self.fields = [store.schema.fields[c] for c in columns]

    def __len__(self):
        return len(self.store) + self.count

    def __getitem__(self, index):
        if index >= len(self.store):
            return self.padded
        row = self.store.row(index, self.columns)
        return tuple(_column(f, row[c]) for f, c in zip(self.fields, self.columns))


def _shuffles(shuffle) -> bool | None:
    if shuffle is None or isinstance(shuffle, bool):
        return shuffle
    if isinstance(shuffle, Shuffle):
        return shuffle is not Shuffle.FALSE
    raise TypeError(
        f"For '{_API}', 'shuffle' must be a bool or a dataset.Shuffle, but got {shuffle!r}."
    )


class MindDataset(SourceDataset):
    """The rows of MindRecord files (written by ``mindrecord.FileWriter`` of MindSpore or of
    cellax).

    Columns are the schema's fields in name order (or ``columns_list``): int and float fields as
    0-d arrays of their type, ``string`` as 0-d str arrays, ``bytes`` as 1-element bytes arrays
    and array fields as arrays of their shape. Rows come in file order, then in the order they
    were written.

    Args:
        dataset_files (Union[str, list[str]]): One shard file (every shard of its set is read)
            or a list of shard files (only those are read).
        columns_list (list[str], optional): The columns to read. Default: ``None`` (all).
        num_parallel_workers (int, optional): Reader workers. Default: ``None``.
        shuffle (Union[bool, Shuffle], optional): Shuffle the rows. Default: ``None`` (True).
        num_shards (int, optional): Number of shards to divide the rows into. Default: ``None``.
        shard_id (int, optional): This shard. Default: ``None``.
        sampler (Sampler, optional): A sampler. Default: ``None``.
        padded_sample (dict, optional): A row (every column of `columns_list`) added
            `num_padded` times after the file rows so that the shards divide evenly.
            Default: ``None``.
        num_padded (int, optional): How many padded rows. Default: ``None``.
        num_samples (int, optional): The most rows read. Default: ``None`` (all).
        cache: Not supported (must be ``None``).

    Raises:
        RuntimeError: If a file or its index file is missing or not MindRecord, or the shards
            do not divide the padded rows evenly.
        ValueError: If `columns_list` names a field that is not in the schema, or arguments
            are wrong.

    Differences from MindSpore: ``Shuffle.FILES`` and ``Shuffle.INFILE`` shuffle every row like
    ``Shuffle.GLOBAL``, and shuffled orders differ from MindSpore's (the same rows, another
    permutation).

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> from cellax.mindrecord import FileWriter
        >>> path = os.path.join(tempfile.mkdtemp(), "test.mindrecord")
        >>> writer = FileWriter(path)
        >>> writer.add_schema({"label": {"type": "int32"}, "x": {"type": "float32", "shape": [2]}})
        0
        >>> writer.write_raw_data([{"label": i, "x": np.full(2, i, np.float32)} for i in range(4)])
        >>> writer.commit()
        >>> data = ds.MindDataset(path, shuffle=False)
        >>> data.get_col_names(), data.get_dataset_size()
        (['label', 'x'], 4)
        >>> [int(row["label"]) for row in data.create_dict_iterator(output_numpy=True)]
        [0, 1, 2, 3]
    """

    def __init__(
        self,
        dataset_files,
        columns_list=None,
        num_parallel_workers=None,
        shuffle=None,
        num_shards=None,
        shard_id=None,
        sampler=None,
        padded_sample=None,
        num_padded=None,
        num_samples=None,
        cache=None,
    ):
        if cache is not None:
            raise ValueError(f"For '{_API}', 'cache' is not supported by cellax.")
        store = ShardSet(_API, _check_files(_API, dataset_files))
        fields = store.schema.fields
        columns = to_list(_API, "columns_list", columns_list)
        if columns is None:
            columns = list(fields)
        missing = [c for c in columns if c not in fields]
        if missing:
            raise ValueError(
                f"For '{_API}', the columns {missing} of 'columns_list' are not in the schema "
                f"(fields: {list(fields)})."
            )
        padded, count = self._padding(store, columns, padded_sample, num_padded, num_shards)
        sampler = build_sampler(
            _API, num_samples, _shuffles(shuffle), sampler, num_shards, shard_id, True
        )
        reader = _Reader(store, columns, padded, count)
        super().__init__(reader, columns, sampler, num_parallel_workers, False)

    @staticmethod
    def _padding(store, columns, padded_sample, num_padded, num_shards):
        if padded_sample is None:
            if num_padded not in (None, 0):
                raise RuntimeError(f"For '{_API}', 'num_padded' needs a 'padded_sample'.")
            return None, 0
        if not isinstance(padded_sample, dict):
            raise TypeError(f"For '{_API}', 'padded_sample' must be a dict of column values.")
        if num_shards is None:
            raise RuntimeError(f"For '{_API}', 'padded_sample' needs 'num_shards' and 'shard_id'.")
        count = 0 if num_padded is None else num_padded
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ValueError(
                f"For '{_API}', 'num_padded' must be a non-negative int, but got {num_padded!r}."
            )
        missing = [c for c in columns if c not in padded_sample]
        if missing:
            raise RuntimeError(
                f"For '{_API}', 'padded_sample' needs a value for every column read, but "
                f"{missing} are missing (or choose the columns with 'columns_list')."
            )
        if (len(store) + count) % num_shards:
            raise RuntimeError(
                f"For '{_API}', the number of rows ({len(store)}) plus 'num_padded' ({count}) "
                f"must be divisible by 'num_shards' ({num_shards})."
            )
        fields = store.schema.fields
        padded = tuple(_column(fields[c], padded_sample[c]) for c in columns)
        return padded, count
