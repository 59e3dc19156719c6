"""``mindspore.dataset.text.transforms``: the module where MindSpore defines the text
transforms (the ones cellax has: the same classes as ``dataset.text``)."""

from ._text import Lookup, PythonTokenizer, ToNumber, WhitespaceTokenizer

__all__ = ["Lookup", "PythonTokenizer", "WhitespaceTokenizer", "ToNumber"]
