"""Dict columns in dataset pipelines, run under MindSpore (record_dataset_dicts.py) and cellax
(tests/dataset/test_dict_columns.py): a ``GeneratorDataset`` whose ``__getitem__`` returns a
dict (as mindyolo's evaluation dataset does), read through the iterators, ``map``, ``batch``
and ``batch(per_batch_map=...)``. Each case returns JSON: values as lists with their type names.
"""

import numpy as np


class Samples:
    """Three rows, each one dict: an array, a str, an int and (nested=True) a nested dict."""

    def __init__(self, nested=False):
        self.nested = nested

    def __getitem__(self, i):
        row = {"a": np.array([i, i], np.int32), "name": f"f{i}", "n": i}
        if self.nested:
            row["sub"] = {"z": 1.5}
        return row

    def __len__(self):
        return 3


def describe(value):
    """JSON for a value that came out of a pipeline: its type name and contents."""
    if isinstance(value, dict):
        return {"dict": {k: describe(v) for k, v in value.items()}}
    if isinstance(value, (list, tuple)):
        return {type(value).__name__: [describe(v) for v in value]}
    if isinstance(value, np.ndarray):
        return {"ndarray": [value.tolist(), str(value.dtype)]}
    if type(value).__name__ == "Tensor":
        array = value.asnumpy()
        return {"Tensor": [array.tolist(), str(array.dtype)]}
    if isinstance(value, np.generic):
        return {f"numpy.{type(value).__name__}": value.item()}
    return {type(value).__name__: value}


def _source(ds, nested=False):
    return ds.GeneratorDataset(Samples(nested), column_names=["samples"], shuffle=False)


def _rows(dataset, output_numpy=True, tuples=False):
    make = dataset.create_tuple_iterator if tuples else dataset.create_dict_iterator
    return [describe(row) for row in make(output_numpy=output_numpy, num_epochs=1)]


def _collate_seen(ds):
    seen = []

    def collate(samples, info):
        seen.append(describe(samples))
        return [s.pop("a") for s in samples], [s["name"] for s in samples]

    batched = _source(ds).batch(
        2, per_batch_map=collate, input_columns=["samples"], output_columns=["x", "names"]
    )
    return {"rows": _rows(batched), "seen": seen}


def _map_seen(ds):
    seen = []

    def double(sample):
        seen.append(describe(sample))
        return sample["n"] * 2

    mapped = _source(ds).map(double, input_columns=["samples"], output_columns=["n2"])
    return {"rows": _rows(mapped), "seen": seen}


CASES = {
    "dict_iterator": lambda ds: _rows(_source(ds, nested=True)),
    "tuple_iterator_tensors": lambda ds: _rows(_source(ds), output_numpy=False, tuples=True),
    "per_batch_map": _collate_seen,
    "map": _map_seen,
    "map_identity": lambda ds: _rows(_source(ds, nested=True).map(lambda d: d, ["samples"])),
    "batch": lambda ds: _rows(_source(ds).batch(2)),
    "batch_nested": lambda ds: _rows(_source(ds, nested=True).batch(2)),
}


def run(ds, name):
    """The case's JSON, or the exception type it raised."""
    try:
        return {"result": CASES[name](ds)}
    except Exception as error:  # noqa: BLE001 - the outcome is what gets compared
        return {"error": type(error).__name__}
