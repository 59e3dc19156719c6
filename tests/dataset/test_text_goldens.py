"""cellax.dataset.text's transforms against MindSpore 2.10's outputs for the same cases
(tests/goldens/text_cases.py, recorded into text.json by record_text.py)."""

import json
import os
import sys

import numpy as np
import pytest

import cellax
from cellax.dataset import text

GOLDENS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens")
sys.path.insert(0, GOLDENS)
import text_cases as tc  # noqa: E402

with open(os.path.join(GOLDENS, "text.json"), encoding="utf-8") as _f:
    EXPECTED = json.load(_f)
CASES = tc.cases(text, text.Vocab.from_list(tc.vocab_words()), cellax.float32)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_matches_mindspore(name):
    op, data = CASES[name]
    want = EXPECTED[name]
    if "error" in want:
        with pytest.raises(getattr(__builtins__, want["error"], RuntimeError)):
            op(*data) if isinstance(data, tuple) else op(data)
        return
    got = op(*data) if isinstance(data, tuple) else op(data)
    assert tc.outputs(got) == want


def test_unavailable_transforms_raise_clearly():
    with pytest.raises(NotImplementedError, match="ICU"):
        text.FilterWikipediaXML()


def test_vocab_from_file(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("a 1\nb 2\nc 3\n", encoding="utf-8")
    vocab = text.Vocab.from_file(str(path), " ", vocab_size=2, special_tokens=["<unk>"])
    assert vocab.tokens_to_ids(["<unk>", "a", "b", "c"]) == [0, 1, 2, -1]
    assert np.asarray(text.Lookup(vocab, "<unk>")(np.array(["c", "a"]))).tolist() == [0, 1]
