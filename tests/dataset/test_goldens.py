"""cellax.dataset pipelines against MindSpore 2.10 goldens (tests/goldens/record_dataset.py):
column order, sizes, every row's values and dtypes, and MindSpore's exact shuffle orders."""

import json
import os
import sys

import numpy as np
import pytest

from cellax import dataset as ds

GOLDENS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "goldens")
sys.path.insert(0, GOLDENS)
import dataset_cases as dc  # noqa: E402

with open(os.path.join(GOLDENS, "dataset.json")) as f:
    GOLDEN = json.load(f)


def _assert_rows_equal(got, want, name):
    assert len(got) == len(want), name
    for row_got, row_want in zip(got, want):
        assert len(row_got) == len(row_want), name
        for (value, dtype), (value_want, dtype_want) in zip(row_got, row_want):
            assert dtype == dtype_want, name
            if dtype.startswith("float"):
                # vision chains run float32 arithmetic; allow float32 rounding
                np.testing.assert_allclose(value, value_want, rtol=1e-6, atol=1e-6)
            else:
                assert value == value_want, name


@pytest.mark.parametrize("name", sorted(dc.CASES))
def test_pipeline_matches_mindspore(name):
    build, epochs = dc.CASES[name]
    want = GOLDEN[name]
    got = dc.run(build(ds), epochs)
    assert got["columns"] == want["columns"]
    assert got["size"] == want["size"]
    assert len(got["epochs"]) == len(want["epochs"]) == epochs
    for got_epoch, want_epoch in zip(got["epochs"], want["epochs"]):
        _assert_rows_equal(got_epoch, want_epoch, name)


def test_shuffle_orders_change_per_epoch_and_repeat_per_iterator():
    ds.config.set_seed(5)
    data = ds.NumpySlicesDataset(np.arange(10), shuffle=True)
    first = data.create_tuple_iterator(num_epochs=2, output_numpy=True)
    epoch0 = [int(r[0]) for r in first]
    epoch1 = [int(r[0]) for r in first]
    again = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert epoch0 != epoch1 and sorted(epoch0) == list(range(10))
    assert again == epoch0
    assert again == [r[0][0] for r in GOLDEN["random_sampler/5/10"]["epochs"][0]]
