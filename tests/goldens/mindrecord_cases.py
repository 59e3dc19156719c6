"""The rows of the MindRecord goldens (record_mindrecord.py writes them with MindSpore,
tests/dataset/test_mindrecord.py with cellax): every field type, several blob fields, packed
int arrays, and enough bytes to fill more than one page; and :func:`plain`, how both sides (and
the MindSpore reader script of test_mindrecord.py) write a row value as JSON."""

import hashlib

import numpy as np

NAME = "golden.mindrecord"
HEADER_SIZE = 1 << 14
PAGE_SIZE = 1 << 15
DESC = "cellax golden"
SCHEMA = {
    "file_name": {"type": "string"},
    "label": {"type": "int32"},
    "big": {"type": "int64"},
    "score": {"type": "float32"},
    "weight": {"type": "float64"},
    "data": {"type": "bytes"},
    "mask": {"type": "float32", "shape": [2, 3]},
    "ids": {"type": "int64", "shape": [-1]},
    "pairs": {"type": "int32", "shape": [-1, 2]},
}
INDEX = ["file_name", "label"]


def batches():
    """Two write_raw_data calls; the blobs are sized so that a second blob page is needed."""
    rows = []
    for i in range(7):
        rows.append(
            {
                "file_name": f"img_{i}.jpg" + "é" * (i % 2),
                "label": i - 3,
                "big": (-1) ** i * (1 << (8 * i)),
                "score": 0.5 * i,
                "weight": 0.1 * i,
                "data": bytes((i * 37 + k) % 256 for k in range(6000 + 100 * i)),
                "mask": np.arange(6, dtype=np.float32).reshape(2, 3) / (i + 1),
                "ids": np.array([1, -200, 70000, -(1 << 40), 5][: i % 5 + 1], np.int64) * (i + 1),
                "pairs": np.arange(2 * (i + 1), dtype=np.int32).reshape(-1, 2) * (300 * i - 1),
            }
        )
    return [rows[:4], rows[4:]]


def plain(value):
    """A row value as JSON: arrays with dtype and shape (bytes arrays by each item's SHA-256),
    bytes by their SHA-256, anything else as it is."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "S":
            return {"sha256": [_digest(v) for v in value.tolist()], "dtype": str(value.dtype)}
        return {"value": value.tolist(), "dtype": str(value.dtype), "shape": list(value.shape)}
    if isinstance(value, bytes):
        return {"sha256": _digest(value)}
    return value


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
