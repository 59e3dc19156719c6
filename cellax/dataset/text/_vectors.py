"""Word vectors read from local text files (``Vectors``, ``GloVe``, ``FastText``,
``CharNGram``) and the ``ToVectors`` transform that looks tokens up in them."""

from __future__ import annotations

import os
import re

import numpy as np

__all__ = ["Vectors", "GloVe", "FastText", "CharNGram", "ToVectors"]

_NUMBER_PREFIX = re.compile(
    r"\s*[+-]?((\d+\.?\d*|\.\d+)([eE][+-]?\d+)?|inf(inity)?|nan)", re.IGNORECASE
)
_INT32_MAX = 2**31 - 1


def _atof(text: str) -> float:
    """C's ``atof``: the number at the start of ``text``, or 0."""
    match = _NUMBER_PREFIX.match(text)
    return float(match.group(0)) if match else 0.0


def _load(api: str, file_path, max_vectors) -> tuple[dict, int]:
    """The token -> vector table of a vectors file: lines ``token v1 v2 ...``, after any header
    lines of two items (``count dim``); the first occurrence of a token wins."""
    if not isinstance(file_path, str):
        raise TypeError(f"For '{api}.from_file', 'file_path' must be a str, but got {file_path!r}.")
    if max_vectors is not None and (
        isinstance(max_vectors, bool) or not isinstance(max_vectors, int)
    ):
        raise TypeError(
            f"For '{api}.from_file', 'max_vectors' must be an int, but got {max_vectors!r}."
        )
    if max_vectors is not None and not 0 <= max_vectors <= _INT32_MAX:
        raise ValueError(
            f"For '{api}.from_file', 'max_vectors' must be in [0, {_INT32_MAX}], but got "
            f"{max_vectors}."
        )
    if not os.path.isfile(file_path):
        raise RuntimeError(f"For '{api}.from_file', the vector file {file_path} does not exist.")
    with open(file_path, encoding="utf-8", errors="surrogateescape", newline="\n") as file:
        lines = file.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    header = 0
    while header < len(lines) and len(lines[header].split(" ")) == 2:
        header += 1
    lines = lines[header:]
    if not lines:
        raise RuntimeError(f"For '{api}.from_file', the vector file {file_path} is empty.")
    dim = len(lines[0].split(" ")) - 1
    if max_vectors:
        lines = lines[:max_vectors]
    table: dict = {}
    for line in lines:
        token, _, rest = line.partition(" ")
        values = rest.split()
        if len(values) <= 1:
            raise RuntimeError(
                f"For '{api}.from_file', each token needs a vector of 2 or more numbers, but "
                f"{token!r} has {len(values)}."
            )
        if len(values) != dim:
            raise RuntimeError(
                f"For '{api}.from_file', all vectors must have the same number of dimensions, "
                f"but got dim {len(values)} while expecting {dim}."
            )
        if token not in table:
            table[token] = np.array([_atof(v) for v in values], np.float32)
    return table, dim


class Vectors:
    """Word vectors from a text file: one ``token v1 v2 ...`` line per token (values split by
    spaces), optionally after a ``count dim`` header line. Look tokens up with
    :class:`ToVectors`.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.Vectors.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.dataset import text
        >>> path = os.path.join(tempfile.mkdtemp(), "vectors.txt")
        >>> with open(path, "w") as f:
        ...     _ = f.write("happy 0.5 1.0\\nbirthday 2 -1\\n")
        >>> vectors = text.Vectors.from_file(path)
        >>> text.ToVectors(vectors)(["happy", "to"]).tolist()
        [[0.5, 1.0], [0.0, 0.0]]
    """

    _API = "Vectors"

    def __init__(self, table: dict | None = None, dim: int = 0) -> None:
        self._table, self.dim = dict(table or {}), dim

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        pass

    @classmethod
    def from_file(cls, file_path, max_vectors=None):
        """Load a vectors file.

        Args:
            file_path (str): The file.
            max_vectors (int, optional): Read at most this many vectors (``None`` or ``0``:
                all). Default: ``None``.

        Returns:
            The vectors (an instance of this class).

        Raises:
            TypeError: If `file_path` is not a str or `max_vectors` not an int.
            ValueError: If `max_vectors` is negative.
            RuntimeError: If the file is missing, empty, or its vectors differ in length.
        """
        if isinstance(file_path, str) and os.path.isfile(file_path):
            cls._check_file(file_path)
        table, dim = _load(cls._API, file_path, max_vectors)
        return cls(table, dim)

    def _default(self, unk_init) -> np.ndarray:
        return np.zeros(self.dim, np.float32) if unk_init is None else unk_init

    def lookup(self, token: str, unk_init, lower_case_backup: bool) -> np.ndarray:
        # MindSpore looks up only the lower-cased token (ASCII letters) when
        # lower_case_backup is set, not the token first.
        if lower_case_backup:
            token = _ascii_lower(token)
        found = self._table.get(token)
        return self._default(unk_init) if found is None else found


def _ascii_lower(token: str) -> str:
    return token.translate(_LOWER)


_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


class GloVe(Vectors):
    """GloVe word vectors from a ``glove.6B.<dim>d.txt`` file (see :class:`Vectors`).

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.GloVe.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.dataset import text
        >>> path = os.path.join(tempfile.mkdtemp(), "glove.6B.2d.txt")
        >>> with open(path, "w") as f:
        ...     _ = f.write("the 0.5 1.0\\n")
        >>> text.ToVectors(text.GloVe.from_file(path))("the").tolist()
        [0.5, 1.0]
    """

    _API = "GloVe"

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        parts = os.path.basename(file_path).rsplit(".", 3)
        if len(parts) < 4 or parts[0] != "glove" or parts[1] != "6B" or parts[3] != "txt":
            raise RuntimeError(
                f"For 'GloVe.from_file', the file must be named 'glove.6B.*.txt', but got "
                f"{file_path}."
            )


class FastText(Vectors):
    """fastText word vectors from a ``.vec`` file (see :class:`Vectors`).

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.FastText.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.dataset import text
        >>> path = os.path.join(tempfile.mkdtemp(), "wiki.en.vec")
        >>> with open(path, "w") as f:
        ...     _ = f.write("1 2\\nthe 0.5 1.0\\n")
        >>> text.ToVectors(text.FastText.from_file(path))("the").tolist()
        [0.5, 1.0]
    """

    _API = "FastText"

    @classmethod
    def _check_file(cls, file_path: str) -> None:
        if os.path.basename(file_path).rsplit(".", 1)[-1] != "vec":
            raise RuntimeError(
                f"For 'FastText.from_file', the file must end with '.vec', but got {file_path}."
            )


class CharNGram(Vectors):
    """Character n-gram vectors (``charNgram.txt``, keys like ``2gram-ab``): a token's vector
    is the mean of the vectors of its 2-, 3- and 4-grams (with ``#BEGIN#`` and ``#END#``
    around it) that are in the file.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.CharNGram.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.dataset import text
        >>> path = os.path.join(tempfile.mkdtemp(), "charNgram.txt")
        >>> with open(path, "w") as f:
        ...     _ = f.write("2gram-#BEGIN#a 1 2\\n2gram-a#END# 3 4\\n")
        >>> text.ToVectors(text.CharNGram.from_file(path))("a").tolist()
        [2.0, 3.0]
    """

    _API = "CharNGram"

    def lookup(self, token: str, unk_init, lower_case_backup: bool) -> np.ndarray:
        default = self._default(unk_init)
        if lower_case_backup:
            token = _ascii_lower(token)
        # MindSpore splits the token into bytes (UTF-8), not characters.
        chars = [b"#BEGIN#", *(bytes([b]) for b in token.encode("utf-8")), b"#END#"]
        total, count = np.zeros(self.dim, np.float32), 0
        for size in (2, 3, 4):
            for start in range(len(chars) - size + 1):
                gram = f"{size}gram-".encode() + b"".join(chars[start : start + size])
                key = gram.decode("utf-8", "surrogateescape")
                vector = self._table.get(key, default)
                if not np.array_equal(vector, default):
                    total += vector
                    count += 1
        return total / np.float32(count) if count else default


class ToVectors:
    """Look up each token (a str, or a NumPy array of str) in word vectors: a float32 vector
    for one token, else one row per token (shape ``(tokens.size, dim)``, as MindSpore gives).

    Args:
        vectors (Vectors): The vectors (``Vectors``, ``GloVe``, ``FastText`` or
            ``CharNGram``).
        unk_init (sequence, optional): The vector of tokens not found. Default: ``None``
            (zeros).
        lower_case_backup (bool, optional): Look up the token in lower case (ASCII letters).
            Default: ``False``.

    Raises:
        TypeError: If an argument has the wrong type.
        RuntimeError: If the input is not str, is empty, or `unk_init` has the wrong length.

    Differences from MindSpore: none known; with ``lower_case_backup=True`` only the
    lower-cased token is looked up, as MindSpore does (its documentation says the original
    token is tried first).

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.ToVectors.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.dataset import text
        >>> path = os.path.join(tempfile.mkdtemp(), "vectors.txt")
        >>> with open(path, "w") as f:
        ...     _ = f.write("ok 1 2\\n")
        >>> text.ToVectors(text.Vectors.from_file(path), unk_init=[-1, -1])(["ok", "no"]).tolist()
        [[1.0, 2.0], [-1.0, -1.0]]
    """

    def __init__(self, vectors, unk_init=None, lower_case_backup=False) -> None:
        if not isinstance(vectors, Vectors):
            raise TypeError(
                f"For 'ToVectors', 'vectors' must be a text.Vectors, GloVe, FastText or "
                f"CharNGram, but got {type(vectors).__name__}."
            )
        if unk_init is not None:
            if not isinstance(unk_init, (list, tuple)):
                raise TypeError(
                    f"For 'ToVectors', 'unk_init' must be a list or tuple of numbers, but got "
                    f"{unk_init!r}."
                )
            for value in unk_init:
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise TypeError(
                        f"For 'ToVectors', each item of 'unk_init' must be an int or float, but "
                        f"got {value!r}."
                    )
        if not isinstance(lower_case_backup, bool):
            raise TypeError(
                f"For 'ToVectors', 'lower_case_backup' must be a bool, but got "
                f"{lower_case_backup!r}."
            )
        self.vectors, self.lower_case_backup = vectors, lower_case_backup
        self.unk_init = None if not unk_init else np.asarray(unk_init, np.float32)

    def __call__(self, tokens):
        tokens = np.asarray(tokens)
        if tokens.dtype.kind != "U":
            raise RuntimeError(
                f"For 'ToVectors', the input must be str tokens, but got {tokens.dtype}."
            )
        if tokens.size == 0:
            raise RuntimeError("For 'ToVectors', the input has no tokens.")
        dim = self.vectors.dim
        if self.unk_init is not None and len(self.unk_init) != dim:
            raise RuntimeError(
                f"For 'ToVectors', unk_init must be the same length as vectors, but got "
                f"unk_init: {len(self.unk_init)} and vectors: {dim}."
            )
        # MindSpore gives one row per token: (dim,) for one token, else (tokens.size, dim).
        out = np.empty((tokens.size, dim), np.float32)
        for i, token in enumerate(tokens.ravel()):
            out[i] = self.vectors.lookup(str(token), self.unk_init, self.lower_case_backup)
        return out[0] if tokens.ndim == 0 else out
