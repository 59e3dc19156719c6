"""``cellax.dataset.text``: the basic text transforms of ``mindspore.dataset.text`` (Python
tokenizers, a vocabulary, word-to-id lookup, string-to-number)."""

from ._text import Lookup, PythonTokenizer, ToNumber, Vocab, WhitespaceTokenizer
from . import transforms as transforms  # MindSpore's modules, reached as attributes
from . import utils as utils
from .utils import to_bytes, to_str

__all__ = [
    "Vocab",
    "Lookup",
    "PythonTokenizer",
    "WhitespaceTokenizer",
    "ToNumber",
    "to_bytes",
    "to_str",
]
