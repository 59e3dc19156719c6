"""``mindspore.mindrecord``: MindSpore's own dataset file format (writers, readers and
converters from CIFAR, ImageNet, CSV and TFRecord). cellax's datasets read NumPy, Python
sources and the common image datasets; the MindRecord classes import, and building one raises
``NotImplementedError``.

Examples:
    >>> from cellax.mindrecord import FileWriter, SUCCESS
    >>> try:
    ...     FileWriter("data.mindrecord")
    ... except NotImplementedError as e:
    ...     print(type(e).__name__)
    NotImplementedError
"""

from __future__ import annotations

from .._errors import unavailable

__all__ = [
    "FileWriter",
    "FileReader",
    "MindPage",
    "Cifar10ToMR",
    "Cifar100ToMR",
    "CsvToMR",
    "ImageNetToMR",
    "MnistToMR",
    "TFRecordToMR",
    "set_enc_key",
    "set_enc_mode",
    "set_dec_mode",
    "SUCCESS",
    "FAILED",
]

SUCCESS = 0
FAILED = 1

_REASON = (
    "cellax does not read or write MindRecord files; convert the data to NumPy arrays or a "
    "Python source and use dataset.NumpySlicesDataset or dataset.GeneratorDataset"
)


def _class(name: str) -> type:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"For '{name}', {_REASON}.")

    doc = f"MindSpore's MindRecord ``{name}``; building one raises NotImplementedError."
    return type(name, (), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


FileWriter = _class("FileWriter")
FileReader = _class("FileReader")
MindPage = _class("MindPage")
Cifar10ToMR = _class("Cifar10ToMR")
Cifar100ToMR = _class("Cifar100ToMR")
CsvToMR = _class("CsvToMR")
ImageNetToMR = _class("ImageNetToMR")
MnistToMR = _class("MnistToMR")
TFRecordToMR = _class("TFRecordToMR")


def _setting(name: str):
    return unavailable(
        name, f"For '{name}', {_REASON}.", f"MindRecord encryption setting; {_REASON}.", __name__
    )


set_enc_key = _setting("set_enc_key")
set_enc_mode = _setting("set_enc_mode")
set_dec_mode = _setting("set_dec_mode")
