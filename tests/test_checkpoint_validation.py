"""Checkpoint headers are validated before anything is allocated (issue 22)."""

import json
import struct

import pytest

import cellax as ms
from cellax import nn
from cellax._serialization import _format


def _write(path, dims, content=b"\0" * 16, tag="w", tensor_type="Float32"):
    checkpoint, _ = _format.schema()
    message = checkpoint()
    value = message.value.add()
    value.tag = tag
    value.tensor.dims.extend(dims)
    value.tensor.tensor_type = tensor_type
    value.tensor.tensor_content = content
    path.write_bytes(message.SerializeToString())
    return str(path)


@pytest.mark.parametrize(
    "dims, match",
    [
        ([2**32, 2**32], r"needs 73786976294838206464 bytes of data but the file holds 16"),
        ([2**62, 4], r"needs 73786976294838206464 bytes"),
        ([1] * 70, r"has 70 dimensions \(at most 64\)"),
        ([-1, 4], r"negative dimension"),
    ],
)
def test_impossible_dims_are_a_value_error_naming_file_and_entry(tmp_path, dims, match):
    path = _write(tmp_path / "bad.ckpt", dims)
    with pytest.raises(ValueError, match=match) as error:
        ms.load_checkpoint(path)
    assert "bad.ckpt" in str(error.value) and "'w'" in str(error.value)


def test_unknown_dtype_code(tmp_path):
    path = _write(tmp_path / "bad.ckpt", [4], tensor_type="Float99")
    with pytest.raises(ValueError, match="tensor_type 'Float99'"):
        ms.load_checkpoint(path)


def test_name_that_is_not_utf8(tmp_path):
    path = tmp_path / "a.ckpt"
    ms.save_checkpoint(nn.Dense(2, 2), str(path))
    data = bytearray(path.read_bytes())
    data[data.index(b"weight") + 1] = 0xFF
    path.write_bytes(bytes(data))
    path = str(path)
    with pytest.raises(ValueError, match=r"the name b'w\\xffight' of the record .* is not UTF-8"):
        ms.load_checkpoint(path)


def test_safetensors_header_claiming_more_than_the_file_holds(tmp_path):
    pytest.importorskip("safetensors")
    header = json.dumps(
        {"w": {"dtype": "F32", "shape": [2**32, 2**32], "data_offsets": [0, 16]}}
    ).encode()
    path = tmp_path / "bad.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + b"\0" * 16)
    with pytest.raises(ValueError, match="bad.safetensors"):
        ms.load_checkpoint(str(path), format="safetensors")
