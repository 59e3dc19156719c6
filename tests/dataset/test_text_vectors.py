"""Word vectors (Vectors, GloVe, FastText, CharNGram), ToVectors and transforms.PadEnd against
MindSpore 2.10 (tests/goldens/text_vectors_cases.py, recorded into text_vectors.json by
record_text_vectors.py)."""

import json
import os
import sys

import pytest

from cellax.dataset import text, transforms

GOLDENS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens")
sys.path.insert(0, GOLDENS)
import text_vectors_cases as vc  # noqa: E402

with open(os.path.join(GOLDENS, "text_vectors.json"), encoding="utf-8") as _f:
    EXPECTED = json.load(_f)


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    folder = str(tmp_path_factory.mktemp("vectors"))
    vc.write_files(folder)
    return vc.cases(text, transforms, folder)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_matches_mindspore(cases, name):
    expected = EXPECTED[name]
    if "error" in expected:
        with pytest.raises((TypeError, ValueError, RuntimeError)) as info:
            cases[name]()
        assert type(info.value).__name__ == expected["error"]
        assert "For '" in str(info.value)
    else:
        assert vc.outputs(cases[name]()) == expected


def test_pad_end_none_keeps_the_dimension():
    import numpy as np

    out = transforms.PadEnd([2, None], 7)(np.array([[1, 2, 3]]))
    assert out.tolist() == [[1, 2, 3], [7, 7, 7]]
