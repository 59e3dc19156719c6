"""The MindRecord converters and MindPage against MindSpore 2.10: the same tiny sources
(tests/goldens/mindrecord_convert_cases.py) converted by MindSpore
(tests/goldens/record_mindrecord_convert.py -> mindrecord_convert.json) and by cellax give the
same schemas, headers, rows and pages."""

import json
import os
import sys

import numpy as np
import pytest

from cellax import mindrecord
from cellax.mindrecord import FileReader, MindPage

GOLDENS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens")
sys.path.insert(0, GOLDENS)
import mindrecord_convert_cases as cc  # noqa: E402

with open(os.path.join(GOLDENS, "mindrecord_convert.json")) as _f:
    GOLDEN = json.load(_f)


def _file(path, strip=""):
    return cc.read_file(FileReader, path, strip)


def _pages(path):
    return cc.read_pages(MindPage, path)


def _same(ours, golden):
    # JSON turns dict keys' order and tuples into its own; compare through it
    assert json.loads(json.dumps(ours, sort_keys=True)) == golden


def test_cifar10(tmp_path):
    cc.write_cifar10(str(tmp_path / "cifar10"))
    dest = str(tmp_path / "cifar10.mindrecord")
    mindrecord.Cifar10ToMR(str(tmp_path / "cifar10"), dest).transform(["label"])
    ours = {"train": _file(dest), "test": _file(dest + "_test"), "pages": _pages(dest)}
    _same(ours, GOLDEN["cifar10"])


def test_cifar100(tmp_path):
    cc.write_cifar100(str(tmp_path / "cifar100"))
    dest = str(tmp_path / "cifar100.mindrecord")
    mindrecord.Cifar100ToMR(str(tmp_path / "cifar100"), dest).transform()
    _same({"train": _file(dest), "test": _file(dest + "_test")}, GOLDEN["cifar100"])


def test_mnist(tmp_path):
    cc.write_mnist(str(tmp_path / "mnist"))
    dest = str(tmp_path / "mnist")
    mindrecord.MnistToMR(str(tmp_path / "mnist"), dest).transform()
    ours = {"train": _file(dest + "_train.mindrecord"), "test": _file(dest + "_test.mindrecord")}
    _same(ours, GOLDEN["mnist"])


def test_imagenet(tmp_path):
    cc.write_imagenet(str(tmp_path / "imagenet"))
    dest = str(tmp_path / "imagenet.mindrecord")
    image_dir = str(tmp_path / "imagenet" / "train")
    mindrecord.ImageNetToMR(str(tmp_path / "imagenet" / "map.txt"), image_dir, dest).transform()
    ours = _file(dest, strip=image_dir)
    golden = GOLDEN["imagenet"]
    # MindSpore lists a class folder in the file system's order, cellax in sorted order
    golden = {**golden, "rows": sorted(golden["rows"], key=lambda r: r["file_name"])}
    _same(ours, golden)


@pytest.mark.parametrize("name", sorted(cc.CSV_CASES))
def test_csv(tmp_path, name):
    dest = str(tmp_path / (name + ".mindrecord"))
    columns = cc.CSV_CASES[name][1]
    mindrecord.CsvToMR(cc.write_csv(str(tmp_path), name), dest, columns_list=columns).transform()
    _same({**_file(dest), "pages": _pages(dest)}, GOLDEN["csv"][name])


@pytest.mark.parametrize("name", sorted(cc.CSV_ERRORS))
def test_csv_errors(tmp_path, name):
    kind, message = GOLDEN["csv_errors"][name]
    columns = cc.CSV_ERRORS[name][1]
    source = cc.write_csv(str(tmp_path), name)
    words = {"digit_name": "must not start with a digit", "missing_column": "column c does not"}
    with pytest.raises({"RuntimeError": RuntimeError}[kind], match=words[name]):
        mindrecord.CsvToMR(source, str(tmp_path / name), columns).transform()


def test_csv_numbers_only(tmp_path):
    # MindSpore drops every row here (pandas gives it the int column as floats); cellax writes
    source = tmp_path / "n.csv"
    source.write_text("a,b\n1,2.5\n3,4\n")
    mindrecord.CsvToMR(str(source), str(tmp_path / "n.mindrecord")).transform()
    assert list(FileReader(str(tmp_path / "n.mindrecord")).get_next()) == [
        {"a": 1, "b": 2.5},
        {"a": 3, "b": 4},
    ]


def test_cifar10_batches_in_sorted_order(tmp_path):
    import pickle

    folder = tmp_path / "c"
    folder.mkdir()
    for name, labels in (("data_batch_2", [2, 3]), ("data_batch_1", [0, 1]), ("test_batch", [9])):
        batch = {b"data": np.zeros((len(labels), 3072), np.uint8), b"labels": labels}
        (folder / name).write_bytes(pickle.dumps(batch))
    mindrecord.Cifar10ToMR(str(folder), str(tmp_path / "c.mindrecord")).transform()
    rows = FileReader(str(tmp_path / "c.mindrecord")).get_next()
    assert [(r["id"], r["label"]) for r in rows] == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_cifar_pickle_that_runs_code_is_refused(tmp_path):
    import pickle

    folder = tmp_path / "c"
    folder.mkdir()
    (folder / "data_batch_1").write_bytes(pickle.dumps({b"data": os.getcwd}))
    (folder / "test_batch").write_bytes(b"")
    with pytest.raises(RuntimeError, match="not a CIFAR Python batch"):
        mindrecord.Cifar10ToMR(str(folder), str(tmp_path / "c.mindrecord")).transform()


def test_converter_argument_errors(tmp_path):
    with pytest.raises(ValueError, match="has no 'test_batch' file"):
        (tmp_path / "data_batch_1").write_bytes(b"")
        mindrecord.Cifar10ToMR(str(tmp_path), str(tmp_path / "x.mindrecord"))
    with pytest.raises(ValueError, match="must not contain"):
        mindrecord.CsvToMR("a.csv", str(tmp_path / "x?.mindrecord"))
    with pytest.raises(ValueError, match="'partition_number' must be an int"):
        mindrecord.ImageNetToMR("map.txt", "images", str(tmp_path / "x"), "2")
    with pytest.raises(ValueError, match="'fields' must be None or a list"):
        (tmp_path / "test_batch").write_bytes(b"")
        mindrecord.Cifar10ToMR(str(tmp_path), str(tmp_path / "x.mindrecord")).transform("label")


def test_tfrecord_needs_tensorflow():
    try:
        import tensorflow  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="'tensorflow' package"):
            mindrecord.TFRecordToMR("a.tfrecord", "a.mindrecord", {})


def _paged_file(tmp_path, shard_num=2):
    from cellax.mindrecord import FileWriter

    path = str(tmp_path / "p.mindrecord")
    writer = FileWriter(path, shard_num)
    schema = {
        "file_name": {"type": "string"},
        "label": {"type": "int32"},
        "data": {"type": "bytes"},
    }
    writer.add_schema(schema)
    rows = [{"file_name": f"{i % 3}.jpg", "label": i % 12, "data": bytes([i])} for i in range(14)]
    writer.write_raw_data(rows)
    writer.commit()
    return path


def test_mind_page_across_shards(tmp_path):
    path = _paged_file(tmp_path)
    page = MindPage(path + "0")
    page.category_field = "label"
    info = json.loads(page.read_category_info())
    # names are ordered as strings, counts summed over the shards
    assert [c["name"] for c in info["categories"]][:4] == ["0", "1", "10", "11"]
    assert info["categories"][0] == {"count": 2, "id": 0, "name": "0"}
    assert [r["data"] for r in page.read_at_page_by_name("0", 0, 5)] == [b"\x00", b"\x0c"]
    assert [r["data"] for r in page.read_at_page_by_id(0, 1, 1)] == [b"\x0c"]
    only_first = MindPage([path + "0"])
    only_first.category_field = "file_name"
    counts = [c["count"] for c in json.loads(only_first.read_category_info())["categories"]]
    assert sum(counts) == 7


def test_mind_page_errors(tmp_path):
    page = MindPage(_paged_file(tmp_path, 1))
    with pytest.raises(RuntimeError, match="set 'category_field'"):
        page.read_category_info()
    with pytest.raises(ValueError, match="not a candidate category field"):
        page.category_field = "data"
    with pytest.raises(TypeError, match="non-empty str"):
        page.category_field = 3
    page.category_field = "label"
    with pytest.raises(RuntimeError, match="must be in the range \\[0, 11\\]"):
        page.read_at_page_by_id(12, 0, 1)
    with pytest.raises(RuntimeError, match="past the 2 rows"):
        page.read_at_page_by_id(0, 1, 2)
    with pytest.raises(RuntimeError, match="could not found"):
        page.read_at_page_by_name("zz", 0, 1)
    with pytest.raises(ValueError, match="'category_id' must be an int"):
        page.read_at_page_by_id(-1, 0, 1)
    with pytest.raises(ValueError, match="'page' must be an int"):
        page.read_at_page_by_id(0, -1, 1)
    with pytest.raises(ValueError, match="'num_row' must be an int"):
        page.read_at_page_by_name("0", 0, 0)
    with pytest.raises(ValueError, match="'category_name' must be a str"):
        page.read_at_page_by_name(0, 0, 1)
    with pytest.raises(ValueError, match="'num_consumer'"):
        MindPage(str(tmp_path / "p.mindrecord"), num_consumer=0)
