"""Cases for the word vectors (Vectors, GloVe, FastText, CharNGram with ToVectors) and
transforms.PadEnd, run by record_text_vectors.py under MindSpore 2.10 and by
tests/dataset/test_text_vectors.py under cellax. ``write_files(folder)`` writes the vector
files; ``cases(text, transforms, folder)`` gives name -> (callable, input)."""

import os

import numpy as np

FILES = {
    "vectors.txt": "ok 0.1 0.2 0.3\nHello 1 2 3\nworld -1.5 2e-1 3\nok 9 9 9\n",
    "header.vec": "3 3\nok 0.1 0.2 0.3\nhello 1 2 3\nworld -1.5 2e-1 3\n",
    "glove.6B.3d.txt": "the 0.5 -0.25 1\nof 1e-3 2 3.5\n",
    "vectors2.txt": "",  # replaced below: 3-d vectors in the wrong named file for GloVe
    "charNgram.txt": "2gram-#BEGIN#a 1 2\n2gram-ab 3 4\n3gram-#BEGIN#ab 5 6\n"
    "2gram-b#END# -1 0\n4gram-ab#END#x 7 7\n2gram-é#END# 2 2\n",
    "ragged.txt": "a 1 2\nb 1\n",
    "one_dim.txt": "a 1 2\nb 3\n",
}


def write_files(folder):
    for name, content in FILES.items():
        with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
            f.write(content or FILES["vectors.txt"])


def cases(text, transforms, folder):
    def path(name):
        return os.path.join(folder, name)

    def vectors(cls, name, **kwargs):
        return lambda: cls.from_file(path(name), **kwargs)

    words = ["Hello", "hello", "zz", "ok", "world"]
    out = {}
    for name, load in {
        "vectors": vectors(text.Vectors, "vectors.txt"),
        "vectors_max1": vectors(text.Vectors, "vectors.txt", max_vectors=1),
        "vectors_max0": vectors(text.Vectors, "vectors.txt", max_vectors=0),
        "vectors_header": vectors(text.Vectors, "header.vec"),
        "fasttext": vectors(text.FastText, "header.vec"),
        "glove": vectors(text.GloVe, "glove.6B.3d.txt"),
    }.items():
        out[name] = (lambda load=load: text.ToVectors(load())(words), None)
        out[name + "_lower"] = (
            lambda load=load: text.ToVectors(load(), lower_case_backup=True)(["HELLO", "OK"]),
            None,
        )
    vocab = lambda: text.Vectors.from_file(path("vectors.txt"))  # noqa: E731
    out["unk_init"] = (lambda: text.ToVectors(vocab(), unk_init=[9, 8, 7.5])(["zz", "ok"]), None)
    out["unk_init_tuple"] = (lambda: text.ToVectors(vocab(), unk_init=(1, 2, 3))("zz"), None)
    out["scalar_token"] = (lambda: text.ToVectors(vocab())("Hello"), None)
    out["two_dim_tokens"] = (lambda: text.ToVectors(vocab())(np.array([["Hello", "ok"]])), None)
    char = lambda: text.CharNGram.from_file(path("charNgram.txt"))  # noqa: E731
    out["charngram"] = (lambda: text.ToVectors(char())(["a", "ab", "b", "abx", "zz", "é"]), None)
    out["charngram_lower"] = (
        lambda: text.ToVectors(char(), lower_case_backup=True)(["AB", "Ab"]),
        None,
    )
    out["charngram_unk"] = (lambda: text.ToVectors(char(), unk_init=[1, 2])(["ab", "q"]), None)
    errors = {
        "err_fasttext_name": lambda: text.FastText.from_file(path("vectors.txt")),
        "err_glove_name": lambda: text.GloVe.from_file(path("vectors2.txt")),
        "err_ragged": lambda: text.Vectors.from_file(path("ragged.txt")),
        "err_one_dim": lambda: text.Vectors.from_file(path("one_dim.txt")),
        "err_missing": lambda: text.Vectors.from_file(path("nope.txt")),
        "err_negative_max": lambda: text.Vectors.from_file(path("vectors.txt"), max_vectors=-1),
        "err_max_type": lambda: text.Vectors.from_file(path("vectors.txt"), max_vectors="1"),
        "err_unk_length": lambda: text.ToVectors(vocab(), unk_init=[1])(["zz"]),
        "err_unk_type": lambda: text.ToVectors(vocab(), unk_init=["a"]),
        "err_vectors_type": lambda: text.ToVectors("v"),
        "err_number_tokens": lambda: text.ToVectors(vocab())([1, 2]),
    }
    for name, fn in errors.items():
        out[name] = (fn, None)
    pad = transforms.PadEnd
    pads = {
        "pad_int": (pad([4], 10), np.array([1, 2, 3])),
        "pad_cut": (pad([2]), np.array([1, 2, 3])),
        "pad_2d": (pad([3, 3], -1), np.array([[1, 2], [3, 4]], np.int32)),
        "pad_2d_cut": (pad([1, 1]), np.array([[1, 2], [3, 4]], np.uint8)),
        "pad_float": (pad([2, 3], 0.5), np.array([[1.0, 2.0]])),
        "pad_float32": (pad([3], 0.5), np.array([1.0, 2.0], np.float32)),
        "pad_int_with_float": (pad([3], 1.5), np.array([1, 2])),
        "pad_uint8_wrap": (pad([4], 300), np.array([1, 2], np.uint8)),
        "pad_uint8_negative": (pad([3], -1), np.array([1, 2], np.uint8)),
        "pad_bool": (pad([3], True), np.array([True])),
        "pad_str": (pad([3]), np.array(["a", "b"])),
        "pad_str_value": (pad([3], "xyz"), np.array(["a", "b"])),
        "pad_bytes": (pad([3], b"x"), np.array([b"a"])),
        "pad_scalar": (pad([3]), np.array(5)),
        "err_pad_rank": (pad([3]), np.array([[1, 2]])),
        "err_pad_str_on_int": (pad([3], "x"), np.array([1, 2])),
        "err_pad_int_on_str": (pad([3], 1), np.array(["a"])),
    }
    for name, (op, data) in pads.items():
        out[name] = (lambda op=op, data=data: op(data), None)
    out["err_pad_shape_type"] = (lambda: pad(3), None)
    out["err_pad_shape_zero"] = (lambda: pad([0]), None)
    out["err_pad_value_type"] = (lambda: pad([3], [1]), None)
    return {name: fn for name, (fn, _) in out.items()}


def outputs(value):
    value = np.asarray(value)
    kind = value.dtype.kind
    plain = value.tolist() if kind != "S" else [v.decode() for v in value.ravel().tolist()]
    return {"value": plain, "dtype": str(value.dtype), "shape": list(value.shape)}
