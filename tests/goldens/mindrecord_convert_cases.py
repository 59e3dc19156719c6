"""Tiny source datasets for the MindRecord converters, written the same way under MindSpore's
interpreter (record_mindrecord_convert.py) and cellax's (tests/dataset/test_mindrecord_convert.py):
CIFAR-10/100 pickled batches, gzipped MNIST idx files, an ImageNet-style folder and CSV files."""

import gzip
import os
import pickle

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
