"""Message helpers and the longer explanations cellax gives for tracing mistakes."""

from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = [
    "check_type",
    "check_bool",
    "check_bools",
    "check_float_in_open_unit",
    "check_float_arg",
    "check_number",
    "check_int",
    "check_int_arg",
    "check_positive_int",
    "check_positive_int_arg",
    "check_drop_probability",
    "check_probability",
    "MSG_TRACER_BOOL",
    "MSG_TRACED_NUMBER",
    "user_frame",
    "unavailable",
    "check_truth_value",
    "host_item",
]

MSG_TRACER_BOOL = """\
For '{api}', a Python `if`/`while`/`bool()` needs a concrete value, but the Tensor is traced \
(inside cellax.jit, GRAPH_MODE or a grad/vmap transform) and has no value yet. At {where}.

    ❌  if x > 0: y = x
    ✅  y = ops.select(x > 0, x, ops.zeros_like(x))

Use ops.select / ops.where for value-dependent choices, or pass the deciding value as a static
argument (a Python number) instead of a Tensor."""

MSG_TRACED_NUMBER = """\
For 'Tensor.item', a Python number (float(), int(), .item()) needs a concrete value, but the \
Tensor is being differentiated (inside cellax.grad / value_and_grad) and a Python number would \
cut its gradient. At {where}.

    ❌  return float(x.sum())
    ✅  return x.sum()

Keep the value a Tensor inside the differentiated function; convert the result outside it."""

MSG_TRACER_LEAK = """\
For '{cell}', construct stored a traced value on the attribute '{name}' while being compiled \
or differentiated. The value only exists inside the trace, so keeping it on the Cell would leak \
it. Store state in a Parameter or buffer and update it with ops.assign, or return it:

    ❌  self.{name} = x * 2
    ✅  ops.assign(self.{name}, x * 2)   # with self.{name} a Parameter / nn.Buffer"""


def type_name(value) -> str:
    return type(value).__name__


def check_type(api: str, name: str, value, types, expected: str | None = None):
    if not isinstance(value, types):
        if expected is None:
            names = types if isinstance(types, tuple) else (types,)
            expected = " or ".join(t.__name__ for t in names)
        raise TypeError(
            f"For '{api}', the type of '{name}' must be {expected}, but got {value!r} "
            f"of type {type_name(value)}."
        )
    return value


# MindSpore words a wrong bool differently by API family; the caller picks its family's wording
BOOL_TYPE = "the type of '{name}' must be bool, but got {value!r} of type {type}."  # validators
BOOL_SHORT = "'{name}' must be a bool, but got {type}."  # optimizers
BOOL_VALUE_TYPE = "'{name}' must be a bool, but got {value!r} of type {type}."  # lr schedules
BOOL_VALUE = "'{name}' must be a bool, but got {value!r}."  # grad and bprop options


def check_bool(api: str, name: str, value, wording: str = BOOL_TYPE) -> bool:
    """A bool (TypeError otherwise, worded by ``wording``: one of the ``BOOL_*`` templates)."""
    if not isinstance(value, bool):
        detail = wording.format(name=name, value=value, type=type_name(value))
        raise TypeError(f"For '{api}', {detail}")
    return value


def check_float_in_open_unit(api: str, name: str, value) -> float:
    """A Python float in (0, 1) (e.g. Adam's betas)."""
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(f"For '{api}', '{name}' must be a float, but got {value!r}.")
    if not 0.0 < value < 1.0:
        raise ValueError(f"For '{api}', '{name}' must be in (0, 1), but got {value}.")
    return value


def check_int(api: str, name: str, value) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(
            f"For '{api}', the type of '{name}' must be int, but got {value!r} "
            f"of type {type_name(value)}."
        )
    return value


def check_positive_int(api: str, name: str, value) -> int:
    check_int(api, name, value)
    if value <= 0:
        raise ValueError(f"For '{api}', '{name}' must be a positive int, but got {value}.")
    return value


def check_bools(api: str, wording: str = BOOL_VALUE, **values) -> None:
    """Each keyword argument a bool (:func:`check_bool` with ``wording``)."""
    for name, value in values.items():
        check_bool(api, name, value, wording)


def check_int_arg(
    api: str, name: str, value, minimum: int | None = None, *, maximum: int | None = None
) -> int:
    """A Python or NumPy int (not a bool), at least ``minimum`` and at most ``maximum`` when
    given (ValueError otherwise); as a Python int."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(
            f"For '{api}', '{name}' must be an int, but got {value!r} of type "
            f"{type(value).__name__}."
        )
    if minimum is not None and value < minimum:
        raise ValueError(f"For '{api}', '{name}' must be >= {minimum}, but got {value}.")
    if maximum is not None and value > maximum:
        raise ValueError(f"For '{api}', '{name}' must be <= {maximum}, but got {value}.")
    return int(value)


def check_positive_int_arg(api: str, name: str, value) -> int:
    """A Python int > 0 (the learning-rate schedules' wording)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(
            f"For '{api}', '{name}' must be an int, but got {value!r} of type "
            f"{type(value).__name__}."
        )
    if value <= 0:
        raise ValueError(f"For '{api}', '{name}' must be a positive int, but got {value}.")
    return value


def check_float_arg(api: str, name: str, value, *, positive: bool = False) -> float:
    """A Python float, > 0 with ``positive`` and >= 0 otherwise."""
    if isinstance(value, bool) or not isinstance(value, float):
        raise TypeError(
            f"For '{api}', '{name}' must be a float, but got {value!r} of type "
            f"{type(value).__name__}."
        )
    if positive and not value > 0:
        raise ValueError(f"For '{api}', '{name}' must be a positive float, but got {value}.")
    if not positive and value < 0:
        raise ValueError(f"For '{api}', '{name}' must be a non-negative float, but got {value}.")
    return value


def check_number(api: str, name: str, value, *, positive: bool = False) -> float:
    """A real number (int or float, not a bool) as a float, > 0 with ``positive``, else >= 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"For '{api}', '{name}' must be a float, but got {value!r} of type "
            f"{type(value).__name__}."
        )
    value = float(value)
    if positive and not value > 0:
        raise ValueError(f"For '{api}', '{name}' must be positive, but got {value}.")
    if value < 0:
        raise ValueError(f"For '{api}', '{name}' must be non-negative, but got {value}.")
    return value


def check_drop_probability(api: str, p) -> float:
    """A drop probability in [0, 1) for the Dropout Cells: TypeError for a value that is not
    an int or a float (a bool, a str, a tuple...), ValueError out of range, as MindSpore."""
    if isinstance(p, bool) or not isinstance(p, numbers.Real):
        raise TypeError(
            f"For '{api}', the drop probability 'p' must be an int or a float, but got "
            f"{type(p).__name__}: {p!r}."
        )
    if not 0 <= p < 1:
        raise ValueError(f"For '{api}', the drop probability 'p' must be in [0, 1), but got {p!r}.")
    return float(p)


def check_probability(api: str, p, error: type = ValueError):
    """A probability in [0, 1] for the functional dropouts: TypeError for a non-number,
    ``error`` (MindSpore raises a ValueError that is also a RuntimeError) out of range."""
    if isinstance(p, bool) or not isinstance(p, (int, float)):
        raise TypeError(f"For '{api}', 'p' must be a float, but got {type(p).__name__}.")
    if not 0 <= p <= 1:
        raise error(f"For '{api}', the drop probability 'p' must be in [0, 1], but got {p}.")
    return p


def check_truth_value(api: str, shape) -> None:
    """Only a one-element Tensor has a truth value (ValueError otherwise, as MindSpore)."""
    if math.prod(shape) != 1:
        raise ValueError(
            f"For '{api}', only a Tensor of one element has a truth value, but got shape "
            f"{tuple(shape)} ({math.prod(shape)} elements). Use .any() or .all() to reduce it."
        )


def host_item(value) -> np.ndarray:
    """The NumPy array of a Tensor's value for ``Tensor.item``: a RuntimeError with cellax's
    remedy while it is being differentiated (a Python number would cut its gradient)."""
    import jax

    try:
        return np.asarray(value)
    except jax.errors.TracerArrayConversionError:
        raise RuntimeError(MSG_TRACED_NUMBER.format(where=user_frame())) from None


def tracer_bool_hint(explain) -> str:
    """Why the user function that hit a tracer bool was not converted ("" if it was);
    ``explain(code)`` gives the reason for one code object (None while none is known)."""
    import sys

    frame = sys._getframe(1)
    while explain is not None and frame is not None:
        reason = explain(frame.f_code)
        if reason:
            return "\n" + reason
        frame = frame.f_back
    return ""


def user_frame() -> str:
    """``file:line (code)`` of the innermost caller outside cellax and JAX."""
    import linecache
    import os
    import sys

    import jax

    skipped = tuple(
        os.path.dirname(os.path.abspath(module.__file__)) + os.sep
        for module in (sys.modules[__package__], jax)
    )
    frame = sys._getframe(1)
    while frame is not None:
        filename = frame.f_code.co_filename
        if not os.path.abspath(filename).startswith(skipped) and "jaxlib" not in filename:
            line = linecache.getline(filename, frame.f_lineno).strip()
            return f"{filename}:{frame.f_lineno} ({line})"
        frame = frame.f_back
    return "an unknown line"


def unavailable(name: str, message: str, doc: str, module: str | None = None):
    """A function named ``name`` that raises ``NotImplementedError(message)`` when called: a
    MindSpore API that imports in cellax but cannot run on JAX. ``doc`` is its docstring;
    ``module`` the module that binds it (documentation tools follow ``__module__``).
    docs/gen_mint_coverage.py lists such functions by their ``_cellax_unavailable`` mark."""

    def call(*args, **kwargs):
        raise NotImplementedError(message)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = doc
    call._cellax_unavailable = True  # type: ignore[attr-defined]
    if module is not None:
        call.__module__ = module
    return call
