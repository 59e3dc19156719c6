"""The text transforms of ``mindspore.dataset.text`` that need no native library: tokenizers
(Unicode characters, regular expressions, BERT's basic and WordPiece tokenizers), string
normalization and the sequence transforms (n-grams, sliding windows, truncation)."""

from __future__ import annotations

import enum
import re
import unicodedata

import numpy as np

from ._text import Vocab, _text

__all__ = [
    "NormalizeForm",
    "AddToken",
    "BasicTokenizer",
    "BertTokenizer",
    "CaseFold",
    "Ngram",
    "NormalizeUTF8",
    "RegexReplace",
    "RegexTokenizer",
    "SlidingWindow",
    "Truncate",
    "TruncateSequencePair",
    "UnicodeCharTokenizer",
    "WordpieceTokenizer",
]


class NormalizeForm(enum.IntEnum):
    """Unicode normalization forms for :class:`NormalizeUTF8` and the BERT tokenizers."""

    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


def _strings(api: str, value) -> np.ndarray:
    array = np.asarray(value)
    if array.dtype.kind not in "US":
        raise RuntimeError(f"For '{api}', the input must be strings, but got {array.dtype}.")
    if array.dtype.kind == "S":
        array = np.char.decode(array, "utf-8")
    return array


def _map_strings(api: str, value, function) -> np.ndarray:
    array = _strings(api, value)
    out = [function(str(s)) for s in array.ravel()]
    return np.array(out, dtype=np.str_).reshape(array.shape)


def _tokens_out(tokens, starts, ends, with_offsets: bool):
    words = np.array(tokens if tokens else [""], dtype=np.str_)
    if not with_offsets:
        return words
    if not tokens:
        starts, ends = [0], [0]
    return words, np.array(starts, np.uint32), np.array(ends, np.uint32)


def _byte_spans(string: str, spans):
    """Character spans of ``string`` as UTF-8 byte spans."""
    position = np.cumsum([0] + [len(c.encode("utf-8")) for c in string])
    return [(int(position[s]), int(position[e])) for s, e in spans]


class CaseFold:
    """Fold the case of strings (Unicode case folding: ``"Straße"`` becomes ``"strasse"``).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.CaseFold()(np.array(["Hello", "Straße"])).tolist()
        ['hello', 'strasse']
    """

    def __call__(self, value):
        return _map_strings("CaseFold", value, str.casefold)


class NormalizeUTF8:
    """Normalize strings to a Unicode normalization form.

    Args:
        normalize_form (NormalizeForm, optional): The form. Default: ``NormalizeForm.NFKC``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> str(text.NormalizeUTF8()(np.array("ｆｕｌｌ ①")))
        'full 1'
    """

    def __init__(self, normalize_form=NormalizeForm.NFKC):
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError(
                f"For 'NormalizeUTF8', 'normalize_form' must be a NormalizeForm, but got "
                f"{normalize_form!r}."
            )
        self.normalize_form = normalize_form

    def __call__(self, value):
        form = self.normalize_form
        if form is NormalizeForm.NONE:
            return _map_strings("NormalizeUTF8", value, str)
        return _map_strings("NormalizeUTF8", value, lambda s: unicodedata.normalize(form.name, s))


def _compile(api: str, pattern: str):
    if not isinstance(pattern, str):
        raise TypeError(f"For '{api}', the pattern must be a str, but got {pattern!r}.")
    try:
        return re.compile(pattern)
    except re.error as error:
        raise ValueError(f"For '{api}', invalid regular expression {pattern!r}: {error}") from error


class RegexReplace:
    """Replace the matches of a regular expression in strings.

    Args:
        pattern (str): The regular expression (Python's ``re`` syntax).
        replace (str): The replacement.
        replace_all (bool, optional): Replace every match, else only the first. Default: ``True``.

    Differences from MindSpore: patterns use Python's ``re`` syntax (MindSpore uses ICU's,
    which also has ``\\p{...}`` classes).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> str(text.RegexReplace(r"\\s+", "_")(np.array("a  b c")))
        'a_b_c'
    """

    def __init__(self, pattern, replace, replace_all=True):
        self.regex = _compile("RegexReplace", pattern)
        self.replace, self.count = str(replace), 0 if replace_all else 1

    def __call__(self, value):
        return _map_strings(
            "RegexReplace", value, lambda s: self.regex.sub(self.replace, s, self.count)
        )


class RegexTokenizer:
    """Split a string at the matches of ``delim_pattern``; delimiters that also match
    ``keep_delim_pattern`` are kept as tokens.

    Args:
        delim_pattern (str): The delimiter expression.
        keep_delim_pattern (str, optional): Delimiters to keep. Default: ``''`` (none).
        with_offsets (bool, optional): Also return the tokens' UTF-8 byte offsets.
            Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.RegexTokenizer(r"\\s+", r"\\s+")(np.array("a  b")).tolist()
        ['a', '  ', 'b']
    """

    def __init__(self, delim_pattern, keep_delim_pattern="", with_offsets=False):
        self.delim = _compile("RegexTokenizer", delim_pattern)
        self.keep = _compile("RegexTokenizer", keep_delim_pattern) if keep_delim_pattern else None
        self.with_offsets = bool(with_offsets)

    def spans(self, string: str):
        spans, start = [], 0
        for match in self.delim.finditer(string):
            if match.start() == match.end():
                continue
            spans.append((start, match.start()))
            if self.keep is not None and self.keep.fullmatch(match.group()):
                spans.append((match.start(), match.end()))
            start = match.end()
        spans.append((start, len(string)))
        return [(s, e) for s, e in spans if e > s]

    def __call__(self, value):
        string = _text("RegexTokenizer", value)
        spans = self.spans(string)
        tokens = [string[s:e] for s, e in spans]
        starts, ends = zip(*_byte_spans(string, spans)) if spans else ((), ())
        return _tokens_out(tokens, list(starts), list(ends), self.with_offsets)


class UnicodeCharTokenizer:
    """Split a string into its Unicode characters.

    Args:
        with_offsets (bool, optional): Also return the UTF-8 byte offsets. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.UnicodeCharTokenizer()(np.array("ab北")).tolist()
        ['a', 'b', '北']
    """

    def __init__(self, with_offsets=False):
        self.with_offsets = bool(with_offsets)

    def __call__(self, value):
        string = _text("UnicodeCharTokenizer", value)
        spans = [(i, i + 1) for i in range(len(string))]
        starts, ends = zip(*_byte_spans(string, spans)) if spans else ((), ())
        return _tokens_out(list(string), list(starts), list(ends), self.with_offsets)


def _is_punctuation(char: str) -> bool:
    code = ord(char)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(char).startswith("P")


_CJK = (
    (0x4E00, 0x9FFF),
    (0x3400, 0x4DBF),
    (0x20000, 0x2A6DF),
    (0x2A700, 0x2B73F),
    (0x2B740, 0x2B81F),
    (0x2B820, 0x2CEAF),
    (0xF900, 0xFAFF),
    (0x2F800, 0x2FA1F),
)


def _is_cjk(char: str) -> bool:
    code = ord(char)
    return any(low <= code <= high for low, high in _CJK)


_UNUSED = re.compile(r"\[(?:UNK|CLS|SEP|PAD|MASK|unused\d+)\]")


class BasicTokenizer:
    """BERT's basic tokenizer: split a string at whitespace, punctuation and CJK characters,
    after optional lower-casing (case folding, NFD and accent removal) or normalization.

    Args:
        lower_case (bool, optional): Fold case and strip accents. Default: ``False``.
        keep_whitespace (bool, optional): Keep whitespace runs as tokens. Default: ``False``.
        normalization_form (NormalizeForm, optional): Normalization when not ``lower_case``.
            Default: ``NormalizeForm.NONE``.
        preserve_unused_token (bool, optional): Keep ``[CLS]``, ``[SEP]``, ``[UNK]``,
            ``[PAD]``, ``[MASK]`` and ``[unusedN]`` whole. Default: ``True``.
        with_offsets (bool, optional): Also return the tokens' UTF-8 byte offsets (in the
            normalized string). Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.BasicTokenizer(lower_case=True)(np.array("Héllo, World!")).tolist()
        ['hello', ',', 'world', '!']
    """

    def __init__(
        self,
        lower_case=False,
        keep_whitespace=False,
        normalization_form=NormalizeForm.NONE,
        preserve_unused_token=True,
        with_offsets=False,
    ):
        if not isinstance(normalization_form, NormalizeForm):
            raise TypeError(
                "For 'BasicTokenizer', 'normalization_form' must be a NormalizeForm, but got "
                f"{normalization_form!r}."
            )
        self.lower_case, self.keep_whitespace = bool(lower_case), bool(keep_whitespace)
        self.normalization_form = normalization_form
        self.preserve_unused_token = bool(preserve_unused_token)
        self.with_offsets = bool(with_offsets)

    def normalize(self, string: str) -> str:
        if self.lower_case:
            string = unicodedata.normalize("NFD", string.casefold())
            string = "".join(c for c in string if unicodedata.category(c) != "Mn")
        elif self.normalization_form is not NormalizeForm.NONE:
            string = unicodedata.normalize(self.normalization_form.name, string)
        out = []
        for char in string:
            if char in "\t\n\r":
                out.append(" ")
            elif (
                ord(char) == 0 or ord(char) == 0xFFFD or unicodedata.category(char) in ("Cc", "Cf")
            ):
                continue
            else:
                out.append(char)
        return "".join(out)

    def spans(self, string: str):
        """Character spans of the tokens of a normalized string."""
        spans, start, i = [], None, 0
        kept = {}
        if self.preserve_unused_token:
            kept = {m.start(): m.end() for m in _UNUSED.finditer(string)}
        while i < len(string):
            char = string[i]
            if i in kept:
                if start is not None:
                    spans.append((start, i))
                    start = None
                spans.append((i, kept[i]))
                i = kept[i]
                continue
            if char.isspace():
                if start is not None:
                    spans.append((start, i))
                    start = None
                end = i
                while end < len(string) and string[end].isspace():
                    end += 1
                if self.keep_whitespace:
                    spans.append((i, end))
                i = end
                continue
            if _is_punctuation(char) or _is_cjk(char):
                if start is not None:
                    spans.append((start, i))
                    start = None
                spans.append((i, i + 1))
            elif start is None:
                start = i
            i += 1
        if start is not None:
            spans.append((start, len(string)))
        return spans

    def tokenize(self, string: str):
        string = self.normalize(string)
        spans = self.spans(string)
        offsets = _byte_spans(string, spans)
        return [string[s:e] for s, e in spans], offsets

    def __call__(self, value):
        tokens, offsets = self.tokenize(_text(type(self).__name__, value))
        starts, ends = zip(*offsets) if offsets else ((), ())
        return _tokens_out(tokens, list(starts), list(ends), self.with_offsets)


def _check_vocab(api: str, vocab) -> None:
    if not isinstance(vocab, Vocab):
        raise TypeError(f"For '{api}', 'vocab' must be a text.Vocab, but got {vocab!r}.")


class WordpieceTokenizer:
    """Split words into the longest pieces found in ``vocab`` (greedy, left to right; pieces
    after the first carry ``suffix_indicator``). A word that cannot be split becomes
    ``unknown_token`` (or stays as it is when ``unknown_token`` is ``''``).

    Args:
        vocab (Vocab): The vocabulary.
        suffix_indicator (str, optional): Prefix of non-initial pieces. Default: ``'##'``.
        max_bytes_per_token (int, optional): Longer words are unknown. Default: ``100``.
        unknown_token (str, optional): Replacement of unknown words. Default: ``'[UNK]'``.
        with_offsets (bool, optional): Also return each piece's UTF-8 byte offsets in its
            word. Default: ``False``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> vocab = text.Vocab.from_list(["favor", "##ite", "[UNK]"])
        >>> text.WordpieceTokenizer(vocab)(np.array(["favorite", "zz"])).tolist()
        ['favor', '##ite', '[UNK]']
    """

    def __init__(
        self,
        vocab,
        suffix_indicator="##",
        max_bytes_per_token=100,
        unknown_token="[UNK]",
        with_offsets=False,
    ):
        _check_vocab("WordpieceTokenizer", vocab)
        self.vocab, self.suffix_indicator = vocab, str(suffix_indicator)
        self.max_bytes_per_token, self.unknown_token = int(max_bytes_per_token), unknown_token
        self.with_offsets = bool(with_offsets)

    def pieces(self, word: str):
        """The pieces of ``word`` with their byte spans in it."""
        size = len(word.encode("utf-8"))
        unknown = [(self.unknown_token or word, 0, size)]
        if size > self.max_bytes_per_token:
            return unknown
        out, start, ids = [], 0, self.vocab._ids
        while start < len(word):
            end = len(word)
            while end > start:
                piece = word[start:end]
                if start > 0:
                    piece = self.suffix_indicator + piece
                if piece in ids:
                    break
                end -= 1
            if end == start:
                return unknown
            begin = len(word[:start].encode("utf-8"))
            out.append((piece, begin, begin + len(word[start:end].encode("utf-8"))))
            start = end
        return out

    def __call__(self, value):
        words = _strings("WordpieceTokenizer", value).ravel()
        tokens, starts, ends = [], [], []
        for word in words:
            for piece, start, end in self.pieces(str(word)):
                tokens.append(piece)
                starts.append(start)
                ends.append(end)
        return _tokens_out(tokens, starts, ends, self.with_offsets)


class BertTokenizer:
    """BERT's tokenizer: :class:`BasicTokenizer`, then :class:`WordpieceTokenizer` on each
    token (offsets are UTF-8 byte offsets in the normalized string).

    Args:
        vocab (Vocab): The vocabulary.
        suffix_indicator, max_bytes_per_token, unknown_token: as for
            :class:`WordpieceTokenizer`.
        lower_case, keep_whitespace, normalization_form, preserve_unused_token, with_offsets:
            as for :class:`BasicTokenizer`.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> vocab = text.Vocab.from_list(["my", "favor", "##ite", "book", "[UNK]"])
        >>> text.BertTokenizer(vocab, lower_case=True)(np.array("My favorite Book")).tolist()
        ['my', 'favor', '##ite', 'book']
    """

    def __init__(
        self,
        vocab,
        suffix_indicator="##",
        max_bytes_per_token=100,
        unknown_token="[UNK]",
        lower_case=False,
        keep_whitespace=False,
        normalization_form=NormalizeForm.NONE,
        preserve_unused_token=True,
        with_offsets=False,
    ):
        _check_vocab("BertTokenizer", vocab)
        self.basic = BasicTokenizer(
            lower_case, keep_whitespace, normalization_form, preserve_unused_token
        )
        self.wordpiece = WordpieceTokenizer(
            vocab, suffix_indicator, max_bytes_per_token, unknown_token
        )
        self.with_offsets = bool(with_offsets)

    def __call__(self, value):
        words, offsets = self.basic.tokenize(_text("BertTokenizer", value))
        tokens, starts, ends = [], [], []
        for word, (offset, _) in zip(words, offsets):
            for piece, start, end in self.wordpiece.pieces(word):
                tokens.append(piece)
                starts.append(offset + start)
                ends.append(offset + end)
        return _tokens_out(tokens, starts, ends, self.with_offsets)


def _one_dim(api: str, value) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim != 1:
        raise RuntimeError(f"For '{api}', the input must be 1-D, but got shape {array.shape}.")
    return array


class AddToken:
    """Add a token at the beginning or the end of a sequence of strings.

    Args:
        token (str): The token.
        begin (bool, optional): Add it first, else last. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.AddToken("[CLS]")(np.array(["a", "b"])).tolist()
        ['[CLS]', 'a', 'b']
    """

    def __init__(self, token, begin=True):
        if not isinstance(token, str):
            raise TypeError(f"For 'AddToken', 'token' must be a str, but got {token!r}.")
        self.token, self.begin = token, bool(begin)

    def __call__(self, value):
        words = [str(w) for w in _strings("AddToken", _one_dim("AddToken", value))]
        words = [self.token, *words] if self.begin else [*words, self.token]
        return np.array(words, dtype=np.str_)


class Ngram:
    """The n-grams of a sequence of strings, joined by ``separator``, for each ``n``, after
    padding both ends.

    Args:
        n (Union[int, list[int]]): The n-gram sizes.
        left_pad (tuple[str, int], optional): ``(token, count)`` added on the left.
            Default: ``('', 0)``.
        right_pad (tuple[str, int], optional): ``(token, count)`` added on the right.
            Default: ``('', 0)``.
        separator (str, optional): The joiner. Default: ``' '``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.Ngram(2)(np.array(["a", "b", "c"])).tolist()
        ['a b', 'b c']
    """

    def __init__(self, n, left_pad=("", 0), right_pad=("", 0), separator=" "):
        sizes = [n] if isinstance(n, int) else list(n)
        if not sizes or any(isinstance(s, bool) or not isinstance(s, int) or s <= 0 for s in sizes):
            raise ValueError(f"For 'Ngram', 'n' must be positive ints, but got {n!r}.")
        for name, pad in (("left_pad", left_pad), ("right_pad", right_pad)):
            if not (isinstance(pad, tuple) and len(pad) == 2 and isinstance(pad[1], int)):
                raise TypeError(f"For 'Ngram', '{name}' must be a (str, int) tuple: {pad!r}.")
        self.sizes, self.left, self.right = sizes, left_pad, right_pad
        self.separator = separator

    def __call__(self, value):
        words = [str(w) for w in _strings("Ngram", _one_dim("Ngram", value))]
        padded = [self.left[0]] * self.left[1] + words + [self.right[0]] * self.right[1]
        out = []
        for size in self.sizes:
            if size > len(padded):
                out.append("")
                continue
            for i in range(len(padded) - size + 1):
                out.append(self.separator.join(padded[i : i + size]))
        return np.array(out, dtype=np.str_)


class SlidingWindow:
    """The windows of ``width`` consecutive elements of a 1-D array, as rows of a 2-D array.

    Args:
        width (int): The window width.
        axis (int, optional): The axis (0 or -1 for a 1-D input). Default: ``0``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.SlidingWindow(2)(np.array([1, 2, 3])).tolist()
        [[1, 2], [2, 3]]
    """

    def __init__(self, width, axis=0):
        if isinstance(width, bool) or not isinstance(width, int) or width <= 0:
            raise ValueError(f"For 'SlidingWindow', 'width' must be a positive int: {width!r}.")
        self.width, self.axis = width, axis

    def __call__(self, value):
        array = _one_dim("SlidingWindow", value)
        if len(array) < self.width:
            return np.zeros((0, self.width), array.dtype)
        return np.lib.stride_tricks.sliding_window_view(array, self.width).copy()


class Truncate:
    """Keep the first ``max_seq_len`` elements of a 1-D or 2-D array (along its last axis).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> text.Truncate(2)(np.array(["a", "b", "c"])).tolist()
        ['a', 'b']
    """

    def __init__(self, max_seq_len):
        if isinstance(max_seq_len, bool) or not isinstance(max_seq_len, int) or max_seq_len < 0:
            raise ValueError(
                f"For 'Truncate', 'max_seq_len' must be a non-negative int: {max_seq_len!r}."
            )
        self.max_seq_len = max_seq_len

    def __call__(self, value):
        array = np.asarray(value)
        if array.ndim not in (1, 2):
            raise RuntimeError(f"For 'Truncate', the input must be 1-D or 2-D: {array.shape}.")
        return array[..., : self.max_seq_len].copy()


class TruncateSequencePair:
    """Shorten two sequences, dropping the last element of the longer one, until their total
    length is at most ``max_length``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> a, b = text.TruncateSequencePair(4)(np.array([1, 2, 3]), np.array([4, 5, 6]))
        >>> a.tolist(), b.tolist()
        ([1, 2], [4, 5])
    """

    def __init__(self, max_length):
        if isinstance(max_length, bool) or not isinstance(max_length, int) or max_length < 0:
            raise ValueError(
                f"For 'TruncateSequencePair', 'max_length' must be a non-negative int: "
                f"{max_length!r}."
            )
        self.max_length = max_length

    def __call__(self, first, second):
        first = _one_dim("TruncateSequencePair", first)
        second = _one_dim("TruncateSequencePair", second)
        keep_first, keep_second = len(first), len(second)
        while keep_first + keep_second > self.max_length:
            if keep_first > keep_second:
                keep_first -= 1
            else:
                keep_second -= 1
        return first[:keep_first].copy(), second[:keep_second].copy()
