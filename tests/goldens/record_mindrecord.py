"""Record a small MindRecord file set written by MindSpore 2.10's FileWriter, and the rows its
FileReader and MindDataset read back (tests/dataset/test_mindrecord.py reads them with cellax).

Run from /tmp with the oracle interpreter (never from the tests):
    cd /tmp && /root/ms-ref/bin/python /work/main/tests/goldens/record_mindrecord.py
It writes tests/goldens/mindrecord_ms.tar.gz (the shard file and its index file, 16 KB header,
32 KB pages) and tests/goldens/mindrecord_ms.json.
"""

import io
import json
import os
import sys
import tarfile
import tempfile


HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import mindrecord_cases as mc  # noqa: E402

import mindspore.dataset as ds  # noqa: E402
from mindspore.mindrecord import FileReader, FileWriter  # noqa: E402


def main() -> None:
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, mc.NAME)
    writer = FileWriter(path, shard_num=1, overwrite=True)
    writer.set_header_size(mc.HEADER_SIZE)
    writer.set_page_size(mc.PAGE_SIZE)
    writer.add_schema(mc.SCHEMA, mc.DESC)
    writer.add_index(mc.INDEX)
    for batch in mc.batches():
        writer.write_raw_data(batch)
    writer.commit()
    reader = FileReader(path)
    rows = [{k: mc.plain(v) for k, v in row.items()} for row in reader.get_next()]
    reader.close()
    data = ds.MindDataset(path, shuffle=False)
    dataset_rows = [
        {k: mc.plain(v) for k, v in row.items()}
        for row in data.create_dict_iterator(output_numpy=True, num_epochs=1)
    ]
    out = {"file_reader": rows, "mind_dataset": dataset_rows, "columns": data.get_col_names()}
    with open(os.path.join(HERE, "mindrecord_ms.json"), "w") as f:
        json.dump(out, f, sort_keys=True)
        f.write("\n")
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for name in (mc.NAME, mc.NAME + ".db"):
            info = tar.gettarinfo(os.path.join(folder, name), arcname=name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            with open(os.path.join(folder, name), "rb") as f:
                tar.addfile(info, f)
    with open(os.path.join(HERE, "mindrecord_ms.tar.gz"), "wb") as f:
        f.write(buffer.getvalue())
    print(f"wrote {len(rows)} rows, {len(buffer.getvalue())} bytes of files")


if __name__ == "__main__":
    main()
