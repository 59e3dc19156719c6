"""MindSpore's ``.ckpt`` file format: the protobuf schema, a streaming writer and reader.

A ``.ckpt`` file is a serialized ``Checkpoint`` protobuf message (proto2)::

    message Checkpoint {
      message Value {
        required string tag = 1;                      // the parameter name
        oneof value { TensorProto tensor = 2; MapTensorProto maptensor = 3; }
      }
      repeated Value value = 1;
    }
    message TensorProto {
      repeated int64 dims = 1;                        // the shape; [] for 0-d
      required string tensor_type = 2;                // 'Float32', 'BFloat16', 'Bool', 'str'...
      required bytes tensor_content = 3;              // C-order little-endian bytes
    }
    message MapTensorProto { repeated TensorProto tensor = 1; }

MindSpore writes one serialized ``Checkpoint`` holding a single ``Value`` per chunk and
concatenates them (protobuf merges repeated fields on concatenation). A large tensor is
split into several consecutive Values with the same tag and full ``dims``; a reader joins
their contents. A file saved with ``crc_check=True`` ends with ``b'crc_num'`` followed by the
CRC32 of everything before it as 10 big-endian bytes.

The schema is built at runtime with ``google.protobuf.descriptor_pb2``; protobuf is an optional
dependency imported on first use. The reader walks the top-level ``value`` records one at a
time over a memory map (each record is parsed by protobuf), so loading never holds the file
contents twice; the writer streams each tensor in chunks of at most ``CHUNK_BYTES``.
"""

from __future__ import annotations

import binascii
import math
import mmap
import os
import warnings

import numpy as np

from .. import _dtype

__all__ = ["CHUNK_BYTES", "schema", "CheckpointWriter", "read_checkpoint", "is_known_type"]

CHUNK_BYTES = 64 * 1024 * 1024
_CRC_MARK = b"crc_num"
_CRC_TRAILER = len(_CRC_MARK) + 10
# The first byte of each top-level record: field 1 (Checkpoint.value), wire type 2.
_VALUE_KEY = 0x0A

_NAME_TO_NUMPY = {t.name: t.np_dtype for t in _dtype._ALL}
_NUMPY_TO_NAME = {dtype: name for name, dtype in _NAME_TO_NUMPY.items()}

_schema_cache: list = []


def _import_protobuf(api: str):
    try:
        from google.protobuf import (  # noqa: F401
            descriptor_pb2,
            descriptor_pool,
            message,
            message_factory,
        )
    except ImportError as error:
        raise ImportError(
            f"For '{api}', the '.ckpt' format needs the 'protobuf' package, but it is not "
            f"installed ({error}). Install it with `pip install protobuf` (or "
            f"`pip install cellax[ckpt]`), or use format='safetensors'."
        ) from None
    return descriptor_pb2, descriptor_pool, message, message_factory


def schema(api: str = "load_checkpoint"):
    """``(Checkpoint, DecodeError)``: the message class of the ``.ckpt`` schema, built once."""
    if _schema_cache:
        return _schema_cache[0]
    descriptor_pb2, descriptor_pool, message, message_factory = _import_protobuf(api)
    field = descriptor_pb2.FieldDescriptorProto
    proto = descriptor_pb2.FileDescriptorProto(name="cellax/checkpoint.proto", syntax="proto2")

    def add(msg, name, number, label, type_, type_name=None, oneof_index=None):
        entry = msg.field.add(name=name, number=number, label=label, type=type_)
        if type_name is not None:
            entry.type_name = type_name
        if oneof_index is not None:
            entry.oneof_index = oneof_index

    checkpoint = proto.message_type.add(name="Checkpoint")
    add(checkpoint, "value", 1, field.LABEL_REPEATED, field.TYPE_MESSAGE, ".Checkpoint.Value")
    value = checkpoint.nested_type.add(name="Value")
    add(value, "tag", 1, field.LABEL_REQUIRED, field.TYPE_STRING)
    value.oneof_decl.add(name="value")
    add(value, "tensor", 2, field.LABEL_OPTIONAL, field.TYPE_MESSAGE, ".TensorProto", 0)
    add(value, "maptensor", 3, field.LABEL_OPTIONAL, field.TYPE_MESSAGE, ".MapTensorProto", 0)
    tensor = proto.message_type.add(name="TensorProto")
    add(tensor, "dims", 1, field.LABEL_REPEATED, field.TYPE_INT64)
    add(tensor, "tensor_type", 2, field.LABEL_REQUIRED, field.TYPE_STRING)
    add(tensor, "tensor_content", 3, field.LABEL_REQUIRED, field.TYPE_BYTES)
    map_tensor = proto.message_type.add(name="MapTensorProto")
    add(map_tensor, "tensor", 1, field.LABEL_REPEATED, field.TYPE_MESSAGE, ".TensorProto")

    # A private pool, so that this schema never clashes with another copy of it in the process.
    pool = descriptor_pool.DescriptorPool()
    pool.Add(proto)
    message_class = message_factory.GetMessageClass(pool.FindMessageTypeByName("Checkpoint"))
    _schema_cache.append((message_class, message.DecodeError))
    return _schema_cache[0]


def contiguous(array: np.ndarray) -> np.ndarray:
    """A C-contiguous array of the same shape (``np.ascontiguousarray`` makes 0-d arrays 1-d)."""
    if array.flags.c_contiguous:
        return array
    return np.ascontiguousarray(array).reshape(array.shape)


def is_known_type(np_dtype) -> bool:
    return np.dtype(np_dtype) in _NUMPY_TO_NAME


def type_name(np_dtype) -> str:
    """The ``tensor_type`` string MindSpore writes for a NumPy dtype ('Float32', ...)."""
    return _NUMPY_TO_NAME[np.dtype(np_dtype)]


class CheckpointWriter:
    """Writes ``.ckpt`` records to an open binary file, one chunk at a time."""

    def __init__(self, file, crc_check: bool = False, api: str = "save_checkpoint") -> None:
        self._file = file
        self._crc = 0 if crc_check else None
        self._checkpoint = schema(api)[0]

    def _emit(self, name: str, dims, tensor_type: str, content: bytes) -> None:
        record = self._checkpoint()
        value = record.value.add()
        value.tag = name
        value.tensor.dims.extend(dims)
        value.tensor.tensor_type = tensor_type
        value.tensor.tensor_content = content
        data = record.SerializeToString()
        if self._crc is not None:
            self._crc = binascii.crc32(data, self._crc)
        self._file.write(data)

    def write_array(self, name: str, array: np.ndarray) -> None:
        """One tensor, split into records of at most ``CHUNK_BYTES`` content bytes."""
        array = contiguous(np.asarray(array))
        dims = list(array.shape)
        tensor_type = type_name(array.dtype)
        flat = array.reshape(-1).view(np.uint8)
        if flat.size == 0:
            self._emit(name, dims, tensor_type, b"")
            return
        step = max(1, int(CHUNK_BYTES))
        for start in range(0, flat.size, step):
            self._emit(name, dims, tensor_type, flat[start : start + step].tobytes())

    def write_str(self, name: str, text: str) -> None:
        """A string entry (MindSpore stores ``append_dict`` strings as UCS-4, dims [0])."""
        content = np.array(text, dtype=f"<U{len(text)}").tobytes() if text else b""
        self._emit(name, [0], "str", content)

    def finish(self) -> None:
        if self._crc is not None:
            self._file.write(_CRC_MARK + self._crc.to_bytes(10, byteorder="big"))


MAX_DIMS = 64  # what NumPy (and MindSpore) can hold


def _fail(path: str, what: str) -> ValueError:
    return ValueError(
        f"For 'load_checkpoint', the checkpoint file '{path}' is not a valid MindSpore checkpoint: "
        f"{what}. The file may be truncated or corrupted; save it again or use another copy."
    )


def _read_varint(view, pos: int, end: int, path: str) -> tuple[int, int]:
    result = 0
    shift = 0
    while True:
        if pos >= end:
            raise _fail(path, f"the file ends inside a record header at byte {pos}")
        byte = view[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7
        if shift > 63:
            raise _fail(path, f"a record length at byte {pos} is not a valid varint")


def _drop_pages(mm, start: int, stop: int) -> None:
    """Let the kernel drop mapped pages already parsed, so they stop counting as resident."""
    advice = getattr(mmap, "MADV_DONTNEED", None)
    if advice is None:
        return
    start -= start % mmap.PAGESIZE
    if stop > start:
        try:
            mm.madvise(advice, start, stop - start)
        except (OSError, ValueError):
            pass


def _records(mm, view, end: int, path: str, checkpoint, decode_error):
    """Yield ``(offset, Checkpoint.Value)`` for every top-level record, one at a time.

    Only the framing of the repeated top-level field (key byte, length) is walked here, so the
    file is never parsed as a whole; each record is parsed by protobuf. A file framed in any
    other (still valid) way is parsed by protobuf in one piece instead.
    """
    value_class = checkpoint.Value
    pos = 0
    while pos < end:
        if view[pos] != _VALUE_KEY:
            if pos == 0:
                yield from _whole_message(view, end, path, checkpoint, decode_error)
                return
            raise _fail(path, f"unexpected data at byte {pos} (expected a checkpoint record)")
        length, start = _read_varint(view, pos + 1, end, path)
        stop = start + length
        if stop > end:
            raise _fail(
                path,
                f"the record at byte {pos} declares {length} bytes but only {end - start} remain "
                f"(the file is truncated)",
            )
        chunk = view[start:stop]
        try:
            record = value_class.FromString(chunk)
        except decode_error as error:
            raise _fail(path, f"the record at byte {pos} can not be parsed ({error})") from None
        finally:
            chunk.release()
        _drop_pages(mm, pos, stop)
        yield pos, record
        pos = stop


def _whole_message(view, end: int, path: str, checkpoint, decode_error):
    try:
        message = checkpoint.FromString(view[:end])
    except decode_error as error:
        raise _fail(path, f"protobuf can not parse it ({error})") from None
    for record in message.value:
        yield 0, record


def _layout(path: str, tag: str, dims, tensor_type: str, total: int):
    """``(numpy dtype, shape)`` of a tensor entry whose records hold ``total`` bytes."""
    np_dtype = _NAME_TO_NUMPY.get(tensor_type)
    if np_dtype is None:
        raise _fail(
            path,
            f"the entry '{tag}' has tensor_type '{tensor_type}', which cellax does not know "
            f"(known: {sorted(_NAME_TO_NUMPY)} and 'str')",
        )
    shape = tuple(int(d) for d in dims)
    if len(shape) > MAX_DIMS:
        raise _fail(path, f"the entry '{tag}' has {len(shape)} dimensions (at most {MAX_DIMS})")
    if any(d < 0 for d in shape):
        raise _fail(path, f"the entry '{tag}' has a negative dimension in {list(shape)}")
    if shape == (0,) and total == np_dtype.itemsize:
        shape = ()  # older MindSpore versions wrote 0-d tensors with dims [0]
    expected = math.prod(shape) * np_dtype.itemsize  # Python ints: no int64 wrap-around
    if total != expected:
        raise _fail(
            path,
            f"the entry '{tag}' ({tensor_type}, shape {list(shape)}) needs {expected} bytes of "
            f"data but the file holds {total}",
        )
    return np_dtype, shape


def _build(path: str, tag: str, dims, tensor_type: str, chunks: list):
    """The value of one entry from the contents of its records."""
    if tensor_type == "str":
        data = b"".join(chunks)
        if len(data) % 4:
            raise _fail(path, f"the string entry '{tag}' has {len(data)} bytes, not UCS-4 text")
        return str(np.frombuffer(data, dtype=f"<U{len(data) // 4}")[0]) if data else ""
    np_dtype, shape = _layout(path, tag, dims, tensor_type, sum(len(c) for c in chunks))
    if len(chunks) == 1:
        return np.frombuffer(chunks[0], dtype=np_dtype).reshape(shape)
    array = np.empty(shape, dtype=np_dtype)
    raw = array.reshape(-1).view(np.uint8)
    offset = 0
    for chunk in chunks:
        raw[offset : offset + len(chunk)] = np.frombuffer(chunk, dtype=np.uint8)
        offset += len(chunk)
    return array


def read_checkpoint(path: str, select=None, crc_check: bool = False):
    """Yield ``(name, numpy.ndarray | str)`` for every entry of a ``.ckpt`` file in file order.

    ``select(name) -> bool`` skips entries (their bytes are still checked). Raises ValueError
    naming the file for an empty, truncated, corrupted or non-checkpoint file; the caller must
    consume the whole iterator before using any entry, so that a bad file never half-loads.
    """
    checkpoint, decode_error = schema("load_checkpoint")
    size = os.path.getsize(path)
    if size == 0:
        raise _fail(path, "the file is empty (0 bytes)")
    with open(path, "rb") as file, mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        view = memoryview(mm)
        try:
            end = size
            if size >= _CRC_TRAILER and view[size - _CRC_TRAILER : size - 10] == _CRC_MARK:
                end = size - _CRC_TRAILER
                if crc_check:
                    stored = int.from_bytes(view[size - 10 :], byteorder="big")
                    computed = 0
                    for start in range(0, end, CHUNK_BYTES):
                        stop = min(end, start + CHUNK_BYTES)
                        computed = binascii.crc32(view[start:stop], computed)
                        _drop_pages(mm, start, stop)
                    if computed != stored:
                        raise _fail(path, "the CRC32 check failed (the content was modified)")
            elif crc_check:
                warnings.warn(
                    f"For 'load_checkpoint', crc_check=True but '{path}' has no CRC code (it "
                    f"was saved with crc_check=False, or its end was cut off); it is loaded "
                    f"without the check.",
                    stacklevel=4,
                )
            yield from _entries(mm, view, end, path, checkpoint, decode_error, select)
        finally:
            view.release()


def _tag(path: str, record, offset: int) -> str:
    """The record's name as text (protobuf hands undecodable names over as bytes)."""
    tag = record.tag
    if isinstance(tag, bytes):
        try:
            return tag.decode("utf-8")
        except UnicodeDecodeError:
            raise _fail(
                path, f"the name {tag!r} of the record at byte {offset} is not UTF-8 text"
            ) from None
    return tag


def _entries(mm, view, end, path, checkpoint, decode_error, select):
    """Group consecutive records with the same tag into entries; yield ``(tag, value)``."""
    entry = None  # [tag, dims, tensor_type, contents (or sizes when not selected), selected]
    for offset, record in _records(mm, view, end, path, checkpoint, decode_error):
        tag = _tag(path, record, offset)
        if not record.HasField("tensor"):
            if not record.HasField("maptensor"):
                raise _fail(path, f"the record '{tag}' at byte {offset} holds no tensor")
            warnings.warn(
                f"For 'load_checkpoint', '{path}' holds the MapParameter '{tag}', which "
                f"cellax does not support; it is skipped.",
                stacklevel=5,
            )
            continue
        tensor = record.tensor
        if entry is not None and entry[0] == tag:
            if list(tensor.dims) != entry[1] or tensor.tensor_type != entry[2]:
                raise _fail(
                    path,
                    f"the chunks of '{tag}' disagree on its shape or type "
                    f"(record at byte {offset})",
                )
        else:
            if entry is not None:
                yield from _finish(path, entry)
            selected = select is None or bool(select(tag))
            entry = [tag, list(tensor.dims), tensor.tensor_type, [], selected]
        content = tensor.tensor_content
        entry[3].append(content if entry[4] else len(content))
    if entry is not None:
        yield from _finish(path, entry)


def _finish(path: str, entry: list):
    tag, dims, tensor_type, contents, selected = entry
    if selected:
        yield tag, _build(path, tag, dims, tensor_type, contents)
    elif tensor_type != "str":
        _layout(path, tag, dims, tensor_type, sum(contents))
