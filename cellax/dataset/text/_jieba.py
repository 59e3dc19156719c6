"""JiebaTokenizer: Chinese word segmentation the way cppjieba (which MindSpore bundles) does it,
written in Python from its dictionary and HMM model file formats.

* The dictionary (``mp_path``) has one ``word frequency tag`` line a word. A word's weight is
  ``log(frequency / total)``; a character that is no word weighs the smallest weight.
* MP mode splits at the separators (space, tab, newline, ``，`` and ``。``, each a token), then
  picks the segmentation of largest total weight over the DAG of dictionary words (the shorter
  word wins a tie).
* HMM mode splits runs of ASCII letters and digits (``abc123``, ``12.5``) and single ASCII
  characters off, and cuts the rest with the Viterbi path over the B/E/M/S states of the model
  (``hmm_path``: start, 4x4 transition, and B, E, M, S emission lines, ``#`` lines skipped).
* MIX mode cuts each run of single-character MP words again with the HMM.
"""

from __future__ import annotations

import enum
import math
import os

import numpy as np

from ._text import _text

__all__ = ["JiebaMode", "JiebaTokenizer"]

_SEPARATORS = frozenset(" \t\n\uff0c\u3002")
_MIN_WEIGHT = -3.14e100
_MAX_WORD_LENGTH = 512
_B, _E, _M, _S = range(4)


class JiebaMode(enum.IntEnum):
    """:class:`JiebaTokenizer`'s algorithms: dictionary and HMM (``MIX``), the dictionary's
    maximum probability path (``MP``), or the HMM alone (``HMM``)."""

    MIX = 0
    MP = 1
    HMM = 2


def _check_file(name: str, path) -> str:
    if not isinstance(path, str):
        raise TypeError(f"For 'JiebaTokenizer', '{name}' must be a str, but got {path!r}.")
    if not os.path.isfile(path):
        raise ValueError(f"For 'JiebaTokenizer', the {name} file {path!r} does not exist.")
    return path


def _lines(path: str):
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


class _Dictionary:
    def __init__(self, path: str) -> None:
        entries = []
        for line in _lines(path):
            columns = line.split(" ")
            if len(columns) != 3:
                raise ValueError(
                    f"For 'JiebaTokenizer', each line of the mp_path dictionary must be 'word "
                    f"frequency tag', but got {line!r} in {path!r}."
                )
            entries.append((columns[0], _atof(columns[1])))
        if not entries:
            raise ValueError(f"For 'JiebaTokenizer', the mp_path dictionary {path!r} is empty.")
        self.total = sum(frequency for _, frequency in entries)
        weights = [math.log(frequency / self.total) for _, frequency in entries]
        ordered = sorted(weights)
        self.min_weight, self.default_weight = ordered[0], ordered[len(ordered) // 2]
        self.weights, self.prefixes = {}, set()
        for (word, _), weight in zip(entries, weights):
            self.insert(word, weight)

    def insert(self, word: str, weight: float) -> None:
        self.weights[word] = weight
        self.prefixes.update(word[:i] for i in range(1, len(word) + 1))

    def cut(self, runes: str):
        """The maximum-probability words of ``runes`` as (start, end) spans."""
        size = len(runes)
        best = [0.0] * (size + 1)
        choice = [1] * size
        for i in range(size - 1, -1, -1):
            best[i] = _MIN_WEIGHT
            candidates = [(1, self.weights.get(runes[i]))]
            end = i + 1
            while end < size and end - i < _MAX_WORD_LENGTH and runes[i : end + 1] in self.prefixes:
                end += 1
                if runes[i:end] in self.weights:
                    candidates.append((end - i, self.weights[runes[i:end]]))
            for length, weight in candidates:
                value = best[i + length] if i + length < size else 0.0
                value += self.min_weight if weight is None else weight
                if value > best[i]:
                    best[i], choice[i] = value, length
        spans, i = [], 0
        while i < size:
            spans.append((i, i + choice[i]))
            i += choice[i]
        return spans


def _atof(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        return 0.0


class _HiddenMarkovModel:
    def __init__(self, path: str) -> None:
        lines = [line.strip() for line in _lines(path)]
        lines = [line for line in lines if line and not line.startswith("#")]
        if len(lines) < 9:
            raise ValueError(
                f"For 'JiebaTokenizer', the hmm_path model {path!r} must have a start line, 4 "
                f"transition lines and the B, E, M, S emission lines, but it has {len(lines)} lines."
            )
        rows = [[_atof(v) for v in line.split(" ")] for line in lines[:5]]
        if any(len(row) != 4 for row in rows):
            raise ValueError(
                f"For 'JiebaTokenizer', the start and transition lines of {path!r} must have 4 "
                "numbers each."
            )
        self.start, self.transition = rows[0], rows[1:]
        self.emission = []
        for line in lines[5:9]:
            table = {}
            for item in line.split(","):
                parts = item.split(":")
                if len(parts) != 2 or len(parts[0]) != 1:
                    raise ValueError(
                        f"For 'JiebaTokenizer', the emission entries of {path!r} must be "
                        f"'character:log-probability', but got {item!r}."
                    )
                table[parts[0]] = _atof(parts[1])
            self.emission.append(table)

    def viterbi(self, runes: str):
        """The B/E/M/S state of each character."""
        size = len(runes)
        weight = [[self.start[y] + self.emission[y].get(runes[0], _MIN_WEIGHT) for y in range(4)]]
        path = [[-1] * 4]
        for x in range(1, size):
            row, back = [], []
            for y in range(4):
                emit = self.emission[y].get(runes[x], _MIN_WEIGHT)
                best, state = _MIN_WEIGHT, _E
                for previous in range(4):
                    value = weight[-1][previous] + self.transition[previous][y] + emit
                    if value > best:
                        best, state = value, previous
                row.append(best)
                back.append(state)
            weight.append(row)
            path.append(back)
        state = _E if weight[-1][_E] >= weight[-1][_S] else _S
        states = [0] * size
        for x in range(size - 1, -1, -1):
            states[x] = state
            state = path[x][state]
        return states

    def cut(self, runes: str, offset: int = 0):
        """Spans of ``runes`` (shifted by ``offset``): ASCII rules, then the Viterbi path."""
        spans, left, right = [], 0, 0
        while right < len(runes):
            if ord(runes[right]) >= 0x80:
                right += 1
                continue
            if left != right:
                spans += self._states_cut(runes[left:right], offset + left)
            left = right
            right = _ascii_run(runes, left)
            spans.append((offset + left, offset + right))
            left = right
        if left != right:
            spans += self._states_cut(runes[left:right], offset + left)
        return spans

    def _states_cut(self, runes: str, offset: int):
        spans, left = [], 0
        for i, state in enumerate(self.viterbi(runes)):
            if state in (_E, _S):
                spans.append((offset + left, offset + i + 1))
                left = i + 1
        return spans


def _ascii_run(runes: str, start: int) -> int:
    """The end of the ASCII token at ``start``: a letter then letters and digits, a digit then
    digits and dots, or one character."""
    char, end = runes[start], start + 1
    if char.isascii() and char.isalpha():
        while end < len(runes) and runes[end].isascii() and runes[end].isalnum():
            end += 1
    elif char.isascii() and char.isdigit():
        while end < len(runes) and (
            runes[end].isascii() and runes[end].isdigit() or runes[end] == "."
        ):
            end += 1
    return end


class JiebaTokenizer:
    """Split Chinese text into words with a jieba dictionary and HMM model (cppjieba's files:
    MindSpore ships none, pass your own).

    Args:
        hmm_path (str): The HMM model file (cppjieba's ``hmm_model.utf8`` format).
        mp_path (str): The dictionary file (cppjieba's ``jieba.dict.utf8``: ``word frequency
            tag`` lines).
        mode (JiebaMode, optional): The algorithm. Default: ``JiebaMode.MIX``.
        with_offsets (bool, optional): Also return the words' UTF-8 byte offsets (``uint32``
            start and end arrays). Default: ``False``.

    Raises:
        TypeError: If a path is not a str, ``mode`` not a JiebaMode or ``with_offsets`` not a bool.
        ValueError: If a file does not exist or is not in its format.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.JiebaTokenizer.html

    Differences from MindSpore: the segmentation is a Python port of cppjieba's algorithm (see
    this module's notes), tested against MindSpore's outputs in all three modes. The files are
    read when the tokenizer is built, so a malformed file raises ValueError there (MindSpore
    raises RuntimeError at the first call).

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> folder = tempfile.mkdtemp()
        >>> mp_path, hmm_path = os.path.join(folder, "dict.utf8"), os.path.join(folder, "hmm.utf8")
        >>> with open(mp_path, "w", encoding="utf-8") as f:
        ...     _ = f.write("今天 90 t\\n天气 110 n\\n很 200 d\\n好 180 a\\n")
        >>> with open(hmm_path, "w", encoding="utf-8") as f:
        ...     _ = f.write("-0.3 -3.14e+100 -3.14e+100 -1.5\\n" + "-1 -1 -1 -1\\n" * 4
        ...                 + "今:-1\\n天:-1\\n气:-1\\n好:-1\\n")
        >>> tokenizer = text.JiebaTokenizer(hmm_path, mp_path, text.JiebaMode.MP)
        >>> tokenizer(np.array("今天天气很好")).tolist()
        ['今天', '天气', '很', '好']
    """

    def __init__(
        self,
        hmm_path: str,
        mp_path: str,
        mode: JiebaMode = JiebaMode.MIX,
        with_offsets: bool = False,
    ) -> None:
        _check_file("hmm_path", hmm_path)
        _check_file("mp_path", mp_path)
        if not isinstance(mode, JiebaMode):
            raise TypeError(f"For 'JiebaTokenizer', 'mode' must be a JiebaMode, but got {mode!r}.")
        if not isinstance(with_offsets, bool):
            raise TypeError(
                f"For 'JiebaTokenizer', 'with_offsets' must be a bool, but got {with_offsets!r}."
            )
        self.mode, self.with_offsets = mode, with_offsets
        self.dictionary = _Dictionary(mp_path)
        self.model = _HiddenMarkovModel(hmm_path)

    def add_word(self, word: str, freq: int | None = None) -> None:
        """Add ``word`` to the dictionary, with frequency ``freq`` (``None`` or ``0``: the
        median weight of the dictionary's words).

        Examples:
            >>> # see JiebaTokenizer's example: tokenizer.add_word("天气很好", 1000)
        """
        if not isinstance(word, str):
            raise TypeError(f"For 'JiebaTokenizer.add_word', 'word' must be a str: {word!r}.")
        if freq is not None and (isinstance(freq, bool) or not isinstance(freq, int) or freq < 0):
            raise ValueError(
                f"For 'JiebaTokenizer.add_word', 'freq' must be a non-negative int, but got "
                f"{freq!r}."
            )
        dictionary = self.dictionary
        if freq:
            weight = math.log(freq / dictionary.total)
        else:
            weight = dictionary.default_weight
        if word:  # MindSpore accepts an empty word, which matches nothing
            dictionary.insert(word, weight)

    def add_dict(self, user_dict) -> None:
        """Add words: a ``{word: frequency or None}`` dict, or a file of ``word [frequency]``
        lines."""
        if isinstance(user_dict, dict):
            for word, freq in user_dict.items():
                self.add_word(word, freq)
        elif isinstance(user_dict, str):
            if not os.path.isfile(user_dict):
                raise ValueError(
                    f"For 'JiebaTokenizer.add_dict', the file {user_dict!r} does not exist."
                )
            for line in _lines(user_dict):
                words = line.split()
                if not words:
                    continue
                freq = int(words[1]) if len(words) > 1 and words[1].isdigit() else None
                self.add_word(words[0], freq)
        else:
            raise TypeError(
                f"For 'JiebaTokenizer.add_dict', 'user_dict' must be a dict or a file path, but "
                f"got {user_dict!r}."
            )

    def spans(self, string: str):
        """Character spans of the words of ``string``."""
        spans, start = [], 0
        for i, char in enumerate(string):
            if char in _SEPARATORS:
                spans += self._cut_range(string[start:i], start)
                spans.append((i, i + 1))
                start = i + 1
        spans += self._cut_range(string[start:], start)
        return spans

    def _cut_range(self, runes: str, offset: int):
        if not runes:
            return []
        if self.mode is JiebaMode.HMM:
            return self.model.cut(runes, offset)
        words = self.dictionary.cut(runes)
        if self.mode is JiebaMode.MP:
            return [(offset + s, offset + e) for s, e in words]
        spans, i = [], 0
        while i < len(words):
            if words[i][1] - words[i][0] > 1:
                spans.append((offset + words[i][0], offset + words[i][1]))
                i += 1
                continue
            j = i
            while j < len(words) and words[j][1] - words[j][0] == 1:
                j += 1
            start, end = words[i][0], words[j - 1][1]
            spans += self.model.cut(runes[start:end], offset + start)
            i = j
        return spans

    def __call__(self, value):
        string = _text("JiebaTokenizer", value)
        spans = self.spans(string)
        tokens = [string[s:e] for s, e in spans] or [""]
        words = np.array(tokens, dtype=np.str_)
        if not self.with_offsets:
            return words
        position = np.cumsum([0] + [len(c.encode("utf-8")) for c in string])
        starts = np.array([position[s] for s, _ in spans], np.uint32)
        ends = np.array([position[e] for _, e in spans], np.uint32)
        return words, starts, ends
