"""Record what MindSpore 2.10's MindRecord converters (Cifar10ToMR, Cifar100ToMR, MnistToMR,
ImageNetToMR, CsvToMR) write from the tiny sources of mindrecord_convert_cases.py, and what
MindPage reads back from those files (tests/dataset/test_mindrecord_convert.py compares cellax).

MindSpore's converters import cv2 and pandas, which its venv lacks: install them into a scratch
folder (never into the oracle venv) and run from /tmp:
    /root/ms-ref/bin/pip install --no-deps --target /tmp/msextra opencv-python-headless==4.11.0.86 \
        pandas==2.2.3 python-dateutil pytz tzdata six
    cd /tmp && PYTHONPATH=/tmp/msextra /root/ms-ref/bin/python \
        /work/main/tests/goldens/record_mindrecord_convert.py
It writes tests/goldens/mindrecord_convert.json.
"""

import json
import os
import sys
import tempfile


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mindrecord_convert_cases as cc  # noqa: E402

from mindspore.mindrecord import (  # noqa: E402
    Cifar10ToMR,
    Cifar100ToMR,
    CsvToMR,
    FileReader,
    ImageNetToMR,
    MindPage,
    MnistToMR,
)


def _file(path, strip=""):
    return cc.read_file(FileReader, path, strip)


def _pages(path):
    return cc.read_pages(MindPage, path)


def main():
    root = tempfile.mkdtemp()
    out = {}
    cc.write_cifar10(os.path.join(root, "cifar10"))
    dest = os.path.join(root, "cifar10.mindrecord")
    Cifar10ToMR(os.path.join(root, "cifar10"), dest).transform(["label"])
    out["cifar10"] = {"train": _file(dest), "test": _file(dest + "_test"), "pages": _pages(dest)}
    cc.write_cifar100(os.path.join(root, "cifar100"))
    dest = os.path.join(root, "cifar100.mindrecord")
    Cifar100ToMR(os.path.join(root, "cifar100"), dest).transform()
    out["cifar100"] = {"train": _file(dest), "test": _file(dest + "_test")}
    cc.write_mnist(os.path.join(root, "mnist"))
    dest = os.path.join(root, "mnist")
    MnistToMR(os.path.join(root, "mnist"), dest).transform()
    out["mnist"] = {
        "train": _file(dest + "_train.mindrecord"),
        "test": _file(dest + "_test.mindrecord"),
    }
    cc.write_imagenet(os.path.join(root, "imagenet"))
    dest = os.path.join(root, "imagenet.mindrecord")
    image_dir = os.path.join(root, "imagenet", "train")
    ImageNetToMR(os.path.join(root, "imagenet", "map.txt"), image_dir, dest).transform()
    out["imagenet"] = _file(dest, strip=image_dir)
    out["csv"] = {}
    for name, (_, columns) in cc.CSV_CASES.items():
        dest = os.path.join(root, name + ".mindrecord")
        CsvToMR(cc.write_csv(root, name), dest, columns_list=columns).transform()
        out["csv"][name] = {**_file(dest), "pages": _pages(dest)}
    out["csv_errors"] = {}
    for name, (_, columns) in cc.CSV_ERRORS.items():
        try:
            CsvToMR(cc.write_csv(root, name), os.path.join(root, name), columns).transform()
            out["csv_errors"][name] = None
        except Exception as error:  # noqa: BLE001 - recording what MindSpore raises
            out["csv_errors"][name] = [type(error).__name__, str(error)]
    with open(os.path.join(HERE, "mindrecord_convert.json"), "w") as f:
        json.dump(out, f, sort_keys=True, indent=0)
        f.write("\n")
    print("recorded", sorted(out))


if __name__ == "__main__":
    main()
