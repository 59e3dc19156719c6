"""Tiny source datasets for the MindRecord converters, written the same way under MindSpore's
interpreter (record_mindrecord_convert.py) and cellax's (tests/dataset/test_mindrecord_convert.py):
CIFAR-10/100 pickled batches, gzipped MNIST idx files, an ImageNet-style folder and CSV files;
and the one way both read a converted file back (:func:`read_file`, :func:`read_pages`), given
their own ``FileReader`` and ``MindPage``."""

import gzip
import hashlib
import json
import os
import pickle
import struct

import numpy as np

# name -> (CSV text, columns_list)
CSV_CASES = {
    "mixed": ('a,b,c,d\n1,True,x y,1.5\n-3,false,"q,r",2\n 7 ,TRUE,NA,-0.25\n', None),
    "strings": ("name,label\nada,1\nbob,2\n", None),
    "subset": ("name,label,w\nada,1,x\nbob,2,y\n", ["w", "label"]),
    "spaces": ("a,b,c\n 1 , 2.0,s\n3,1e3,t\n4,-2.5e-3, \n", None),
}
CSV_ERRORS = {
    "digit_name": ("1a,b\n1,x\n", None),
    "missing_column": ("a,b\n1,x\n", ["c"]),
}


def image(k: int, height: int, width: int, channels: int) -> np.ndarray:
    """A smooth uint8 test image (gradients, so JPEG has something real to encode)."""
    y, x, c = np.meshgrid(np.arange(height), np.arange(width), np.arange(channels), indexing="ij")
    return ((x * 7 + y * (3 + k) + c * 60 + k * 29) % 256).astype(np.uint8)


def _pickle(path, batch):
    with open(path, "wb") as f:
        pickle.dump(batch, f, protocol=4)


def _chw(images):
    return np.stack(images).transpose(0, 3, 1, 2).reshape(len(images), -1)


def write_cifar10(folder):
    os.makedirs(folder)
    for name, ks in (("data_batch_1", (0, 1, 2)), ("test_batch", (3, 4))):
        batch = {
            b"batch_label": name.encode(),
            b"labels": [k % 10 for k in ks],
            b"data": _chw([image(k, 32, 32, 3) for k in ks]),
            b"filenames": [f"{k}.png".encode() for k in ks],
        }
        _pickle(os.path.join(folder, name), batch)


def write_cifar100(folder):
    os.makedirs(folder)
    for name, ks in (("train", (5, 6, 7)), ("test", (8, 9))):
        batch = {
            b"batch_label": name.encode(),
            b"fine_labels": [k * 11 % 100 for k in ks],
            b"coarse_labels": [k % 20 for k in ks],
            b"data": _chw([image(k, 32, 32, 3) for k in ks]),
        }
        _pickle(os.path.join(folder, name), batch)


def write_mnist(folder):
    os.makedirs(folder)
    for split, ks in (("train", (10, 11, 12)), ("t10k", (13, 14))):
        images = np.stack([image(k, 28, 28, 1)[:, :, 0] for k in ks])
        head = np.array([2051, len(ks), 28, 28], ">i4").tobytes()
        with gzip.open(os.path.join(folder, f"{split}-images-idx3-ubyte.gz"), "wb") as f:
            f.write(head + images.tobytes())
        head = np.array([2049, len(ks)], ">i4").tobytes()
        with gzip.open(os.path.join(folder, f"{split}-labels-idx1-ubyte.gz"), "wb") as f:
            f.write(head + bytes(k % 10 for k in ks))


def write_imagenet(folder):
    """``folder/map.txt`` and ``folder/train/<class>/...``: two classes, a class without a
    folder, and files the converter skips (a .png, an empty .jpg)."""
    files = {
        "n01": {"a.JPEG": b"first image", "b.jpg": b"second", "skip.png": b"x", "empty.jpg": b""},
        "n02": {"c.JPEG": bytes(range(200))},
    }
    for name, contents in files.items():
        os.makedirs(os.path.join(folder, "train", name))
        for file_name, data in contents.items():
            with open(os.path.join(folder, "train", name, file_name), "wb") as f:
                f.write(data)
    with open(os.path.join(folder, "map.txt"), "w") as f:
        f.write("n01 0\nn02 1\nn03 2\n")


def write_csv(folder, name):
    text, _ = {**CSV_CASES, **CSV_ERRORS}[name]
    path = os.path.join(folder, name + ".csv")
    with open(path, "w") as f:
        f.write(text)
    return path


def plain(value):
    """A row value as JSON: bytes by their SHA-256, floats by repr, arrays with their dtype."""
    if isinstance(value, bytes):
        return {"sha256": hashlib.sha256(value).hexdigest()}
    if isinstance(value, float):
        return {"float": repr(value)}
    if isinstance(value, np.ndarray):
        return {"value": value.tolist(), "dtype": str(value.dtype)}
    return value


def _header(path):
    with open(path, "rb") as f:
        (size,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(size))
    return {
        "desc": header["schema"][0]["desc"],
        "index_fields": [f["index_field"] for f in header["index_fields"] or []],
        "header_size": header["header_size"],
        "page_size": header["page_size"],
        "shards": len(header["shard_addresses"]),
    }


def read_file(file_reader, path, strip=""):
    """The schema, rows (``strip`` replaced by ``<root>`` in file names) and header fields of
    the MindRecord file ``path``, read with the ``file_reader`` class."""
    reader = file_reader(path)
    rows = []
    for row in reader.get_next():
        if strip and "file_name" in row:
            row["file_name"] = row["file_name"].replace(strip, "<root>")
        rows.append({k: plain(v) for k, v in row.items()})
    out = {"schema": reader.schema(), "rows": rows, "header": _header(path)}
    reader.close()
    return out


def read_pages(mind_page, path):
    """What the ``mind_page`` class reads of ``path``: each candidate field's category info
    and its pages, by category id (pages of 2) and by name (the first 3 rows)."""
    page = mind_page(path)
    out = {"candidate_fields": page.candidate_fields, "fields": {}}
    for field in page.candidate_fields:
        page.category_field = field
        info = page.read_category_info()
        categories = json.loads(info)["categories"]
        by_id = [
            [{k: plain(v) for k, v in r.items()} for r in page.read_at_page_by_id(c["id"], p, 2)]
            for c in categories
            for p in range((c["count"] + 1) // 2)
        ]
        by_name = [
            [
                {k: plain(v) for k, v in r.items()}
                for r in page.read_at_page_by_name(c["name"], 0, 3)
            ]
            for c in categories
        ]
        out["fields"][field] = {"info": info, "by_id": by_id, "by_name": by_name}
    return out
