"""The ``dataset.text`` names that wrap a native library MindSpore bundles (cppjieba,
SentencePiece, ICU scripts): they import, and building one raises."""

from __future__ import annotations

import enum

__all__ = [
    "FilterWikipediaXML",
    "JiebaMode",
    "JiebaTokenizer",
    "SentencePieceModel",
    "SentencePieceTokenizer",
    "SentencePieceVocab",
    "SPieceTokenizerLoadType",
    "SPieceTokenizerOutType",
    "UnicodeScriptTokenizer",
]

_REASON = {
    "JiebaTokenizer": "it wraps cppjieba; tokenize with the 'jieba' package in "
    "text.PythonTokenizer(lambda s: list(jieba.cut(s)))",
    "SentencePieceTokenizer": "it wraps the SentencePiece library; tokenize with the "
    "'sentencepiece' package in text.PythonTokenizer",
    "SentencePieceVocab": "it wraps the SentencePiece library; train and load models with the "
    "'sentencepiece' package",
    "UnicodeScriptTokenizer": "it needs ICU's Unicode script property",
    "FilterWikipediaXML": "it needs ICU's regular expressions",
}


def _class(name: str) -> type:
    message = f"For '{name}', cellax does not have this transform: {_REASON[name]}."

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(message)

    def from_file(cls, *args, **kwargs):
        raise NotImplementedError(message)

    namespace = {
        "__init__": __init__,
        "__doc__": f"MindSpore's ``text.{name}``; building one raises NotImplementedError "
        f"({_REASON[name]}).",
        "__module__": "cellax.dataset.text",
        "from_file": classmethod(from_file),
        "from_dataset": classmethod(from_file),
    }
    return type(name, (), namespace)


JiebaTokenizer = _class("JiebaTokenizer")
SentencePieceTokenizer = _class("SentencePieceTokenizer")
SentencePieceVocab = _class("SentencePieceVocab")
UnicodeScriptTokenizer = _class("UnicodeScriptTokenizer")
FilterWikipediaXML = _class("FilterWikipediaXML")


class JiebaMode(enum.IntEnum):
    """Jieba's segmentation modes (for MindSpore code that names them)."""

    MIX = 0
    MP = 1
    HMM = 2


class SentencePieceModel(enum.IntEnum):
    """SentencePiece's model types (for MindSpore code that names them)."""

    UNIGRAM = 0
    BPE = 1
    CHAR = 2
    WORD = 3


class SPieceTokenizerOutType(enum.IntEnum):
    """SentencePieceTokenizer's output types (for MindSpore code that names them)."""

    STRING = 0
    INT = 1


class SPieceTokenizerLoadType(enum.IntEnum):
    """SentencePieceTokenizer's model sources (for MindSpore code that names them)."""

    FILE = 0
    MODEL = 1
