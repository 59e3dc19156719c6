"""cellax.dataset.text's SentencePiece, Jieba and Unicode-script tokenizers against MindSpore
2.10's outputs for the same cases (tests/goldens/text_native_cases.py, recorded into
text_native.json by record_text_native.py). SentencePiece and script cases need the ``text``
extra and skip without it."""

import importlib.util
import json
import os
import sys

import numpy as np
import pytest

from cellax import dataset as ds
from cellax.dataset import text

GOLDENS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens")
sys.path.insert(0, GOLDENS)
import text_native_cases as tc  # noqa: E402

with open(os.path.join(GOLDENS, "text_native.json"), encoding="utf-8") as _f:
    EXPECTED = json.load(_f)
NEEDS = {"spm": "sentencepiece", "unicode": "regex"}


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    return tc.cases(text, ds, str(tmp_path_factory.mktemp("text_native")), GOLDENS)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_matches_mindspore(name, cases):
    package = NEEDS.get(name.split("_")[0])
    if package and importlib.util.find_spec(package) is None:
        pytest.skip(f"needs the '{package}' package (the 'text' extra)")
    if name == "spm_from_file_UNIGRAM_STRING" or name == "spm_from_file_UNIGRAM_INT":
        pytest.skip("SentencePiece's unigram trainer changed after the 0.1.92 MindSpore bundles")
    assert cases[name]() == EXPECTED[name]


def test_sentencepiece_unigram_trains(tmp_path):
    pytest.importorskip("sentencepiece")
    paths = tc.make_files(str(tmp_path))
    vocab = text.SentencePieceVocab.from_file(
        [paths["corpus.txt"]], 50, 1.0, text.SentencePieceModel.UNIGRAM, {}
    )
    tokenizer = text.SentencePieceTokenizer(vocab, text.SPieceTokenizerOutType.STRING)
    pieces = tokenizer(np.array(tc.SENTENCES[0])).tolist()
    assert "".join(pieces).replace("▁", " ").strip() == tc.SENTENCES[0]
    text.SentencePieceVocab.save_model(vocab, str(tmp_path), "u.model")
    again = text.SentencePieceTokenizer(str(tmp_path / "u.model"), text.SPieceTokenizerOutType.INT)
    ids = again(np.array(tc.SENTENCES[0]))
    assert ids.dtype == np.int32 and len(ids) == len(pieces)


def test_bad_arguments(tmp_path):
    paths = tc.make_files(str(tmp_path))
    with pytest.raises(ValueError, match="does not exist"):
        text.JiebaTokenizer(paths["hmm_model.utf8"], str(tmp_path / "missing"))
    with pytest.raises(TypeError, match="JiebaMode"):
        text.JiebaTokenizer(paths["hmm_model.utf8"], paths["jieba.dict.utf8"], 1)
    with pytest.raises(ValueError, match="word frequency tag"):
        text.JiebaTokenizer(paths["hmm_model.utf8"], paths["user.dict.utf8"])
    tokenizer = text.JiebaTokenizer(paths["hmm_model.utf8"], paths["jieba.dict.utf8"])
    with pytest.raises(ValueError, match="freq"):
        tokenizer.add_word("词", -1)
    with pytest.raises(RuntimeError, match="string scalar"):
        tokenizer(np.array(["a", "b"]))
    with pytest.raises(NotImplementedError, match="ICU"):
        text.FilterWikipediaXML()
    if importlib.util.find_spec("sentencepiece") is not None:
        with pytest.raises(TypeError, match="SentencePieceModel"):
            text.SentencePieceVocab.from_file([paths["corpus.txt"]], 50, 1.0, "bpe", {})
        with pytest.raises(ValueError, match="does not exist"):
            text.SentencePieceTokenizer(str(tmp_path / "no.model"), text.SPieceTokenizerOutType.INT)
