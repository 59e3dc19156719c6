"""``cellax.dataset.text``: the text transforms of ``mindspore.dataset.text`` (tokenizers,
vocabularies, word-to-id lookup, normalization and sequence transforms).

The transforms that need a native library MindSpore bundles (``JiebaTokenizer``,
``SentencePieceTokenizer``/``SentencePieceVocab``, ``UnicodeScriptTokenizer``,
``FilterWikipediaXML``) import, and building one raises ``NotImplementedError``. Word vectors
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
from ._unavailable import (
    FilterWikipediaXML,
    JiebaMode,
    JiebaTokenizer,
    SentencePieceModel,
    SentencePieceTokenizer,
    SentencePieceVocab,
    SPieceTokenizerLoadType,
    SPieceTokenizerOutType,
    UnicodeScriptTokenizer,
)
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
