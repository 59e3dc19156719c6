"""Primitive classes (``ops.ReLU()``, ``ops.Softmax(axis)``) as thin wrappers over functions.

One mechanism, no copy per op: :func:`primitive` builds a class whose ``__init__`` takes the
MindSpore attributes and whose ``__call__`` passes the inputs plus those attributes to the
functional op.
"""

from __future__ import annotations

import inspect

__all__ = [
    "Primitive",
    "PrimitiveWithInfer",
    "primitive",
    "prim_attr_register",
]


class Primitive:
    """Base class of operator classes (``mindspore.ops.Primitive``).

    Attributes given at construction are kept in ``attrs`` and as attributes.
    """

    def __init__(self, name: str | None = None) -> None:
        self.name = name or type(self).__name__
        self.attrs: dict = {}

    def add_prim_attr(self, name: str, value):
        self.attrs[name] = value
        setattr(self, name, value)
        return self

    def del_prim_attr(self, name: str):
        self.attrs.pop(name, None)
        return self

    def init_prim_io_names(self, inputs, outputs) -> None:
        self.input_names, self.output_names = list(inputs), list(outputs)

    def set_device(self, device_target):
        return self

    def shard(self, in_strategy=None, out_strategy=None):
        """Set the operator's input/output strategies (tuples of slice counts or Layouts).

        Under SEMI_AUTO/AUTO_PARALLEL (or inside ``AutoParallel``) the op's inputs and output
        get the matching sharding constraints (see ``cellax.ops._sharding``); a strategy that
        does not fit the shapes or the device count raises ValueError when the op runs.

        Raises:
            TypeError: If a strategy is neither a tuple nor None.

        Examples:
            >>> from cellax import ops
            >>> ops.MatMul().shard(((2, 1), (1, 1)))
            Prim[MatMul]<transpose_a=False, transpose_b=False, in_strategy=((2, 1), (1, 1))>
        """
        from .sharding import Layout, sharded_class

        for name, value in (("in_strategy", in_strategy), ("out_strategy", out_strategy)):
            if value is not None and not isinstance(value, tuple):
                raise TypeError(f"{name} must be tuple type, but got:{type(value)}")
        for name, value in (("in", in_strategy), ("out", out_strategy)):
            if value is None:
                continue
            if any(isinstance(v, Layout) for v in value):
                self.add_prim_attr(f"{name}_layout", value)
            else:
                self.add_prim_attr(f"{name}_strategy", value)
        self.__class__ = sharded_class(type(self))
        return self

    def recompute(self, mode: bool = True):
        return self

    def __repr__(self) -> str:
        attrs = ", ".join(f"{k}={_show(v)!r}" for k, v in self.attrs.items())
        return f"Prim[{self.name}]" + (f"<{attrs}>" if attrs else "")


PrimitiveWithInfer = Primitive


def _show(value):
    """Layouts print as MindSpore's dicts in a Primitive's repr."""
    if isinstance(value, tuple) and any(hasattr(v, "_repr_dict") for v in value):
        return tuple(v._repr_dict() if hasattr(v, "_repr_dict") else v for v in value)
    return value


def prim_attr_register(fn):
    """Decorator for a Primitive ``__init__``: records its arguments as attributes."""

    def wrapper(self, *args, **kwargs):
        Primitive.__init__(self)
        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        for key, value in list(bound.arguments.items())[1:]:
            self.add_prim_attr(key, value)
        fn(self, *args, **kwargs)

    wrapper.__wrapped__ = fn
    return wrapper


def primitive(
    name: str,
    fn,
    attrs: dict | None = None,
    call=None,
    doc: str | None = None,
    module: str = "cellax.ops",
):
    """Make a Primitive class ``name`` whose instances call ``fn``.

    Args:
        name: The MindSpore class name.
        fn: The functional op.
        attrs: The constructor arguments with their defaults, in MindSpore's order.
        call: Optional ``call(self, *inputs)`` when the mapping onto ``fn`` is not
            ``fn(*inputs, **attrs)``.
        doc: The class docstring (default: "Primitive form of ``ops.<fn>``").
        module: The public module the class lives in (its ``__module__``).
    """
    attrs = dict(attrs or {})
    names = list(attrs)

    def __init__(self, *args, **kwargs):
        Primitive.__init__(self, name)
        if len(args) > len(names):
            raise TypeError(
                f"For '{name}', expected at most {len(names)} positional argument(s) "
                f"{names}, but got {len(args)}."
            )
        values = dict(attrs)
        values.update(zip(names, args))
        unknown = set(kwargs) - set(names)
        if unknown:
            raise TypeError(f"For '{name}', unexpected argument(s) {sorted(unknown)}.")
        values.update(kwargs)
        for key, value in values.items():
            self.add_prim_attr(key, value)

    if call is None:

        def __call__(self, *inputs):
            return fn(*inputs, **{k: self.attrs[k] for k in names})

    else:
        __call__ = call
    # Python names these in its own argument errors: "Add.__call__() got an unexpected ..."
    __init__.__qualname__ = f"{name}.__init__"
    __init__.__module__ = module  # where the class lives (API pages resolve it there)
    if call is None:
        __call__.__qualname__ = f"{name}.__call__"
        __call__.__module__ = module

    return type(
        name,
        (Primitive,),
        {
            "__init__": __init__,
            "__call__": __call__,
            "__doc__": doc or f"Primitive form of ``ops.{getattr(fn, '__name__', name)}``.",
            "__module__": module,
        },
    )
