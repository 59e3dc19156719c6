"""UnicodeScriptTokenizer: split strings where the Unicode script changes, with the script data
of the ``regex`` package (the ``text`` extra, ``pip install cellax[text]``)."""

from __future__ import annotations

import functools as ft
import importlib

from ._text import _text
from ._tokenizers import _byte_spans, _tokens_out

__all__ = ["UnicodeScriptTokenizer"]

# The Unicode scripts by ISO 15924 code: ``\p{sc=...}`` of each names a character's script.
_SCRIPTS = (
    "Zzzz Zyyy Latn Bopo Zinh Grek Copt Cyrl Armn Hebr Arab Syrc Thaa Nkoo Samr Mand Deva Beng "
    "Guru Gujr Orya Taml Telu Knda Mlym Sinh Thai Laoo Tibt Mymr Geor Hang Ethi Cher Cans Ogam "
    "Runr Tglg Hano Buhd Tagb Khmr Mong Limb Tale Talu Bugi Lana Bali Sund Batk Lepc Olck Brai "
    "Glag Tfng Hani Hira Kana Yiii Lisu Vaii Bamu Sylo Phag Saur Kali Rjng Java Cham Tavt Mtei "
    "Linb Lyci Cari Ital Goth Perm Ugar Xpeo Dsrt Shaw Osma Osge Elba Aghb Vith Todr Lina Cprt "
    "Armi Palm Nbat Hatr Phnx Lydi Sidt Mero Merc Khar Sarb Narb Mani Avst Prti Phli Phlp Orkh "
    "Hung Rohg Gara Yezi Sogo Sogd Ougr Chrs Elym Brah Kthi Sora Cakm Mahj Shrd Khoj Mult Sind "
    "Gran Tutg Newa Tirh Sidd Modi Takr Ahom Dogr Wara Diak Nand Zanb Soyo Pauc Sunu Bhks Marc "
    "Gonm Gong Tols Maka Kawi Xsux Pcun Cpmn Egyp Hluw Gukh Mroo Tnsa Bass Hmng Krai Medf Berf "
    "Miao Tang Nshu Kits Jurc Dupl Sgnw Hmnp Toto Wcho Nagm Onao Tayo Mend Adlm Seal"
).split()


@ft.lru_cache(maxsize=1)
def _classifier():
    try:
        regex = importlib.import_module("regex")
    except ImportError as error:
        raise ImportError(
            "For 'UnicodeScriptTokenizer', the Unicode script data comes from the 'regex' "
            "package, which is not installed. Install it with: pip install 'cellax[text]' (or "
            "pip install regex)."
        ) from error
    groups = [r"(?P<space>\p{White_Space})"]
    for code in _SCRIPTS:
        try:  # an older 'regex' may not know the newest scripts
            regex.compile(rf"\p{{sc={code}}}")
        except regex.error:
            continue
        groups.append(rf"(?P<{code}>\p{{sc={code}}})")
    return regex.compile("|".join(groups))


@ft.lru_cache(maxsize=4096)
def _script(char: str) -> str:
    match = _classifier().match(char)
    return match.lastgroup if match is not None else "Zzzz"


class UnicodeScriptTokenizer:
    """Split a string into runs of characters of one Unicode script (Latin, Han, Cyrillic...;
    digits and punctuation are of the "Common" script, combining marks of "Inherited"), and at
    whitespace.

    Args:
        keep_whitespace (bool, optional): Keep the whitespace runs as tokens. Default: ``False``.
        with_offsets (bool, optional): Also return the tokens' UTF-8 byte offsets (``uint32``
            start and end arrays). Default: ``False``.

    Raises:
        ImportError: If ``regex`` (the ``text`` extra) is not installed.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_text/mindspore.dataset.text.UnicodeScriptTokenizer.html

    Differences from MindSpore: the script of each character comes from the ``regex``
    package's Unicode tables instead of ICU's; they differ only for characters one Unicode
    version assigns and the other does not.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import text
        >>> try:
        ...     tokens = text.UnicodeScriptTokenizer()(np.array("Hello, мир! 北京2024")).tolist()
        ... except ImportError:  # without the 'text' extra
        ...     tokens = ['Hello', ',', 'мир', '!', '北京', '2024']
        >>> tokens
        ['Hello', ',', 'мир', '!', '北京', '2024']
    """

    def __init__(self, keep_whitespace: bool = False, with_offsets: bool = False) -> None:
        for name, flag in (("keep_whitespace", keep_whitespace), ("with_offsets", with_offsets)):
            if not isinstance(flag, bool):
                raise TypeError(
                    f"For 'UnicodeScriptTokenizer', '{name}' must be a bool, but got {flag!r}."
                )
        _classifier()
        self.keep_whitespace, self.with_offsets = keep_whitespace, with_offsets

    def __call__(self, value):
        string = _text("UnicodeScriptTokenizer", value)
        spans, start = [], 0
        for i in range(1, len(string) + 1):
            if i == len(string) or _script(string[i]) != _script(string[start]):
                if self.keep_whitespace or _script(string[start]) != "space":
                    spans.append((start, i))
                start = i
        tokens = [string[s:e] for s, e in spans]
        starts, ends = zip(*_byte_spans(string, spans)) if spans else ((), ())
        return _tokens_out(tokens, list(starts), list(ends), self.with_offsets)
