"""``cellax.dataset.text``: the text transforms of ``mindspore.dataset.text`` (tokenizers,
vocabularies, word-to-id lookup, normalization and sequence transforms).

``JiebaTokenizer`` is a Python port of cppjieba's segmentation. ``SentencePieceVocab``/
``SentencePieceTokenizer`` run the ``sentencepiece`` package and ``UnicodeScriptTokenizer`` the
``regex`` package's script tables: both are in the ``text`` extra (``pip install cellax[text]``).
``FilterWikipediaXML`` imports, and building one raises ``NotImplementedError``. Word vectors
(``Vectors``, ``GloVe``, ``FastText``, ``CharNGram``) load from local files for ``ToVectors``.
"""

from ._text import Lookup, PythonTokenizer, ToNumber, Vocab, WhitespaceTokenizer
from ._tokenizers import (
    AddToken,
    BasicTokenizer,
    BertTokenizer,
    CaseFold,
    Ngram,
    NormalizeForm,
    NormalizeUTF8,
    RegexReplace,
    RegexTokenizer,
    SlidingWindow,
    Truncate,
    TruncateSequencePair,
    UnicodeCharTokenizer,
    WordpieceTokenizer,
)
from ._vectors import CharNGram, FastText, GloVe, ToVectors, Vectors
from ._jieba import JiebaMode, JiebaTokenizer
from ._script import UnicodeScriptTokenizer
from ._sentencepiece import (
    SentencePieceModel,
    SentencePieceTokenizer,
    SentencePieceVocab,
    SPieceTokenizerLoadType,
    SPieceTokenizerOutType,
)
from ._unavailable import FilterWikipediaXML
from . import transforms as transforms  # MindSpore's modules, reached as attributes
from . import utils as utils
from .utils import to_bytes, to_str

__all__ = [
    "Vocab",
    "Lookup",
    "PythonTokenizer",
    "WhitespaceTokenizer",
    "ToNumber",
    "AddToken",
    "BasicTokenizer",
    "BertTokenizer",
    "CaseFold",
    "Ngram",
    "NormalizeForm",
    "NormalizeUTF8",
    "RegexReplace",
    "RegexTokenizer",
    "SlidingWindow",
    "Truncate",
    "TruncateSequencePair",
    "UnicodeCharTokenizer",
    "WordpieceTokenizer",
    "CharNGram",
    "FastText",
    "FilterWikipediaXML",
    "GloVe",
    "JiebaMode",
    "JiebaTokenizer",
    "SentencePieceModel",
    "SentencePieceTokenizer",
    "SentencePieceVocab",
    "SPieceTokenizerLoadType",
    "SPieceTokenizerOutType",
    "ToVectors",
    "UnicodeScriptTokenizer",
    "Vectors",
    "to_bytes",
    "to_str",
]
