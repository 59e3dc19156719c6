"""Run-time operators of converted code (see ``cellax/_autograph``): Tensor control flow.

Each operator looks at its condition or iterable when the converted code runs. A Python value,
a concrete array or a Tensor holding one runs plain Python (branches may differ, loops unroll);
a JAX tracer gets a structured op: ``lax.cond`` for ``if``, ternaries and ``and``/``or``,
``lax.while_loop`` (``lax.scan`` under grad) for ``while`` and ``range`` with a traced bound.

All state-frame handling lives in the four helpers of the "frames" section of
``_control_flow_branches``: read the slots a branch did not write, run a branch through
``_trace.functionalize``, collect the written slots, write them into the parent.
"""

from __future__ import annotations

import builtins
import functools
import sys

import jax.numpy as jnp

from .. import _autograph, _core
from .._core import _seams
from ._control_flow_errors import raise_if
from ._fold import folding
from ._trace import call_converted, converted
from ._control_flow_branches import (
    Undefined,
    _array_of,
    _is_array_leaf,
    _is_number,
    _pred,
    _traced_array,
    _ValueBranch,
    if_stmt,
    condition,
    select_branch,
)
from .._tensor import wrap

__all__ = [
    "Undefined",
    "if_stmt",
    "while_stmt",
    "for_stmt",
    "if_exp",
    "and_",
    "or_",
    "not_",
    "in_",
    "range_",
    "converted_call",
    "call_converted",
    "autograph_source",
    "getitem",
    "defined",
]

# --------------------------------------------------------------------------------------------
# if and expressions


def if_exp(test, body, orelse, loc="<unknown>", src=None):
    """``body() if test else orelse()``."""
    pred = _pred(test, "if", loc, condition(src))
    if pred is None:
        return body() if test else orelse()
    return select_branch(pred, [_ValueBranch(body), _ValueBranch(orelse)], ("expression",), loc)[0]


def and_(*fns):
    """``a and b and ...``: an operand, chosen at run time for Tensors (lax.cond)."""
    value = fns[0]()
    for fn in fns[1:]:
        pred = _pred(value, "and", "<expression>", "the left operand")
        if pred is None:
            if not value:
                return value
            value = fn()
        else:
            prev = value
            value = select_branch(
                pred, [_ValueBranch(fn), _ValueBranch(lambda: prev)], ("and",), ""
            )[0]
    return value


def or_(*fns):
    """``a or b or ...``: an operand, chosen at run time for Tensors (lax.cond)."""
    value = fns[0]()
    for fn in fns[1:]:
        pred = _pred(value, "or", "<expression>", "the left operand")
        if pred is None:
            if value:
                return value
            value = fn()
        else:
            prev = value
            value = select_branch(
                pred, [_ValueBranch(lambda: prev), _ValueBranch(fn)], ("or",), ""
            )[0]
    return value


def not_(value):
    """``not value``; a bool Tensor for a traced one."""
    pred = _pred(value, "not", "<expression>", "the operand")
    if pred is None:
        return not value
    return wrap(jnp.logical_not(pred))


def in_(item, container):
    """``item in container``; a bool Tensor when a Tensor in a list/tuple is traced."""
    if isinstance(container, (list, tuple)):
        traced = _traced_array(item) is not None or any(
            _traced_array(e) is not None for e in container
        )
        if traced:
            x = _array_of(item)
            hits = []
            for element in container:
                if _is_array_leaf(element) or _is_number(element):
                    e = _array_of(element)
                    # MindSpore 2.10 matches only elements of the same dtype
                    if e.shape == x.shape and e.dtype == x.dtype:
                        hits.append(jnp.all(x == e))
            if not hits:
                return False
            return wrap(jnp.any(jnp.stack(hits)))
    return item in container


# --------------------------------------------------------------------------------------------
# calls


def assert_(test, message_fn=None, loc: str = "", src=None) -> None:
    """``assert test, message``; recorded for a traced ``test``."""
    pred = _pred(test, "assert", loc, condition(src))
    if pred is None:
        if not test:
            raise AssertionError(*(() if message_fn is None else (message_fn(),)))
        return
    message = "" if message_fn is None else str(message_fn())
    raise_if(jnp.logical_not(pred), AssertionError, message)


def defined(value):
    """``value`` unless it is a variable left undefined by a Tensor condition (then raise)."""
    if isinstance(value, Undefined):
        value._fail()
    return value


def _is_cell_sequence(container) -> bool:
    return isinstance(container, (tuple, list)) or (
        hasattr(type(container), "_cellax_collect") and hasattr(container, "__len__")
    )


class _Switch:
    """The element of a tuple/list/CellList of callables picked by a traced index."""

    __slots__ = ("items", "index", "loc", "api", "what")

    def __init__(self, items, index, loc, api, what="the index") -> None:
        self.items, self.index, self.loc, self.api, self.what = items, index, loc, api, what

    def __call__(self, *args, **kwargs):
        n = len(self.items)
        index = self.index.astype(jnp.int32).reshape(())
        raise_if(
            jnp.logical_or(index < -n, index >= n),
            IndexError,
            f"For '{self.api}' at {self.loc}, {self.what} must be in [{-n}, {n}), but it was "
            f"out of range; nothing was updated. Check it before indexing.",
        )
        position = jnp.clip(jnp.where(index < 0, index + n, index), 0, n - 1)
        branches = [_ValueBranch(lambda f=f: f(*args, **kwargs)) for f in self.items]
        return select_branch(position, branches, ("output",), self.loc, "switch")[0]


def _index_name(src) -> str:
    return f"the index '{src}'" if src else "the index"


def getitem(container, index, loc="<unknown>", src=None):
    """``container[index]``; a tuple/CellList of Cells indexed by a traced Tensor switches."""
    traced = _traced_array(index)
    if traced is not None and _is_cell_sequence(container):
        items = list(container)
        api = type(container).__name__ if not isinstance(container, (tuple, list)) else "getitem"
        if items and all(callable(item) for item in items):
            return _Switch(items, traced, loc, api, _index_name(src))
        raise TypeError(
            f"For 'getitem' at {loc}, a Python {type(container).__name__} needs a Python int "
            f"index, but {_index_name(src)} is a Tensor computed at run time. Stack the elements "
            f"into a Tensor, or keep the index a Python int."
        )
    return container[index]


def autograph_source(fn) -> str:
    """The source cellax compiles for ``fn`` inside ``cellax.jit`` / GRAPH_MODE.

    Its ``if``/``while``/``for``, ternaries, ``and``/``or``/``not``, ``in`` and calls are
    rewritten into operators that decide at run time: plain Python for Python values and
    concrete Tensors, ``lax.cond``/``lax.while_loop`` for traced Tensors.

    Args:
        fn (Union[function, method, cellax.jit function]): The user function.

    Returns:
        str, the converted source.

    Raises:
        ValueError: If ``fn`` is not converted (no source, a lambda, a generator, library
            code), saying why.

    Examples:
        >>> import cellax as ms
        >>> try:
        ...     ms.autograph_source(print)
        ... except ValueError as error:
        ...     print(str(error)[:62])
        For 'autograph_source', 'fn' must be a Python function, but go

    Differences from MindSpore: cellax-only; MindSpore compiles the Python AST itself.
    """
    return _autograph.autograph_source(fn)


def converted_call(f, loc=None, srcs=()):
    """``f`` as converted code should call it: user functions converted, ``range`` traced
    (``loc`` and the arguments' source ``srcs`` name a ``range`` call's bounds in errors)."""
    if f is builtins.range:
        return range_ if loc is None else functools.partial(range_, where=(loc, srcs))
    return converted(f)


_CONTROL_FLOW = ("auto", "python")
_LOOP_GRAD = ("bounded", "checkpointed")


def jit_options(options: dict) -> tuple:
    """(control_flow, max_loop_iterations, loop_grad) from jit's keyword options."""
    config = options.get("jit_config")
    config = getattr(config, "jit_config_dict", None) or {}
    control_flow = options.pop("control_flow", config.get("control_flow", "auto"))
    limit = options.pop("max_loop_iterations", config.get("max_loop_iterations", 1024))
    loop_grad = options.pop("loop_grad", config.get("loop_grad", "bounded"))
    if control_flow not in _CONTROL_FLOW:
        raise ValueError(
            f"For 'jit', 'control_flow' must be one of {list(_CONTROL_FLOW)}, but got "
            f"{control_flow!r}."
        )
    if type(limit) is not int or limit <= 0:
        raise ValueError(
            f"For 'jit', 'max_loop_iterations' must be a positive int, but got {limit!r}."
        )
    if loop_grad not in _LOOP_GRAD:
        raise ValueError(
            f"For 'jit', 'loop_grad' must be one of {list(_LOOP_GRAD)}, but got {loop_grad!r}."
        )
    return control_flow, limit, loop_grad


class compiled_trace:
    """Context of ``cellax.jit``'s trace: converted control flow and constant folding on."""

    __slots__ = ("options", "prev", "fold")

    def __init__(self, options) -> None:
        self.options = options

    def __enter__(self):
        local = _core.LOCAL
        self.prev = local.compiling
        local.compiling = self.options
        self.fold = None
        if self.options.control_flow != "python":
            # constants stay concrete, so conditions on them are decided while tracing
            self.fold = folding()
            self.fold.__enter__()
        return self

    def __exit__(self, *exc):
        if self.fold is not None:
            self.fold.__exit__(*exc)
        _core.LOCAL.compiling = self.prev


def _unconverted_reason(code) -> str | None:
    """For a tracer bool in user code: why that code was not converted (None: not known)."""
    options = _core.compiling()
    if options is None:
        return None
    if getattr(options, "control_flow", "auto") == "python":
        return None
    reason = _autograph.reason_for_code(code)
    if reason is None:
        return None
    where = f"{code.co_filename}:{code.co_firstlineno}"
    return (
        f"cellax did not convert '{code.co_name}' ({where}) because {reason}. Define it in a "
        f"file, or use ops.select."
    )


_seams.UNCONVERTED_REASON.fill(_unconverted_reason)
_seams.AUTOGRAPH_OPERATORS.fill(sys.modules[__name__])


from ._control_flow_errors import (  # noqa: E402
    ERROR,
    pending_error,
    raise_,
    select_on_error,
)
from ._control_flow_loops import for_stmt, range_, while_stmt  # noqa: E402

__all__ += ["raise_", "assert_", "ERROR", "pending_error", "select_on_error"]
