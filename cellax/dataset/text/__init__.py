"""``cellax.dataset.text``: the basic text transforms of ``mindspore.dataset.text`` (Python
tokenizers, a vocabulary, word-to-id lookup, string-to-number)."""

from ._text import Lookup, PythonTokenizer, ToNumber, Vocab, WhitespaceTokenizer

__all__ = ["Vocab", "Lookup", "PythonTokenizer", "WhitespaceTokenizer", "ToNumber"]
