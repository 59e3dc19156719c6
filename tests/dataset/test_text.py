"""cellax.dataset.text against MindSpore 2.10 (values printed by the oracle for the same
calls: the beginner tutorial's tokenize -> Vocab.from_dataset -> Lookup pipeline)."""

import numpy as np
import pytest

import cellax
from cellax import dataset as ds
from cellax.dataset import text


def _tokens():
    data = ds.GeneratorDataset(
        ["Welcome to Beijing", "to to be or not Beijing"], "text", shuffle=False
    )
    return data.map(text.PythonTokenizer(lambda s: s.split()))


def test_tokenize_vocab_lookup_pipeline():
    data = _tokens()
    rows = [r[0] for r in data.create_tuple_iterator()]  # strings stay NumPy arrays
    assert isinstance(rows[0], np.ndarray) and rows[0].tolist() == ["Welcome", "to", "Beijing"]
    vocab = text.Vocab.from_dataset(data)
    assert vocab.vocab() == {"or": 5, "not": 4, "be": 3, "Welcome": 2, "Beijing": 1, "to": 0}
    special = text.Vocab.from_dataset(data, special_tokens=["<pad>", "<unk>"])
    assert special.tokens_to_ids(["to", "zzz"]) == [2, -1]
    assert special.ids_to_tokens([0, 3]) == ["<pad>", "Beijing"]
    top = text.Vocab.from_dataset(
        data, top_k=2, special_tokens=["<unk>"], special_first=False, freq_range=(1, 5)
    )
    assert top.vocab() == {"<unk>": 2, "Beijing": 1, "to": 0}
    ids = [r[0] for r in data.map(text.Lookup(vocab)).create_tuple_iterator(output_numpy=True)]
    assert [i.tolist() for i in ids] == [[2, 0, 1], [0, 0, 3, 5, 4, 1]]
    assert ids[0].dtype == np.int32
    with pytest.raises(RuntimeError):
        list(_tokens().map(text.Lookup(text.Vocab.from_list(["a"]))).create_tuple_iterator())


def test_vocab_builders_and_small_transforms():
    listed = text.Vocab.from_list(["a", "b", "c"], special_tokens=["<unk>"], special_first=True)
    assert listed.vocab() == {"<unk>": 0, "a": 1, "b": 2, "c": 3}
    assert listed.tokens_to_ids("c") == 3 and listed.tokens_to_ids(["c"]) == 3
    lookup = text.Lookup(listed, "<unk>", data_type=cellax.int64)
    out = lookup(np.array(["a", "zz"]))
    assert out.tolist() == [1, 0] and out.dtype == np.int64
    mapping = text.Vocab.from_dict({"x": 3, "y": 7})
    assert mapping.ids_to_tokens(5) == "" and mapping.tokens_to_ids(["q"]) == -1
    assert text.WhitespaceTokenizer()(np.array("hello  world x")).tolist() == [
        "hello",
        "world",
        "x",
    ]
    tokens, starts, ends = text.WhitespaceTokenizer(True)(np.array("ab  c"))
    assert tokens.tolist() == ["ab", "c"] and starts.tolist() == [0, 4] and ends.tolist() == [2, 5]
    assert text.ToNumber(cellax.int32)(np.array(["1", "22", "1.5"])).tolist() == [1, 22, 1]
    with pytest.raises(RuntimeError):
        text.ToNumber(cellax.int32)(np.array(["x"]))
