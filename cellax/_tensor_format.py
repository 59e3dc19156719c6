"""How a Tensor prints: MindSpore 2.10's layout for ``str()`` and ``repr()`` (observed)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

__all__ = ["format_value", "str_value"]


_EDGE = 3  # elements kept at each end of a summarized dimension
_WRAP = {"f": 12, "b": 12}  # 1-D line feed after this many elements; 24 for the other kinds


def _kind(array: np.ndarray) -> str:
    if array.dtype == jnp.bfloat16:
        return "g"  # bfloat16 prints like an integer column of %g strings
    return array.dtype.kind


def _elements(array: np.ndarray, kind: str) -> list:
    """Unpadded element strings of a 1-D array."""
    if kind == "f":
        spec = "%.4e" if array.dtype == np.float16 else "%.8e"
        return [spec % v for v in array.tolist()]
    if kind == "g":
        return ["%g" % v for v in array.astype(np.float32).tolist()]
    if kind == "b":
        return ["True" if v else "False" for v in array.tolist()]
    if kind == "c":
        return ["%g%+gj" % (v.real, v.imag) for v in array.tolist()]
    return [str(v) for v in array.tolist()]


def format_value(array: np.ndarray) -> str:
    """The part after ``value=`` in MindSpore's Tensor repr."""
    if array.ndim == 0:
        return " " + _scalar_str(array)
    lead = "\n" if array.ndim > 1 else " "
    if array.size == 0:
        return lead
    kind = _kind(array)
    ndim = array.ndim

    # 1) choose the printed elements: every dimension longer than 6 keeps 3 + 3 entries
    #    (a 1-D tensor only when it has more than 1000 elements).
    def keep(n: int) -> list:
        if n > 2 * _EDGE and (ndim > 1 or n > 1000):
            return list(range(_EDGE)) + [None] + list(range(n - _EDGE, n))
        return list(range(n))

    rows = array.reshape(-1, array.shape[-1]) if ndim > 1 else array.reshape(1, -1)
    last = keep(array.shape[-1])
    cols = [i for i in last if i is not None]
    outer = [keep(d) for d in array.shape[:-1]]

    def row_ids(level: int, base: int):
        if level == len(outer):
            yield base
            return
        for i in outer[level]:
            if i is not None:
                yield from row_ids(level + 1, base * array.shape[level] + i)

    printed = {r: _elements(rows[r][cols], kind) for r in row_ids(0, 0)}
    width = 0
    if kind == "f":
        width = 11 if array.dtype == np.float16 else 15
    elif kind in "iug":
        width = max(len(t) for texts in printed.values() for t in texts)
    elif kind == "b":
        width = 5
    wrap = _WRAP.get("f" if kind == "f" else kind, 24) if ndim == 1 and None not in last else 0

    def bottom(r: int) -> str:
        texts = [t.rjust(width) for t in printed[r]]
        parts = []
        j = 0
        for i in last:
            if i is None:
                parts[-1] = parts[-1][:-2] + " ... "
                continue
            item = texts[j] + (", " if i != last[-1] else "")
            j += 1
            if wrap and (i + 1) % wrap == 0:
                item += "\n "
            parts.append(item)
        return "[" + "".join(parts) + "]"

    def block(level: int, base: int) -> str:
        if level == len(outer):
            return bottom(base)
        indent = " " * (level + 1)
        text = "["
        first = True
        after_gap = False
        for i in outer[level]:
            if i is None:
                text += ",\n" + indent + "..."
                after_gap = True
                continue
            if not first:
                text += ("\n" if after_gap else ",\n") + indent
            text += block(level + 1, base * array.shape[level] + i)
            first = False
            after_gap = False
        return text + "]"

    return lead + block(0, 0)


def _scalar_str(array: np.ndarray) -> str:
    value = array.item()
    kind = _kind(array)
    if kind in "fg":
        return "%g" % float(value)
    if kind == "c":
        return "%g%+gj" % (value.real, value.imag)
    return str(value)


def str_value(array: np.ndarray) -> str:
    """``str(tensor)``: NumPy 1.x's str of the value (MindSpore pins numpy<2); bfloat16
    elements print as ``%f`` like MindSpore's own bfloat16 NumPy type."""
    if array.dtype == jnp.bfloat16:
        values = array.astype(np.float64)
        if values.ndim == 0:
            return "%f" % values.item()
        return np.array2string(values, separator=" ", formatter={"float_kind": lambda v: "%f" % v})
    if array.ndim == 0 and array.dtype.kind == "f":
        value = array[()]
        magnitude = abs(float(value))
        if magnitude == 0 or 1e-4 <= magnitude < 1e16 or not np.isfinite(magnitude):
            return np.format_float_positional(value, trim="0")
        return np.format_float_scientific(value, trim="-")
    return str(array)
