"""``mindspore.mindrecord``: MindSpore's own dataset file format. ``FileWriter`` writes
MindRecord files (shard files and their SQLite index files) that MindSpore 2.10 reads, and
``FileReader`` and ``dataset.MindDataset`` read files MindSpore wrote; ``MindPage`` reads rows by
the values of an index field. The converters write MindRecord files from CIFAR-10/100, MNIST,
ImageNet-style folders, CSV and (with TensorFlow installed) TFRecord. The encryption settings
import, and using them raises ``NotImplementedError``.

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
from ._images import Cifar10ToMR as Cifar10ToMR
from ._images import Cifar100ToMR as Cifar100ToMR
from ._images import ImageNetToMR as ImageNetToMR
from ._images import MnistToMR as MnistToMR
from ._page import MindPage as MindPage
from ._reader import FileReader as FileReader
from ._tables import CsvToMR as CsvToMR
from ._tables import TFRecordToMR as TFRecordToMR
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


def _setting(name: str):
    return unavailable(
        name, f"For '{name}', {_REASON}.", f"MindRecord encryption setting; {_REASON}.", __name__
    )


set_enc_key = _setting("set_enc_key")
set_enc_mode = _setting("set_enc_mode")
set_dec_mode = _setting("set_dec_mode")
