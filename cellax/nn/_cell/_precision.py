"""Cell's mixed-precision facade: to_float, input/output casts, cast_param."""

from __future__ import annotations

from ... import _dtype, _transforms
from ..._tensor import Tensor, wrap

__all__ = ["CellPrecisionMixin"]


class CellPrecisionMixin:
    """``to_float`` and the casts it implies (mixed into :class:`Cell`)."""

    def _construct_in_float_dtype(self, *args, **kwargs):
        # to_float / amp: Parameters are read in the Cell's dtype, masters stay float32
        dtype = self._float_dtype.np_dtype
        out = _transforms.call_with_param_dtype(self._construct_call, dtype, args, kwargs)
        output_dtype = self.__dict__.get("_amp_output_dtype")
        if output_dtype is not None:
            out = self._cast_outputs_to(out, output_dtype.np_dtype)
        return out

    @staticmethod
    def _cast_outputs_to(out, np_dtype):
        if isinstance(out, (tuple, list)):
            return type(out)(CellPrecisionMixin._cast_outputs_to(item, np_dtype) for item in out)
        if isinstance(out, Tensor) and out.dtype.is_floating and out._value.dtype != np_dtype:
            return wrap(out._value.astype(np_dtype))
        return out

    def to_float(self, dst_type):
        """Run this Cell and its children in ``dst_type`` (float16, bfloat16 or float32).

        Raises:
            ValueError: If ``dst_type`` is not float16, bfloat16 or float32.
        """
        if dst_type not in (_dtype.float16, _dtype.bfloat16, _dtype.float32):
            raise ValueError(
                f"For 'to_float', 'dst_type' must be float16, bfloat16 or float32, but got "
                f"{dst_type!r}."
            )
        for _, cell in self.cells_and_names():
            object.__setattr__(cell, "_float_dtype", _dtype.to_dtype(dst_type))
        self.add_flags_recursive(
            fp16=dst_type == _dtype.float16,
            fp32=dst_type == _dtype.float32,
            bf16=dst_type == _dtype.bfloat16,
        )
        return self

    @staticmethod
    def _cast_inputs_to(inputs: tuple, dst_type) -> tuple:
        np_dtype = _dtype.to_dtype(dst_type).np_dtype

        def cast(x):
            if isinstance(x, Tensor) and x.dtype.is_floating and x._value.dtype != np_dtype:
                return wrap(x._value.astype(np_dtype))
            return x

        return tuple(cast(x) for x in inputs)

    def cast_inputs(self, inputs, dst_type) -> tuple:
        """Cast the floating Tensors among ``inputs`` to ``dst_type``."""
        return self._cast_inputs_to(tuple(inputs), dst_type)

    def auto_cast_inputs(self, inputs) -> tuple:
        """Cast ``inputs`` to the dtype set by :meth:`to_float` (unchanged if none)."""
        if self._float_dtype is None:
            return tuple(inputs)
        return self._cast_inputs_to(tuple(inputs), self._float_dtype)

    def cast_param(self, param):
        """The value of ``param`` in the dtype set by :meth:`to_float`."""
        if self._float_dtype is None or not param.dtype.is_floating:
            return param
        return wrap(param._value.astype(self._float_dtype.np_dtype))
