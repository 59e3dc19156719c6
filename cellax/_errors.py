"""Message helpers and the longer explanations cellax gives for tracing mistakes."""

from __future__ import annotations

__all__ = [
    "check_type",
    "check_bool",
    "check_bool_value",
    "check_float_in_open_unit",
    "check_int",
    "check_positive_int",
    "MSG_TRACER_BOOL",
    "user_frame",
]

MSG_TRACER_BOOL = """\
For '{api}', a Python `if`/`while`/`bool()` needs a concrete value, but the Tensor is traced \
(inside cellax.jit, GRAPH_MODE or a grad/vmap transform) and has no value yet. At {where}.

    ❌  if x > 0: y = x
    ✅  y = ops.select(x > 0, x, ops.zeros_like(x))

Use ops.select / ops.where for value-dependent choices, or pass the deciding value as a static
argument (a Python number) instead of a Tensor."""

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


def check_bool(api: str, name: str, value) -> bool:
    return check_type(api, name, value, bool)


def check_bool_value(api: str, name: str, value) -> bool:
    """A bool (the optimizers' wording: ``'<name>' must be a bool, but got <type>``)."""
    if not isinstance(value, bool):
        raise TypeError(f"For '{api}', '{name}' must be a bool, but got {type(value).__name__}.")
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


# set by cellax._control_flow: (code object) -> why cellax did not convert it, or None
unconverted_reason = [None]


def tracer_bool_hint() -> str:
    """Why the user function that hit a tracer bool was not converted ("" if it was)."""
    import sys

    explain = unconverted_reason[0]
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
