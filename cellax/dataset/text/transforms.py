"""``mindspore.dataset.text.transforms``: the module where MindSpore defines the text
transforms (the same classes as ``dataset.text``)."""

from ._text import Lookup, PythonTokenizer, ToNumber, WhitespaceTokenizer
from ._tokenizers import (
    AddToken,
    BasicTokenizer,
    BertTokenizer,
    CaseFold,
    Ngram,
    NormalizeUTF8,
    RegexReplace,
    RegexTokenizer,
    SlidingWindow,
    Truncate,
    TruncateSequencePair,
    UnicodeCharTokenizer,
    WordpieceTokenizer,
)
from ._vectors import ToVectors
from ._jieba import JiebaTokenizer
from ._script import UnicodeScriptTokenizer
from ._sentencepiece import SentencePieceTokenizer
from ._unavailable import FilterWikipediaXML

__all__ = [
    "Lookup",
    "PythonTokenizer",
    "WhitespaceTokenizer",
    "ToNumber",
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
    "FilterWikipediaXML",
    "JiebaTokenizer",
    "SentencePieceTokenizer",
    "ToVectors",
    "UnicodeScriptTokenizer",
]
