"""``ops.CustomRegOp`` (the registration info of a custom kernel, built at import time by
model code) and ``ops.Morph`` (a primitive that runs a Python function).

A custom kernel itself (AKG, AICPU, Ascend C) cannot run on JAX: the registration info builds
as in MindSpore, and the registration functions raise when called (``unavailable.py``).
"""

from __future__ import annotations

from .primitive import Primitive

__all__ = ["CustomRegOp", "Morph"]


class CustomRegOp:
    """Build the registration info of a custom operator (``mindspore.ops.CustomRegOp``):
    each method records its part and returns the builder; :meth:`get_op_info` returns the
    info as MindSpore's dict.

    Args:
        op_name (str): The kernel's name. Default: ``"Custom"``.

    Examples:
        >>> from cellax import ops
        >>> info = (ops.CustomRegOp("scale").input(0, "x").output(0, "y")
        ...         .dtype_format(ops.DataType.F32_Default, ops.DataType.F32_Default)
        ...         .target("GPU").get_op_info())
        >>> info["inputs"], info["target"]
        ([{'index': 0, 'name': 'x', 'paramType': 'required'}], 'GPU')
    """

    def __init__(self, op_name: str = "Custom") -> None:
        self.op_name = op_name
        self.inputs: list = []
        self.outputs: list = []
        self.attr_: list = []
        self.fusion_type_ = ""
        self.dtype_format_: list = []
        self.target_ = ""

    @staticmethod
    def _io(index, name, param_type, kwargs) -> dict:
        item = {} if index is None else {"index": index}
        if name is not None:
            item["name"] = name
        item["paramType"] = param_type
        item.update(kwargs)
        return item

    def input(self, index=None, name=None, param_type="required", **kwargs):
        """Add an input (``index``, ``name``, ``"required"``/``"optional"``/``"dynamic"``)."""
        self.inputs.append(self._io(index, name, param_type, kwargs))
        return self

    def output(self, index=None, name=None, param_type="required", **kwargs):
        """Add an output, as :meth:`input`."""
        self.outputs.append(self._io(index, name, param_type, kwargs))
        return self

    def dtype_format(self, *args):
        """Add one supported ``(dtype, format)`` combination, one per input and output."""
        self.dtype_format_.append(tuple(args))
        return self

    def attr(self, name=None, param_type=None, value_type=None, default_value=None, **kwargs):
        """Add an attribute of the kernel."""
        item = {"name": name, "paramType": param_type, "type": value_type}
        if default_value is not None:
            item["defaultValue"] = default_value
        item.update(kwargs)
        self.attr_.append({k: v for k, v in item.items() if v is not None})
        return self

    def fusion_type(self, fusion_type: str):
        """Record the fusion type."""
        self.fusion_type_ = fusion_type
        return self

    def target(self, target=None):
        """Record the device the kernel is for (``"Ascend"``, ``"GPU"``, ``"CPU"``)."""
        self.target_ = target or ""
        return self

    def get_op_info(self) -> dict:
        """The registration info."""
        return {
            "op_name": self.op_name,
            "inputs": self.inputs,
            "outputs": self.outputs,
            "attr": self.attr_,
            "fusion_type": self.fusion_type_,
            "dtype_format": self.dtype_format_,
            "target": self.target_,
        }


class Morph(Primitive):
    """A primitive that runs ``fn`` on its inputs (``mindspore.ops.Morph``). MindSpore uses
    ``infer_shape``/``infer_dtype`` to compile around the opaque function; JAX traces ``fn``
    itself, so they are kept and not needed.

    Args:
        fn (Callable): The function.
        infer_shape (Callable): Output shapes from input shapes (kept).
        infer_dtype (Callable): Output dtypes from input dtypes (kept).
        bprop_fn (Callable): A custom backward ``bprop_fn(*inputs, out, dout)``. Default:
            ``None`` (the gradient of ``fn``).

    Raises:
        NotImplementedError: When an instance with a ``bprop_fn`` is called.

    Examples:
        >>> import cellax as ms
        >>> double = ms.ops.Morph(lambda x: x * 2, lambda s: s, lambda t: t)
        >>> print(double(ms.Tensor([1.0, 2.0])))
        [2. 4.]
    """

    def __init__(self, fn, infer_shape, infer_dtype, bprop_fn=None) -> None:
        super().__init__("Morph")
        self.__fn = fn
        self.infer_shape, self.infer_dtype, self.bprop_fn = infer_shape, infer_dtype, bprop_fn

    def __call__(self, *args):
        if self.bprop_fn is not None:
            raise NotImplementedError(
                "For 'Morph', a custom 'bprop_fn' is not supported by cellax; wrap 'fn' in a "
                "Cell with a 'bprop' method instead."
            )
        return self.__fn(*args)
