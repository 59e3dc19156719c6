"""Text transforms: PythonTokenizer, WhitespaceTokenizer, Vocab, Lookup, ToNumber."""

from __future__ import annotations

import collections
import re

import numpy as np

from ..transforms._transforms import np_dtype

__all__ = ["Vocab", "Lookup", "PythonTokenizer", "WhitespaceTokenizer", "ToNumber"]


def _text(api: str, value) -> str:
    value = np.asarray(value)
    if value.ndim != 0 or value.dtype.kind not in "US":
        raise RuntimeError(
            f"For '{api}', the input must be a string scalar, but got {value.dtype} with shape "
            f"{value.shape}."
        )
    item = value.item()
    return item.decode("utf-8") if isinstance(item, bytes) else item


def _words(values) -> list:
    values = np.asarray(values)
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in values.ravel()]


class PythonTokenizer:
    """Split a string with a Python function ``tokenizer(str) -> list[str]``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.PythonTokenizer(lambda s: s.split("-"))(np.array("a-b")).tolist()
        ['a', 'b']
    """

    def __init__(self, tokenizer):
        if not callable(tokenizer):
            raise TypeError(f"For 'PythonTokenizer', 'tokenizer' must be callable: {tokenizer!r}.")
        self.tokenizer = tokenizer

    def __call__(self, value):
        return np.array(self.tokenizer(_text("PythonTokenizer", value)), dtype=np.str_)


class WhitespaceTokenizer:
    """Split a string on whitespace (``with_offsets`` also returns the tokens' byte offsets).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.WhitespaceTokenizer()(np.array("hello  world")).tolist()
        ['hello', 'world']
    """

    def __init__(self, with_offsets=False):
        self.with_offsets = bool(with_offsets)

    def __call__(self, value):
        string = _text("WhitespaceTokenizer", value)
        tokens = np.array(string.split(), dtype=np.str_)
        if not self.with_offsets:
            return tokens
        starts, ends, position = [], [], 0
        encoded = string.encode("utf-8")
        for token in tokens:
            piece = str(token).encode("utf-8")
            position = encoded.index(piece, position)
            starts.append(position)
            position += len(piece)
            ends.append(position)
        return tokens, np.array(starts, np.uint32), np.array(ends, np.uint32)


class Vocab:
    """A vocabulary: words and their ids. Build it with :meth:`from_list`, :meth:`from_dict` or
    :meth:`from_dataset`.

    Examples:
        >>> from cellax.dataset import text
        >>> vocab = text.Vocab.from_list(["a", "b"], special_tokens=["<unk>"])
        >>> vocab.tokens_to_ids(["b", "zz"]), vocab.ids_to_tokens(0)
        ([2, -1], '<unk>')
    """

    def __init__(self, word_ids=None) -> None:
        self._ids = dict(word_ids or {})
        self._words = {i: w for w, i in self._ids.items()}

    @classmethod
    def _build(cls, words, special_tokens, special_first):
        special = list(special_tokens or [])
        ordered = special + list(words) if special_first else list(words) + special
        if len(set(ordered)) != len(ordered):
            raise ValueError("For 'Vocab', the words and special tokens must be unique.")
        return cls({w: i for i, w in enumerate(ordered)})

    @classmethod
    def from_list(cls, word_list, special_tokens=None, special_first=True):
        """A vocabulary of ``word_list`` in order (ids from 0), with ``special_tokens`` first
        or last."""
        return cls._build([str(w) for w in word_list], special_tokens, special_first)

    @classmethod
    def from_dict(cls, word_dict):
        """A vocabulary of ``{word: id}``."""
        if any(not isinstance(i, int) or i < 0 for i in word_dict.values()):
            raise ValueError("For 'Vocab.from_dict', the ids must be non-negative ints.")
        return cls(word_dict)

    @classmethod
    def from_file(
        cls, file_path, delimiter="", vocab_size=None, special_tokens=None, special_first=True
    ):
        """A vocabulary of the words of a file, one a line (the text before ``delimiter`` when
        it is given), the first ``vocab_size`` lines, with ``special_tokens``.

        Examples:
            >>> import os, tempfile
            >>> from cellax.dataset import text
            >>> path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
            >>> with open(path, "w") as f:
            ...     _ = f.write("home,1\\nbehind,2\\n")
            >>> text.Vocab.from_file(path, ",", special_tokens=["<pad>"]).vocab()
            {'behind': 2, 'home': 1, '<pad>': 0}
        """
        words = []
        with open(file_path, encoding="utf-8") as file:
            for line in file:
                line = line.rstrip("\r\n")
                word = line.split(delimiter)[0] if delimiter else line
                if word:
                    words.append(word)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        return cls._build(words, special_tokens, special_first)

    @classmethod
    def from_dataset(
        cls,
        dataset,
        columns=None,
        freq_range=None,
        top_k=None,
        special_tokens=None,
        special_first=True,
    ):
        """A vocabulary of the words of ``columns`` of ``dataset`` (read once): the most
        frequent first (ties in code-point order), those with a frequency in ``freq_range``
        (``(min, max)``, both included), at most ``top_k``, with ``special_tokens``."""
        names = dataset.get_col_names()
        columns = names if columns is None else [columns] if isinstance(columns, str) else columns
        picks = [names.index(c) for c in columns]
        counts = collections.Counter()
        for row in dataset.create_tuple_iterator(num_epochs=1, output_numpy=True):
            for i in picks:
                counts.update(_words(row[i]))
        low, high = freq_range if freq_range is not None else (0, None)
        words = sorted(
            (w for w, n in counts.items() if n >= (low or 0) and (high is None or n <= high)),
            key=lambda w: (-counts[w], w),
        )
        if top_k is not None:
            words = words[:top_k]
        return cls._build(words, special_tokens, special_first)

    def vocab(self) -> dict:
        """Return ``{word: id}``, largest id first (MindSpore's order comes from a hash map and
        can differ; the contents are the same)."""
        return dict(sorted(self._ids.items(), key=lambda item: -item[1]))

    def tokens_to_ids(self, tokens):
        """The id of a word, or the ids of a list of words (a single id for a list of one, as
        MindSpore); -1 for unknown words."""
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        ids = [self._ids.get(str(t), -1) for t in tokens]
        return ids[0] if len(ids) == 1 else ids

    def ids_to_tokens(self, ids):
        """The word of an id, or the words of a list of ids (a single word for a list of one,
        as MindSpore); ``''`` for unknown ids."""
        if isinstance(ids, (int, np.integer)):
            return self._words.get(int(ids), "")
        words = [self._words.get(int(i), "") for i in np.asarray(ids).ravel()]
        return words[0] if len(words) == 1 else words


class Lookup:
    """Replace words by their ids in ``vocab``.

    Args:
        vocab (Vocab): The vocabulary.
        unknown_token (str, optional): Word whose id replaces unknown words; without it an
            unknown word raises RuntimeError. Default: ``None``.
        data_type (mindspore.dtype): Type of the ids. Default: ``mstype.int32``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> vocab = text.Vocab.from_list(["a", "b"], special_tokens=["<unk>"])
        >>> text.Lookup(vocab, "<unk>")(np.array(["b", "zz"])).tolist()
        [2, 0]
    """

    def __init__(self, vocab, unknown_token=None, data_type=None):
        if not isinstance(vocab, Vocab):
            raise TypeError(f"For 'Lookup', 'vocab' must be a text.Vocab, but got {vocab!r}.")
        self.vocab, self.unknown_token = vocab, unknown_token
        self.dtype = np.dtype(np.int32) if data_type is None else np_dtype("Lookup", data_type)

    def __call__(self, words):
        array = np.asarray(words)
        default = None
        if self.unknown_token is not None:
            default = self.vocab._ids.get(self.unknown_token)
            if default is None:
                raise RuntimeError(
                    f"For 'Lookup', 'unknown_token' {self.unknown_token!r} is not in the vocabulary."
                )
        ids = []
        for word in _words(array):
            index = self.vocab._ids.get(word, default)
            if index is None:
                raise RuntimeError(
                    f"For 'Lookup', the word {word!r} is not in the vocabulary and no "
                    "'unknown_token' is set."
                )
            ids.append(index)
        return np.array(ids, self.dtype).reshape(array.shape)


def _leading_int(word: str) -> int:
    """The integer a string starts with, as C's ``strtol`` reads it (``"1.5"`` -> 1)."""
    match = re.match(r"\s*[+-]?\d+", word)
    if match is None:
        raise ValueError(f"{word!r} is not a number")
    return int(match.group())


class ToNumber:
    """Parse strings as numbers of ``data_type``.

    Examples:
        >>> import numpy as np
        >>> import cellax
        >>> from cellax.dataset import text
        >>> text.ToNumber(cellax.int32)(np.array(["1", "22"])).tolist()
        [1, 22]
    """

    def __init__(self, data_type):
        self.dtype = np_dtype("ToNumber", data_type)

    def __call__(self, strings):
        array = np.asarray(strings)
        parse = _leading_int if self.dtype.kind in "iu" else float
        try:
            values = [self.dtype.type(parse(w)) for w in _words(array)]
        except (ValueError, OverflowError) as error:
            raise RuntimeError(
                f"For 'ToNumber', a string could not be parsed as {self.dtype}: {error}"
            ) from error
        return np.array(values, self.dtype).reshape(array.shape)
