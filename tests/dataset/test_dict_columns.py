"""Dict columns (a GeneratorDataset source returning dicts, as mindyolo's evaluation dataset
does) against MindSpore 2.10 (tests/goldens/record_dataset_dicts.py -> dataset_dicts.json)."""

import os
import sys

import pytest

from cellax import dataset as ds

from .._goldens import load_json

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "goldens"))
import dataset_dict_cases as cases  # noqa: E402

GOLDEN = load_json("dataset_dicts.json")


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_dict_columns_match_mindspore(name):
    assert cases.run(ds, name) == GOLDEN[name]


def test_nested_dict_batch_error_names_the_key():
    dataset = ds.GeneratorDataset(cases.Samples(nested=True), ["samples"], shuffle=False)
    with pytest.raises(RuntimeError, match="column 'samples', key: 'sub'"):
        next(dataset.batch(2).create_tuple_iterator(output_numpy=True))
