"""Parse, convert, compile and cache user functions (per code object)."""

from __future__ import annotations

import ast
import inspect
import os
import sys
import sysconfig
import textwrap
import types
import weakref

from .._core._seams import AUTOGRAPH_OPERATORS
from ._analyse import contains_yield
from ._transform import OPS, transform_function

__all__ = [
    "convert",
    "is_converted",
    "reason_not_converted",
    "reason_for_code",
    "autograph_source",
]

# top-level packages whose code is never converted (cellax's own code and its dependencies)
LIBRARY_PACKAGES = frozenset(
    {"cellax", "jax", "jaxlib", "optax", "numpy", "functools", "_pytest", "pytest", "pluggy"}
)
_STDLIB = tuple(
    os.path.normcase(os.path.abspath(p)) + os.sep
    for p in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]}
)


class _Converted:
    __slots__ = ("code", "source", "reason")

    def __init__(self, code=None, source=None, reason=None) -> None:
        self.code, self.source, self.reason = code, source, reason


_by_code: dict = {}  # code object -> _Converted
_converted_ids: set = set()  # ids of converted code objects (kept alive by _by_code)
_by_function: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

# the name the converted def is compiled under (its code object gets the original name back)
_CONVERTED = "cx_converted__"


def _ops():
    if AUTOGRAPH_OPERATORS.value is None:
        raise RuntimeError("cellax._autograph: no run-time operators registered.")
    return AUTOGRAPH_OPERATORS.value


def _library_reason(fn) -> str | None:
    module = (fn.__globals__ or {}).get("__name__", "") or ""
    doctest = fn.__code__.co_filename.startswith("<doctest ")  # a docstring example runs in
    if module.partition(".")[0] in LIBRARY_PACKAGES and not doctest:  # its module's globals
        return f"it is library code (module {module!r})"
    filename = os.path.normcase(os.path.abspath(fn.__code__.co_filename))
    if filename.startswith(_STDLIB) and "site-packages" not in filename:
        return "it is in the Python standard library"
    return None


def _walk_codes(code):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _walk_codes(const)


def _lambda_as_def(module, code, first):
    """The one lambda of ``code`` in ``module`` as ``def lambda__(args): return body``."""
    names = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    candidates = [
        node
        for node in ast.walk(module)
        if isinstance(node, ast.Lambda)
        and node.lineno + first - 1 == code.co_firstlineno
        and tuple(a.arg for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs)
        == tuple(names)
    ]
    if len(candidates) != 1:
        return None
    lam = candidates[0]
    body = [ast.copy_location(ast.Return(value=lam.body), lam.body)]
    node = ast.FunctionDef(
        name="lambda__", args=lam.args, body=body, decorator_list=[], returns=None
    )
    return ast.copy_location(node, lam)


def _build(fn) -> _Converted:
    code = fn.__code__
    if code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE | inspect.CO_ASYNC_GENERATOR):
        return _Converted(reason="it is a generator or coroutine")
    try:
        lines, first = inspect.getsourcelines(fn)
    except (OSError, TypeError):
        where = f"{code.co_filename}:{code.co_firstlineno}"
        return _Converted(reason=f"its source is not available ({where})")
    source = textwrap.dedent("".join(lines))
    try:
        module = ast.parse(source)
    except SyntaxError:
        try:  # a lambda inside a bracketed expression spanning lines
            module = ast.parse("(\n" + source + "\n)")
            first -= 1
        except SyntaxError:
            return _Converted(reason="its source could not be parsed on its own")
    if fn.__name__ == "<lambda>":
        lam = _lambda_as_def(module, code, first)
        if lam is None:
            return _Converted(reason="its lambda could not be told apart on its line")
        module = ast.Module(body=[lam], type_ignores=[])
    node = module.body[0] if module.body else None
    expected = "lambda__" if fn.__name__ == "<lambda>" else code.co_name
    if not isinstance(node, ast.FunctionDef) or node.name != expected:
        return _Converted(reason="its source is not a plain `def`")
    if contains_yield(node):
        return _Converted(reason="it is a generator or coroutine")
    ast.increment_lineno(module, first - 1)
    filename = code.co_filename
    transform_function(node, os.path.basename(filename))
    # The factory binds the converted def under a name of its own: under the function's name
    # it would be a local of the factory, and a recursive call (a global name in the original)
    # would compile to a closure cell that nothing fills.
    name = node.name
    node.name = _CONVERTED
    params = list(code.co_freevars) + [OPS]
    args = ast.arguments(
        posonlyargs=[],
        args=[ast.arg(arg=p) for p in params],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )
    factory = ast.FunctionDef(
        name="cx_factory__",
        args=args,
        body=[node, ast.Return(value=ast.Name(id=node.name, ctx=ast.Load()))],
        decorator_list=[],
        returns=None,
    )
    ast.copy_location(factory, node)
    wrapper = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(wrapper)
    try:
        compiled = compile(wrapper, filename, "exec", dont_inherit=True)
    except SyntaxError as error:  # e.g. nonlocal patterns the rewrite cannot express
        return _Converted(reason=f"the converted code does not compile ({error.msg})")
    finally:
        node.name = name
    converted_source = ast.unparse(node)
    factory_code = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    inner = next(
        c
        for c in factory_code.co_consts
        if isinstance(c, types.CodeType) and c.co_name == _CONVERTED
    )
    names = {"co_name": code.co_name}
    if hasattr(inner, "co_qualname"):  # Python 3.11+
        names["co_qualname"] = code.co_qualname
    inner = inner.replace(**names)
    for c in _walk_codes(inner):
        _converted_ids.add(id(c))
    return _Converted(code=inner, source=converted_source)


def _entry(fn) -> _Converted:
    code = fn.__code__
    entry = _by_code.get(code)
    if entry is None:
        reason = _library_reason(fn)
        entry = _Converted(reason=reason) if reason else _build(fn)
        _by_code[code] = entry
    return entry


def convert(fn):
    """The converted version of the plain function ``fn``, or None (see reason_not_converted)."""
    try:
        return _by_function[fn]
    except (KeyError, TypeError):
        pass
    if not isinstance(fn, types.FunctionType) or id(fn.__code__) in _converted_ids:
        return None
    entry = _entry(fn)
    if entry.code is None:
        return None
    cells = dict(zip(fn.__code__.co_freevars, fn.__closure__ or ()))
    closure = []
    for name in entry.code.co_freevars:
        if name == OPS:
            closure.append(types.CellType(_ops()))
        elif name in cells:
            closure.append(cells[name])
        else:
            closure.append(types.CellType())
    new = types.FunctionType(
        entry.code, fn.__globals__, fn.__name__, fn.__defaults__, tuple(closure)
    )
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__wrapped__ = fn
    _by_function[fn] = new
    return new


def reason_for_code(code) -> str | None:
    """Why the user code object ``code`` was not converted; None if converted or never seen."""
    entry = _by_code.get(code)
    if entry is None or entry.code is not None:
        return None
    if entry.reason.startswith("it is library code") or "standard library" in entry.reason:
        return None
    return entry.reason


def is_converted(fn) -> bool:
    code = getattr(fn, "__code__", None)
    return code is not None and id(code) in _converted_ids


def reason_not_converted(fn) -> str | None:
    """Why ``fn`` is not converted, or None when it is (or can be)."""
    target = getattr(fn, "__func__", fn)
    if not isinstance(target, types.FunctionType):
        return f"it is a {type(target).__name__}, not a Python function"
    if is_converted(target):
        return None
    return _entry(target).reason


def autograph_source(fn) -> str:
    """The converted source of ``fn``; raises ValueError saying why when there is none."""
    target = getattr(fn, "__func__", fn)
    target = getattr(target, "fn", target)  # a cellax.jit function
    if not isinstance(target, types.FunctionType):
        raise ValueError(
            f"For 'autograph_source', 'fn' must be a Python function, but got {type(fn).__name__}."
        )
    entry = _entry(target)
    if entry.code is None:
        raise ValueError(
            f"For 'autograph_source', cellax does not convert {target.__qualname__!r} because "
            f"{entry.reason}."
        )
    return entry.source


del sys
