"""Cases of the ``dataset.text`` transforms: each builds a transform from a ``text`` module
and a vocabulary, and calls it on NumPy input. record_text.py runs them on MindSpore 2.10,
tests/dataset/test_text_goldens.py on cellax."""

import numpy as np

WORDS = [
    "[UNK]",
    "[CLS]",
    "[SEP]",
    "my",
    "favor",
    "##ite",
    "book",
    "is",
    "love",
    "dur",
    "##ing",
    "the",
    "cholera",
    "era",
    "what",
    "we",
    "##e",
    "了",
    "很",
    "好",
    ",",
    "!",
    ".",
]
SENTENCE = np.array("Welcome to   Beijing! Hello,World 北京欢迎你")
MIXED = np.array(" I Love  the Café\u00e9 ÇA, déjà-vu\t12.5 ")
BERT_INPUT = np.array("My favorite book is Love During the Cholera Era. 很好!")


def cases(t, vocab, float32):
    """name -> (transform, input); ``float32`` is the framework's dtype."""
    return {
        "whitespace": (t.WhitespaceTokenizer(), SENTENCE),
        "whitespace_offsets": (t.WhitespaceTokenizer(with_offsets=True), SENTENCE),
        "unicode_char": (t.UnicodeCharTokenizer(), np.array("ab 北京")),
        "unicode_char_offsets": (t.UnicodeCharTokenizer(True), np.array("ab 北京")),
        "regex_tokenizer": (t.RegexTokenizer(r"\s+|,"), SENTENCE),
        "regex_tokenizer_keep": (t.RegexTokenizer(r"\s+", r"\s+"), SENTENCE),
        "regex_tokenizer_offsets": (t.RegexTokenizer(r"\s+", r"\s+", True), SENTENCE),
        "regex_replace": (t.RegexReplace(r"\s+", "_"), SENTENCE),
        "regex_replace_once": (t.RegexReplace(r"o", "0", replace_all=False), SENTENCE),
        "case_fold": (t.CaseFold(), MIXED),
        "case_fold_array": (t.CaseFold(), np.array(["ABC", "Straße"])),
        "normalize_nfd": (t.NormalizeUTF8(t.NormalizeForm.NFD), MIXED),
        "normalize_nfkc": (t.NormalizeUTF8(t.NormalizeForm.NFKC), np.array("ｆｕｌｌ ①")),
        "ngram_2": (t.Ngram(2), np.array(["a", "b", "c", "d"])),
        "ngram_pad": (t.Ngram([2, 3], ("_", 1), ("_", 1), "-"), np.array(["a", "b", "c"])),
        "ngram_short": (t.Ngram(5), np.array(["a", "b"])),
        "sliding_window": (t.SlidingWindow(2, 0), np.array([1, 2, 3, 4])),
        "sliding_window_2d": (t.SlidingWindow(2, -1), np.array([[1, 2, 3], [4, 5, 6]])),
        "truncate": (t.Truncate(2), np.array(["a", "b", "c"])),
        "truncate_pair": (t.TruncateSequencePair(4), (np.array([1, 2, 3]), np.array([4, 5, 6]))),
        "truncate_pair_short": (t.TruncateSequencePair(9), (np.array([1, 2]), np.array([4]))),
        "add_token_begin": (t.AddToken("TOKEN", True), np.array(["a", "b"])),
        "add_token_end": (t.AddToken("END", False), np.array(["a", "b"])),
        "lookup": (t.Lookup(vocab, "[UNK]"), np.array(["my", "zzz", "book"])),
        "to_number_float": (t.ToNumber(float32), np.array(["1.5", "-2", "3e2"])),
        "wordpiece": (t.WordpieceTokenizer(vocab), np.array(["my", "favorite", "during", "zzz"])),
        "wordpiece_offsets": (
            t.WordpieceTokenizer(vocab, with_offsets=True),
            np.array(["my", "favorite", "during", "zzz"]),
        ),
        "wordpiece_unk_empty": (
            t.WordpieceTokenizer(vocab, unknown_token=""),
            np.array(["favorite", "zzz"]),
        ),
        "basic": (t.BasicTokenizer(), BERT_INPUT),
        "basic_lower": (t.BasicTokenizer(lower_case=True), MIXED),
        "basic_keep_ws": (t.BasicTokenizer(keep_whitespace=True), MIXED),
        "basic_offsets": (t.BasicTokenizer(lower_case=True, with_offsets=True), MIXED),
        "basic_unused": (t.BasicTokenizer(), np.array("a [UNK] b[CLS] [unused1] [foo]")),
        "bert": (t.BertTokenizer(vocab, lower_case=True), BERT_INPUT),
        "bert_offsets": (t.BertTokenizer(vocab, lower_case=True, with_offsets=True), BERT_INPUT),
        "bert_cased": (t.BertTokenizer(vocab), BERT_INPUT),
    }


def vocab_words():
    return list(WORDS)


def outputs(result):
    """A transform's result as JSON: a list of {"dtype", "shape", "value"}."""
    arrays = result if isinstance(result, (tuple, list)) else [result]
    out = []
    for array in arrays:
        array = np.asarray(array)
        kind = "str" if array.dtype.kind in "US" else str(array.dtype)
        value = array.astype(str).tolist() if kind == "str" else array.tolist()
        out.append({"dtype": kind, "shape": list(array.shape), "value": value})
    return out
