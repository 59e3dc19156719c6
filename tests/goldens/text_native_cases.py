"""Cases of the ``dataset.text`` transforms that MindSpore builds on native libraries
(SentencePiece, cppjieba, ICU scripts). ``make_files`` writes the small generated inputs (a
corpus, a jieba dictionary and HMM model) into a folder; ``cases`` builds each transform from a
``text`` module and calls it. record_text_native.py runs them on MindSpore 2.10,
tests/dataset/test_text_native_goldens.py on cellax."""

import os
import random

import numpy as np

WORDS = "the cat sat on mat dog ran far away from home quick brown fox jumps over lazy river "
WORDS += "stone light night sleep dream tokenizer piece sentence"
SENTENCES = [
    "the quick brown fox sleeps tonight on a stone",
    "a lazy dog dreams of the river",
    "Tokenizers piece sentences together!",
    "",
]
# The tokenizations of this model (trained by MindSpore, stored next to this file) are compared,
# since SentencePiece's unigram trainer changed after the version MindSpore bundles.
UNIGRAM_MODEL = "text_native_unigram.model"
SCRIPT_STRINGS = [
    "Hello, мир! 北京2024年 ok",
    "café  e\u0301x ab-cd 12.5%",
    "  ",
    "",
    "αβγ\tдом\n日本語テキスト한국어",
    "a\u0301\u0301 \u0300b",
    "x__y...z!!",
    "😀😀 ok",
    "ｆｕｌｌ\u3000width\u00a0nbsp\u200bzw",
    "Ελληνικά_العربية123עברית",
    "ひらがなカタカナー漢字ABC",
]
JIEBA_DICT = [
    ("我", 300, "r"),
    ("来到", 100, "v"),
    ("来", 150, "v"),
    ("到", 120, "v"),
    ("北京", 200, "ns"),
    ("清华", 80, "nz"),
    ("清华大学", 60, "nt"),
    ("大学", 150, "n"),
    ("学", 40, "v"),
    ("今天", 90, "t"),
    ("天气", 110, "n"),
    ("天", 70, "n"),
    ("很", 200, "d"),
    ("好", 180, "a"),
    ("中国", 200, "ns"),
    ("科学", 90, "n"),
    ("科学院", 40, "n"),
    ("中国科学院", 20, "nt"),
    ("计算", 60, "v"),
    ("计算所", 10, "n"),
    ("研究", 100, "v"),
    ("研究生", 50, "n"),
    ("生命", 70, "n"),
    ("命", 30, "n"),
    ("起源", 40, "n"),
]
JIEBA_STRINGS = [
    "我来到北京清华大学",
    "今天天气很好，研究生命起源。",
    "小明硕士毕业于中国科学院计算所",
    "他来到了网易杭研大厦 ok GPU3.5版",
    "Hello world 12.34 abc123",
    "",
]
HMM_STATES = "BEMS"


def _random_strings(alphabet, count, seed):
    rng = random.Random(seed)
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(1, 16))) for _ in range(count)]


# Seeded draws over the dictionaries' characters, ASCII letters, digits, dots and separators
# (ties and overlapping words in the DAG, the HMM's ASCII rules), and over many scripts.
JIEBA_STRINGS += _random_strings(
    sorted(set("".join(w for w, _, _ in JIEBA_DICT))) + list("小明了ab1.9 ，。\t"), 40, 3
)
SCRIPT_STRINGS += _random_strings(
    list("aZé\u0301\u0300 \t\u3000\u00a0.,-_!1٣北京ひカーдЖαΩאبक한ไ😀\u200b"), 40, 5
)


def corpus_lines():
    """200 lines of words from a fixed list (a seeded draw)."""
    rng = random.Random(7)
    words = WORDS.split()
    return [" ".join(rng.choice(words) for _ in range(rng.randint(4, 10))) for _ in range(200)]


def _hmm_lines():
    rng = random.Random(11)
    chars = sorted(set("".join(w for w, _, _ in JIEBA_DICT) + "小明硕士毕业于他了网易杭研大厦版"))
    lines = ["#prob_start", "-0.26 -3.14e+100 -3.14e+100 -1.46", "#prob_trans"]
    lines += [
        "-3.14e+100 -0.51 -0.92 -3.14e+100",
        "-0.59 -3.14e+100 -3.14e+100 -0.81",
        "-3.14e+100 -0.33 -1.26 -3.14e+100",
        "-0.72 -3.14e+100 -3.14e+100 -0.67",
    ]
    lines.append("#prob_emit")
    for state in HMM_STATES:
        lines.append(f"#{state}")
        lines.append(",".join(f"{c}:{-rng.uniform(3.0, 12.0):.6f}" for c in chars))
    return lines


def make_files(folder):
    """Write corpus.txt, jieba.dict.utf8, hmm_model.utf8 and user.dict.utf8 into ``folder``."""
    files = {
        "corpus.txt": corpus_lines(),
        "jieba.dict.utf8": [f"{w} {f} {t}" for w, f, t in JIEBA_DICT],
        "hmm_model.utf8": _hmm_lines(),
        "user.dict.utf8": ["小明 50", "网易 40", "杭研"],
    }
    for name, lines in files.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
    return {name: os.path.join(folder, name) for name in files}


def _run(op, strings):
    out = []
    for s in strings:
        try:
            out.append(outputs(op(np.array(s))))
        except Exception as error:  # recorded: the implementation must raise the same type
            out.append({"error": type(error).__name__})
    return out


def cases(t, ds, folder, goldens):
    """name -> a function returning the case's outputs (JSON); ``ds`` is the dataset module,
    ``folder`` holds make_files' files, ``goldens`` this folder (for UNIGRAM_MODEL)."""
    paths = make_files(folder)
    out = {}
    for model, size in (("BPE", 60), ("CHAR", 30), ("WORD", 25), ("UNIGRAM", 50)):
        for kind in ("STRING", "INT"):

            def from_file(model=model, size=size, kind=kind):
                model_type = getattr(t.SentencePieceModel, model)
                vocab = t.SentencePieceVocab.from_file(
                    [paths["corpus.txt"]], size, 1.0, model_type, {}
                )
                tokenizer = t.SentencePieceTokenizer(vocab, getattr(t.SPieceTokenizerOutType, kind))
                return _run(tokenizer, SENTENCES)

            out[f"spm_from_file_{model}_{kind}"] = from_file

    def from_dataset():
        data = ds.NumpySlicesDataset({"text": corpus_lines()}, shuffle=False)
        vocab = t.SentencePieceVocab.from_dataset(
            data, ["text"], 60, 1.0, t.SentencePieceModel.BPE, {}
        )
        vocab_file = os.path.join(folder, "saved_bpe.model")
        t.SentencePieceVocab.save_model(vocab, folder, "saved_bpe.model")
        tokenizer = t.SentencePieceTokenizer(vocab_file, t.SPieceTokenizerOutType.STRING)
        return _run(tokenizer, SENTENCES)

    out["spm_from_dataset_BPE_save_model"] = from_dataset
    for kind in ("STRING", "INT"):

        def from_model(kind=kind):
            path = os.path.join(goldens, UNIGRAM_MODEL)
            tokenizer = t.SentencePieceTokenizer(path, getattr(t.SPieceTokenizerOutType, kind))
            return _run(tokenizer, SENTENCES)

        out[f"spm_model_file_UNIGRAM_{kind}"] = from_model
    for keep in (False, True):
        for offsets in (False, True):

            def script(keep=keep, offsets=offsets):
                return _run(t.UnicodeScriptTokenizer(keep, offsets), SCRIPT_STRINGS)

            out[f"unicode_script_keep{int(keep)}_offsets{int(offsets)}"] = script
    for mode in ("MIX", "MP", "HMM"):
        for offsets in (False, True):

            def jieba(mode=mode, offsets=offsets):
                op = t.JiebaTokenizer(
                    paths["hmm_model.utf8"],
                    paths["jieba.dict.utf8"],
                    getattr(t.JiebaMode, mode),
                    offsets,
                )
                return _run(op, JIEBA_STRINGS)

            out[f"jieba_{mode}_offsets{int(offsets)}"] = jieba

        def jieba_words(mode=mode):
            op = t.JiebaTokenizer(
                paths["hmm_model.utf8"], paths["jieba.dict.utf8"], getattr(t.JiebaMode, mode)
            )
            op.add_word("小明")
            op.add_word("杭研大厦", 5)
            op.add_word("天气很好", 1000)
            op.add_dict({"硕士": 30, "毕业": None})
            op.add_dict(paths["user.dict.utf8"])
            return _run(op, JIEBA_STRINGS)

        out[f"jieba_{mode}_add_word"] = jieba_words
    return out


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
