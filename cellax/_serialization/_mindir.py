"""``export`` and ``load``: cellax's ``.mindir`` file, a portable StableHLO artifact.

cellax runs on XLA and cannot write MindSpore's MindIR (a protobuf of MindSpore's own graph IR).
Under MindSpore's name a cellax ``.mindir`` is a zip archive of:

- ``cellax_mindir.json``: the format tag and version, and each parameter's name, dtype, shape;
- ``graph.stablehlo``: ``jax.export.export(forward).serialize()``, where
  ``forward(params, *inputs)`` is the network in inference mode (``set_train(False)``) as a
  pure function of its parameter values (a dict by name) and inputs;
- ``params/<i>.bin``: the raw bytes of each parameter value, in the manifest's order.

The parameters are stored beside the program rather than baked in as constants, so
``GraphCell(graph, params_init=...)`` can replace them without re-exporting.
"""

from __future__ import annotations

import io
import json
import os
import zipfile

import jax
import numpy as np

from .._transforms import functional_call, state
from ..nn._cell import Cell
from ..nn._graph_cell import FuncGraph
from ..ops._impl.cpu_kernels import portable_convolutions
from ._common import _atomic_write, _check_file_name, _input_spec

__all__ = ["export", "load"]

FORMAT_TAG = "cellax-mindir"
FORMAT_VERSION = 1
MANIFEST = "cellax_mindir.json"
GRAPH = "graph.stablehlo"
_FORMATS = ("MINDIR", "AIR", "ONNX")
_UNSUPPORTED_KWARGS = ("enc_key", "enc_mode", "dataset", "custom_func")


def _export_program(net, specs, platforms):
    def forward(params, *inputs):
        return functional_call(net, params, *inputs)[0]

    values = state(net)
    for rng in (False, True):
        if rng:
            values = state(net, rng=True)
        params = {k: jax.ShapeDtypeStruct(v.shape, v.dtype) for k, v in values.items()}
        try:
            with portable_convolutions():  # the program runs on any of ``platforms``
                exported = jax.export.export(jax.jit(forward), platforms=platforms)(params, *specs)
        except KeyError as error:
            if rng or "'rng'" not in str(error):
                raise
            continue
        return exported, values
    raise AssertionError("unreachable")


def _require_flatbuffers(api: str) -> None:
    """``jax.export``'s (de)serialization needs the ``flatbuffers`` package."""
    try:
        import flatbuffers  # noqa: F401
    except ImportError as error:
        raise ImportError(
            f"For '{api}', cellax's .mindir files need the 'flatbuffers' package (used by "
            "jax.export's serialization). Install it with: pip install 'cellax[deploy]'."
        ) from error


def _write_mindir(path: str, exported, values: dict) -> None:
    names = sorted(values)  # the order jax flattens the params dict in
    arrays = [np.asarray(values[name]) for name in names]
    manifest = {
        "format": FORMAT_TAG,
        "version": FORMAT_VERSION,
        "jax_version": jax.__version__,
        "params": [
            {"name": n, "dtype": str(a.dtype), "shape": list(a.shape)}
            for n, a in zip(names, arrays)
        ],
    }

    def write(tmp: str) -> None:
        with zipfile.ZipFile(tmp, "w", zipfile.ZIP_STORED) as archive:
            archive.writestr(MANIFEST, json.dumps(manifest, indent=1))
            archive.writestr(GRAPH, bytes(exported.serialize()))
            for i, array in enumerate(arrays):
                archive.writestr(f"params/{i}.bin", np.ascontiguousarray(array).tobytes())

    _atomic_write(path, write)


def export(net, *inputs, file_name, file_format="MINDIR", **kwargs) -> None:
    """Export a network for inference to a file (``mindspore.export``).

    MindSpore page: https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.export.html

    With ``file_format="MINDIR"`` this writes ``<file_name>.mindir`` (the suffix is added when
    missing, as MindSpore does): cellax's own portable artifact, the network's forward
    function in inference mode serialized as StableHLO with ``jax.export``, together with
    its parameter values. :func:`load` reads it back and :class:`cellax.nn.GraphCell` runs it,
    in another process, without the Python model.

    With ``file_format="ONNX"`` this writes ``<file_name>.onnx``: an ONNX model (opset 17)
    converted by cellax from the network's jaxpr in inference mode, the parameters as
    initializers under their names, the inputs named after ``construct``'s arguments. It needs
    the ``onnx`` package (``pip install 'cellax[onnx]'``); onnxruntime, TensorRT and other
    ONNX runtimes run it.

    Args:
        net (Cell): The network.
        *inputs (Union[Tensor, numpy.ndarray, Number]): Example inputs fixing the exported
            shapes and dtypes. ``Tensor(shape=[None, 3], dtype=ms.float32)`` exports a
            dynamic dimension (any size at run time; ``None`` on axis 0 means one batch size
            shared by every input, named ``batch`` in an ONNX file).
        file_name (str): The output file; ``.mindir`` (``.onnx``) is appended when missing.
        file_format (str): ``"MINDIR"`` or ``"ONNX"``. ``"AIR"`` (Ascend's offline format)
            raises. Default: ``"MINDIR"``.
        **kwargs: ``platforms`` (cellax only, MINDIR): the XLA platforms to lower for, e.g.
            ``("cpu", "cuda")``. Default: the current backend. ``incremental`` is accepted and
            ignored; ``enc_key``, ``enc_mode``, ``dataset`` and ``custom_func`` raise.

    Raises:
        TypeError: If ``net`` is not a Cell or an input is not a Tensor, array or number.
        ValueError: If ``file_format`` is not one of "MINDIR", "AIR", "ONNX", or
            ``file_name`` is not a str.
        NotImplementedError: For "AIR", or an unsupported option in ``kwargs``.
        RuntimeError: For "ONNX", if the network uses a JAX primitive the converter has no
            rule for (the message names the primitive and the Cells that emitted it).
        ImportError: For "ONNX", if the ``onnx`` package is not installed.

    Differences from MindSpore: the ``.mindir`` file is not MindSpore's MindIR protobuf and
    MindSpore cannot read it (nor can cellax read MindSpore's); see the "Deploy" guide.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> net = ms.nn.Dense(3, 2)
        >>> path = os.path.join(tempfile.mkdtemp(), "net")
        >>> x = ms.Tensor(shape=[None, 3], dtype=ms.float32)
        >>> ms.export(net, x, file_name=path, file_format="MINDIR")
        >>> graph_net = ms.nn.GraphCell(ms.load(path + ".mindir"))
        >>> data = ms.Tensor(np.ones((5, 3), np.float32))
        >>> np.allclose(graph_net(data).asnumpy(), net(data).asnumpy())
        True
    """
    _check_file_name("export", file_name)
    if file_format not in _FORMATS:
        raise ValueError(
            f"For 'export', 'file_format' must be one of {list(_FORMATS)}, but got {file_format!r}."
        )
    if file_format == "AIR":
        raise NotImplementedError(
            "For 'export', file_format='AIR' is Ascend's offline model format, which only "
            "MindSpore's Ascend graph compiler (CANN) writes; cellax runs on XLA and cannot "
            "produce it. Use file_format='MINDIR' (cellax's StableHLO artifact)."
        )
    unsupported = sorted(k for k in kwargs if k in _UNSUPPORTED_KWARGS)
    unknown = sorted(set(kwargs) - set(_UNSUPPORTED_KWARGS) - {"platforms", "incremental"})
    if unsupported or unknown:
        raise NotImplementedError(
            f"For 'export', cellax does not support the options {unsupported + unknown} "
            "(encryption, dataset preprocessing, custom_func). Remove them."
        )
    if not isinstance(net, Cell):
        raise TypeError(f"For 'export', 'net' must be a Cell, but got {type(net).__name__}.")
    if file_format == "ONNX":
        from . import _onnx

        return _onnx.export(net, *inputs, file_name=file_name)
    _require_flatbuffers("export")
    platforms = kwargs.get("platforms")
    platforms = None if platforms is None else tuple(platforms)
    scope = jax.export.SymbolicScope()
    specs = [_input_spec(x, i, scope) for i, x in enumerate(inputs)]
    if not file_name.endswith(".mindir"):
        file_name += ".mindir"
    was_training = bool(getattr(net, "training", False))
    net.set_train(False)
    try:
        exported, values = _export_program(net, specs, platforms)
    finally:
        net.set_train(was_training)
    _write_mindir(os.path.realpath(file_name), exported, values)


def _not_cellax_mindir(file_name: str, head: bytes) -> RuntimeError:
    kind = (
        "a MindSpore MindIR file (a protobuf written by MindSpore's graph compiler)"
        if head[:1] in (b"\x0a", b"\x12", b"\x1a", b"\x22", b"\x2a", b"\x32", b"\x3a")
        else "not a file cellax.export wrote"
    )
    return RuntimeError(
        f"For 'load', '{file_name}' is {kind}. cellax cannot run MindSpore's MindIR graphs; "
        "it loads only the .mindir files cellax.export writes (StableHLO). Export the network "
        "again with cellax, or rebuild it in Python and load its checkpoint."
    )


def load(file_name, **kwargs) -> FuncGraph:
    """Load a graph that :func:`export` wrote (``mindspore.load``).

    MindSpore page: https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.load.html

    Args:
        file_name (str): A ``.mindir`` file written by :func:`cellax.export`.
        **kwargs: ``dec_key``/``dec_mode`` (decryption) raise NotImplementedError.

    Returns:
        FuncGraph, to run with :class:`cellax.nn.GraphCell`.

    Raises:
        ValueError: If ``file_name`` is not a str, does not end with ".mindir", or does not
            exist.
        RuntimeError: If the file is MindSpore's MindIR (protobuf) or otherwise not a cellax
            ``.mindir``, or was written by a newer cellax.
        NotImplementedError: If ``dec_key`` or ``obf_func`` is given.

    Differences from MindSpore: reads cellax's StableHLO ``.mindir`` only, not MindSpore's
    MindIR protobuf.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> path = os.path.join(tempfile.mkdtemp(), "relu")
        >>> ms.export(ms.nn.ReLU(), ms.Tensor([-1.0, 2.0]), file_name=path, file_format="MINDIR")
        >>> graph = ms.load(path + ".mindir")
        >>> print(ms.nn.GraphCell(graph)(ms.Tensor([3.0, -4.0])))
        [3. 0.]
    """
    if "obf_func" in kwargs or "dec_key" in kwargs:
        raise NotImplementedError(
            "For 'load', decryption and obfuscation (dec_key, obf_func) are not supported."
        )
    _check_file_name("load", file_name)
    if not file_name.endswith(".mindir"):
        raise ValueError(
            f"For 'load', the argument 'file_name' must end with '.mindir', but got '{file_name}'."
        )
    if not os.path.exists(file_name):
        raise ValueError(f"For 'load', the file '{file_name}' does not exist.")
    with open(file_name, "rb") as f:
        head = f.read(4)
    if not zipfile.is_zipfile(file_name):
        raise _not_cellax_mindir(file_name, head)
    with zipfile.ZipFile(file_name) as archive:
        if MANIFEST not in archive.namelist():
            raise _not_cellax_mindir(file_name, head)
        manifest = json.loads(archive.read(MANIFEST))
        if manifest.get("format") != FORMAT_TAG or manifest.get("version", 0) > FORMAT_VERSION:
            raise RuntimeError(
                f"For 'load', '{file_name}' has format {manifest.get('format')!r} version "
                f"{manifest.get('version')!r}; this cellax reads {FORMAT_TAG!r} up to version "
                f"{FORMAT_VERSION}. Upgrade cellax."
            )
        _require_flatbuffers("load")
        exported = jax.export.deserialize(bytearray(archive.read(GRAPH)))
        params = {}
        for i, entry in enumerate(manifest["params"]):
            raw = io.BytesIO(archive.read(f"params/{i}.bin")).getvalue()
            array = np.frombuffer(raw, dtype=jax.numpy.dtype(entry["dtype"]))
            params[entry["name"]] = array.reshape(entry["shape"]).copy()
    return FuncGraph(exported, params, file_name)
