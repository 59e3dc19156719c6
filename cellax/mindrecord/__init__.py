"""``mindspore.mindrecord``: MindSpore's own dataset file format. ``FileWriter`` writes
MindRecord files (shard files and their SQLite index files) that MindSpore 2.10 reads, and
``FileReader`` and ``dataset.MindDataset`` read files MindSpore wrote. ``MindPage``, the
converters from CIFAR, ImageNet, MNIST, CSV and TFRecord and the encryption settings import,
and using them raises ``NotImplementedError``.

Examples:
    >>> import os, tempfile
    >>> from cellax.mindrecord import FileWriter, FileReader
    >>> path = os.path.join(tempfile.mkdtemp(), "data.mindrecord")
    >>> writer = FileWriter(path)
    >>> writer.add_schema({"file_name": {"type": "string"}, "label": {"type": "int32"}})
    0
    >>> writer.write_raw_data([{"file_name": "0.jpg", "label": 0}])
    >>> writer.commit()
    >>> list(FileReader(path).get_next())
    [{'file_name': '0.jpg', 'label': 0}]
"""

from __future__ import annotations

from .._errors import unavailable
from ._reader import FileReader as FileReader
from ._writer import FileWriter as FileWriter

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
    "cellax does not have this MindRecord API; write the rows with mindrecord.FileWriter "
    "and read them with mindrecord.FileReader or dataset.MindDataset"
)


def _class(name: str) -> type:
    def __init__(self, *args, **kwargs):
        raise NotImplementedError(f"For '{name}', {_REASON}.")

    doc = f"MindSpore's MindRecord ``{name}``; building one raises NotImplementedError."
    return type(name, (), {"__init__": __init__, "__doc__": doc, "__module__": __name__})


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
