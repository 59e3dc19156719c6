"""MindRecord files both ways: files MindSpore 2.10 wrote (tests/goldens/mindrecord_ms.tar.gz,
recorded by tests/goldens/record_mindrecord.py) read by cellax, and files cellax writes read by
MindSpore (when the oracle interpreter /root/ms-ref is there)."""

import json
import os
import subprocess
import sys
import tarfile
import textwrap

import numpy as np
import pytest

from cellax import dataset as ds
from cellax.mindrecord import FileReader, FileWriter

GOLDENS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "goldens")
sys.path.insert(0, GOLDENS)
import mindrecord_cases as mc  # noqa: E402

ORACLE = "/root/ms-ref/bin/python"


def _golden(tmp_path):
    with tarfile.open(os.path.join(GOLDENS, "mindrecord_ms.tar.gz")) as tar:
        tar.extractall(tmp_path, filter="data")
    with open(os.path.join(GOLDENS, "mindrecord_ms.json")) as f:
        return str(tmp_path / mc.NAME), json.load(f)


def _write_cases(path):
    writer = FileWriter(path, overwrite=True)
    writer.set_header_size(mc.HEADER_SIZE)
    writer.set_page_size(mc.PAGE_SIZE)
    writer.add_schema(mc.SCHEMA, mc.DESC)
    writer.add_index(mc.INDEX)
    for batch in mc.batches():
        writer.write_raw_data(batch)
    writer.commit()


def _dataset_rows(path, **kwargs):
    data = ds.MindDataset(path, shuffle=False, **kwargs)
    return [
        {k: mc.plain(v) for k, v in row.items()}
        for row in data.create_dict_iterator(output_numpy=True, num_epochs=1)
    ]


def test_reads_files_mindspore_wrote(tmp_path):
    path, golden = _golden(tmp_path)
    rows = [{k: mc.plain(v) for k, v in row.items()} for row in FileReader(path).get_next()]
    assert rows == golden["file_reader"]
    assert ds.MindDataset(path).get_col_names() == golden["columns"]
    assert _dataset_rows(path) == golden["mind_dataset"]


def test_writes_the_bytes_mindspore_writes(tmp_path):
    golden_path, _ = _golden(tmp_path / "ms")
    path = str(tmp_path / mc.NAME)
    _write_cases(path)
    with open(path, "rb") as mine, open(golden_path, "rb") as theirs:
        assert mine.read() == theirs.read()


def _many_rows(count, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(count):
        rows.append(
            {
                "name": "n" * int(rng.integers(0, 6000)),
                "label": i,
                "blob": rng.bytes(int(rng.integers(0, 9000))),
                # MindSpore 2.10 reads an empty array field as a garbage scalar: none here
                "vec": rng.integers(-(1 << 40), 1 << 40, int(rng.integers(1, 50))),
            }
        )
    return rows


MANY_SCHEMA = {
    "name": {"type": "string"},
    "label": {"type": "int64"},
    "blob": {"type": "bytes"},
    "vec": {"type": "int64", "shape": [-1]},
}


def _check_rows(read, rows):
    assert len(read) == len(rows)
    for got, want in zip(read, rows):
        assert got["name"] == want["name"] and got["label"] == want["label"]
        assert got["blob"] == want["blob"]
        np.testing.assert_array_equal(got["vec"], want["vec"])


def test_round_trip_over_many_pages_shards_and_appends(tmp_path):
    path = str(tmp_path / "many.mindrecord")
    rows = _many_rows(60)
    writer = FileWriter(path, shard_num=3)
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema(MANY_SCHEMA)
    for start in range(0, 40, 7):
        writer.write_raw_data(rows[start : min(start + 7, 40)])
    writer.commit()
    appender = FileWriter.open_for_append(path + "0")
    appender.write_raw_data(rows[40:])
    appender.commit()
    paths = [path + str(i) for i in range(3)]
    read = list(FileReader(paths[0]).get_next())
    # each write spreads its rows over the shards: rebuild the file order from the labels
    by_label = {r["label"]: r for r in rows}
    _check_rows(read, [by_label[r["label"]] for r in read])
    assert sorted(r["label"] for r in read) == list(range(60))
    with open(paths[0], "rb") as f:
        header = json.loads(f.read()[8:].split(b"\0")[0])
    assert sum(p["page_type"] == "BLOB_DATA" for p in header["page"]) > 3
    assert sum(p["page_type"] == "RAW_DATA" for p in header["page"]) > 1
    only = list(FileReader([paths[1]]).get_next())
    assert 0 < len(only) < 60 and ds.MindDataset([paths[1]]).get_dataset_size() == len(only)


def test_mind_dataset_sharding_padding_and_samplers(tmp_path):
    path = str(tmp_path / "ten.mindrecord")
    writer = FileWriter(path)
    writer.add_schema({"label": {"type": "int32"}, "s": {"type": "string"}})
    writer.write_raw_data([{"label": i, "s": "a" * i} for i in range(10)])
    writer.commit()

    def labels(**kwargs):
        data = ds.MindDataset(path, **kwargs)
        return [int(r["label"]) for r in data.create_dict_iterator(output_numpy=True)]

    # MindSpore 2.10 on the same ten rows
    assert [labels(shuffle=False, num_shards=3, shard_id=i) for i in range(3)] == [
        [0, 3, 6, 9],
        [1, 4, 7, 0],
        [2, 5, 8, 1],
    ]
    assert labels(shuffle=False, num_samples=4) == [0, 1, 2, 3]
    padded = {"label": -1, "s": "pad"}
    kwargs = dict(shuffle=False, num_shards=4, padded_sample=padded, num_padded=2)
    assert [labels(shard_id=i, **kwargs) for i in range(4)] == [
        [0, 4, 8],
        [1, 5, 9],
        [2, 6, -1],
        [3, 7, -1],
    ]
    assert labels(sampler=ds.SubsetSampler([3, 1, 7])) == [3, 1, 7]
    assert labels(sampler=ds.SequentialSampler(2, 3)) == [2, 3, 4]
    assert sorted(labels()) == list(range(10))
    data = ds.MindDataset(path, columns_list=["s", "label"], shuffle=False)
    assert data.get_col_names() == ["s", "label"]
    first = next(data.create_tuple_iterator(output_numpy=True))
    assert first[0].dtype.kind == "U" and first[1].dtype == np.int32
    with pytest.raises(RuntimeError, match="divisible"):
        ds.MindDataset(path, num_shards=4, shard_id=0, padded_sample=padded, num_padded=1)
    with pytest.raises(ValueError, match="not in the schema"):
        ds.MindDataset(path, columns_list=["zz"])


def test_writer_errors(tmp_path):
    path = str(tmp_path / "e.mindrecord")
    writer = FileWriter(path)
    with pytest.raises(ValueError, match="should be composed"):
        writer.add_schema({"a-b": {"type": "int32"}})
    with pytest.raises(ValueError, match="has type"):
        writer.add_schema({"a": {"type": "string", "shape": [2]}})
    with pytest.raises(ValueError, match="must be an int in"):
        writer.set_page_size(100)
    writer.add_schema({"a": {"type": "int32"}, "b": {"type": "bytes"}})
    with pytest.raises(ValueError, match="not primitive"):
        writer.add_index(["b"])
    with pytest.raises(RuntimeError, match="no valid data"):
        writer.write_raw_data([{"a": "x", "b": b""}])
    writer.write_raw_data([{"a": 1, "b": b""}])
    writer.commit()
    again = FileWriter(path)
    again.add_schema({"a": {"type": "int32"}})
    with pytest.raises(RuntimeError, match="already exist"):
        again.commit()
    with pytest.raises(RuntimeError, match="flushed"):
        writer.write_raw_data([{"a": 1, "b": b""}])
    big = FileWriter(str(tmp_path / "big.mindrecord"))
    big.set_page_size(1 << 15)
    big.add_schema({"b": {"type": "bytes"}})
    with pytest.raises(RuntimeError, match="set_page_size"):
        big.write_raw_data([{"b": bytes(1 << 16)}])
    os.remove(path + ".db")
    with pytest.raises(RuntimeError, match="index file"):
        FileReader(path)


_ORACLE_READ = textwrap.dedent(
    """
    import json, sys
    import numpy as np
    import mindspore.dataset as ds
    from mindspore.mindrecord import FileReader, FileWriter
    sys.path.insert(0, GOLDENS)
    from mindrecord_cases import plain

    out = {}
    for path in sys.argv[1:]:
        reader = FileReader(path)
        out[path] = {
            "file_reader": [{k: plain(v) for k, v in r.items()} for r in reader.get_next()],
            "mind_dataset": [
                {k: plain(v) for k, v in r.items()}
                for r in ds.MindDataset(path, shuffle=False).create_dict_iterator(
                    output_numpy=True, num_epochs=1
                )
            ],
        }
        reader.close()
    appender = FileWriter.open_for_append(sys.argv[1])
    appender.write_raw_data([{"label": 1000, "name": "ms", "blob": b"x", "vec": np.arange(3)}])
    appender.commit()
    print(json.dumps(out))
    """
)


@pytest.mark.skipif(not os.path.exists(ORACLE), reason="MindSpore 2.10 (/root/ms-ref) is absent")
def test_mindspore_reads_files_cellax_wrote(tmp_path):
    many = str(tmp_path / "many.mindrecord")
    writer = FileWriter(many, shard_num=2)
    writer.set_page_size(1 << 15)
    writer.set_header_size(1 << 14)
    writer.add_schema(MANY_SCHEMA)
    writer.write_raw_data(_many_rows(30, seed=1))
    writer.commit()
    cases = str(tmp_path / mc.NAME)
    _write_cases(cases)
    mine = {}
    for path in (many + "0", cases):
        rows = [{k: mc.plain(v) for k, v in r.items()} for r in FileReader(path).get_next()]
        mine[path] = {"file_reader": rows, "mind_dataset": _dataset_rows(path)}
    script = tmp_path / "read.py"
    script.write_text(_ORACLE_READ.replace("GOLDENS", repr(GOLDENS)))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["GLOG_v"] = "3"
    result = subprocess.run(
        [ORACLE, str(script), many + "0", cases],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    theirs = json.loads(result.stdout.strip().splitlines()[-1])
    assert theirs == mine
    # MindSpore appended a row to cellax's files: cellax reads it
    labels = [r["label"] for r in FileReader(many + "0").get_next()]
    assert sorted(labels) == [*range(30), 1000]
