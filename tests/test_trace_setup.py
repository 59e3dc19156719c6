"""The trace set-up every transform shares (``cellax/_transforms/_trace.py``).

Conversion of user code inside a compiled trace, the differentiating mode while a derivative
transform traces, Tensors/arrays at the boundary and the staged backward pass: each checked
through the public transforms, on the helper itself, and (last test) by where the code lives.
"""

import ast
import pathlib
import sys
import types

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import Tensor, _core, nn, ops
from cellax._transforms import _control_flow, _fold, _trace

X = np.array([1.0, -2.0, 3.0], np.float32)


def _mode() -> int:
    return _core.LOCAL.differentiating


def _recording(seen):
    def fn(x):
        seen.append(_core.differentiating())
        return (x * x).sum()

    return fn


DERIVATIVES = {
    "grad": lambda f, x: ms.grad(f)(x),
    "value_and_grad": lambda f, x: ms.value_and_grad(f)(x),
    "GradOperation": lambda f, x: ops.GradOperation()(f)(x),
    "jvp": lambda f, x: ms.jvp(f, x, Tensor(np.ones(3, np.float32))),
    "vjp": lambda f, x: ms.vjp(f, x)[1](Tensor(np.float32(1.0))),
    "linearize": lambda f, x: ops.linearize(f, x),
    "jacfwd": lambda f, x: ms.jacfwd(f)(x),
    "jacrev": lambda f, x: ms.jacrev(f)(x),
    "derivative": lambda f, x: ops.derivative(f, x, 1),
}


@pytest.mark.parametrize("name", sorted(DERIVATIVES))
def test_derivative_transforms_trace_in_the_differentiating_mode(name):
    seen: list = []
    DERIVATIVES[name](_recording(seen), Tensor(X))
    assert seen and all(seen), f"{name} traced the function with the mode off: {seen}"
    assert _mode() == 0


PLAIN = {
    "vmap": lambda f, x: ms.vmap(f)(ops.stack([x, x])),
    "recompute": lambda f, x: ms.recompute(f, x),
    "jit": lambda f, x: ms.jit(f)(x),
    "jet": lambda f, x: ops.jet(f, x, Tensor(np.ones((1, 3), np.float32))),
}


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_other_transforms_do_not_set_the_mode(name):
    seen: list = []
    PLAIN[name](_recording(seen), Tensor(X))
    assert seen and not any(seen)


@pytest.mark.parametrize("name", ["vmap", "recompute", "jit"])
def test_other_transforms_keep_the_mode_of_an_enclosing_grad(name):
    seen: list = []
    inner = _recording(seen)
    ms.grad(lambda x: PLAIN[name](inner, x).sum())(Tensor(X))
    assert seen and all(seen)


@pytest.mark.parametrize("name", sorted(DERIVATIVES))
def test_the_mode_is_restored_after_an_exception(name):
    def fails(x):
        assert _core.differentiating()
        raise ValueError("raised in user code")

    with pytest.raises(ValueError, match="raised in user code"):
        DERIVATIVES[name](fails, Tensor(X))
    assert _mode() == 0 and not _core.differentiating()


def test_nested_grads_count_the_mode_and_restore_each_level():
    levels: list = []

    def inner(x):
        levels.append(("inner", _mode()))
        return (x * x * x).sum()

    def outer(x):
        levels.append(("outer before", _mode()))
        g = ms.grad(inner)(x)
        levels.append(("outer after", _mode()))
        try:
            ms.grad(lambda y: 1 / 0)(x)
        except ZeroDivisionError:
            levels.append(("outer after a failed grad", _mode()))
        return g.sum()

    grads = ms.grad(outer)(Tensor(X))
    assert levels == [
        ("outer before", 1),
        ("inner", 2),
        ("outer after", 1),
        ("outer after a failed grad", 1),
    ]
    np.testing.assert_allclose(grads.asnumpy(), 6 * X, rtol=1e-6)
    assert _mode() == 0


def _runs_as_written():
    """True when called as written, False when called converted (its code then differs)."""
    return sys._getframe().f_code is _AS_WRITTEN


_AS_WRITTEN = _runs_as_written.__code__


def _branchy(x):
    if x.sum() > 0:  # a Tensor condition: needs conversion inside a compiled trace
        y = x * 2
    else:
        y = x * 3
    return (y * x).sum()


def _compiled(control_flow="auto"):
    return _control_flow.compiled_trace(types.SimpleNamespace(control_flow=control_flow))


def test_user_code_is_converted_only_inside_a_compiled_trace():
    call = _trace.user_code(_runs_as_written, convert=True)
    assert call() is True
    with _compiled():
        assert call() is False
        assert _trace.user_code(_runs_as_written)() is True  # convert=False: as written
    with _compiled("python"):
        assert call() is True
    assert call() is True


def _branchy_value(x):
    k = 2.0 if x.sum() > 0 else 3.0
    return np.float32(k * (x * x).sum())


def _branchy_grad(x):
    return (4.0 if x.sum() > 0 else 6.0) * x


CONVERTING = {
    "grad": (lambda x: ms.grad(_branchy)(x), _branchy_grad),
    "value_and_grad": (lambda x: ms.value_and_grad(_branchy)(x)[1], _branchy_grad),
    "vmap": (
        lambda x: ms.vmap(_branchy)(ops.stack([x, -x])),
        lambda x: np.array([_branchy_value(x), _branchy_value(-x)]),
    ),
    "recompute": (lambda x: ms.recompute(_branchy, x), _branchy_value),
    "jacrev": (lambda x: ms.jacrev(_branchy)(x), _branchy_grad),
    "jvp": (
        lambda x: ms.jvp(_branchy, x, ops.ones_like(x))[1],
        lambda x: _branchy_grad(x).sum(),
    ),
}


@pytest.mark.parametrize("name", sorted(CONVERTING))
def test_transforms_convert_user_code_in_a_compiled_trace(name):
    transform, reference = CONVERTING[name]
    compiled = ms.jit(transform)
    for x in (X, -X):  # both branches, chosen at run time by one program
        np.testing.assert_allclose(compiled(Tensor(x)).asnumpy(), reference(x), rtol=1e-6)
    assert compiled.trace_count == 1
    unconverted = ms.jit(transform, control_flow="python")
    with pytest.raises(TypeError):  # the same code, not converted, can not run traced
        unconverted(Tensor(X))


def test_custom_bprop_runs_converted():
    class Net(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            if dout.sum() > 0:  # traced inside jit: converted
                return (dout * 10,)
            return (dout * 20,)

    net = Net()
    grad = ms.grad(lambda x: net(x).sum())
    np.testing.assert_allclose(grad(Tensor(X)).asnumpy(), np.full(3, 10.0))
    np.testing.assert_allclose(ms.jit(grad)(Tensor(X)).asnumpy(), np.full(3, 10.0))


def test_the_boundary_gives_tensors_in_and_arrays_out():
    seen = []

    def fn(x, scale=None):
        seen.append((type(x), type(scale)))
        return {"out": x * scale, "number": 2.0}

    call = _trace.user_code(fn, tensors_in=True, arrays_out=True)
    out = call(jnp.asarray(X), scale=jnp.float32(3.0))
    assert seen == [(Tensor, Tensor)]
    # every leaf an array, as JAX transforms return (a Tensor is a pytree node over its array)
    assert all(isinstance(leaf, jax.Array) for leaf in jax.tree_util.tree_leaves(out))
    assert isinstance(out["number"], jax.Array) and float(out["number"]) == 2.0
    np.testing.assert_allclose(np.asarray(out["out"]), 3 * X)
    raw = _trace.user_code(fn)(Tensor(X), scale=2.0)  # no set-up: fn as it is
    assert type(raw["out"]) is Tensor and raw["number"] == 2.0


def test_functionalize_without_set_up_is_the_cores():
    def fn():
        return 1

    assert _trace.functionalize(fn).fn is fn
    assert isinstance(_trace.functionalize(fn, convert=True), _core.Stateful)
    assert _trace.functionalize(fn, convert=True).fn is not fn


def _folded(fn):
    """Whether ``fn()`` gives a concrete value when traced by jax.make_jaxpr."""
    box = []
    jax.make_jaxpr(lambda: box.append(not isinstance(fn(), jax.core.Tracer)) or 0)()
    return box[0]


def test_backward_is_staged_and_folding_resumes_after_it():
    small = lambda: jnp.ones(3) + 1  # noqa: E731
    assert not _folded(small)  # plain tracing stages everything
    with _fold.folding():
        assert _folded(small)
        with _trace.backward():
            assert not _folded(small)
        assert _folded(small)
        with pytest.raises(RuntimeError):
            with _trace.backward():
                raise RuntimeError
        assert _folded(small)
    assert not _folded(small)


def test_a_gradient_hook_in_a_compiled_grad_runs_with_each_calls_values():
    # the backward pass is staged: the hook sees a traced cotangent while tracing, and runs
    # again at every call with the real one (folded, it would run only while tracing)
    concrete: list = []

    def f(x):
        y = x * 2
        y.register_hook(lambda g: concrete.append(not isinstance(g._value, jax.core.Tracer)))
        return y.sum()

    step = ms.jit(lambda x: ms.grad(f)(x))
    for _ in range(2):
        np.testing.assert_allclose(step(Tensor(X)).asnumpy(), np.full(3, 2.0))
    assert concrete.count(False) == step.trace_count  # once per trace, traced
    assert concrete.count(True) == 2  # once per call, with the real values


SET_UP = "_trace.py"
TRANSFORMS = pathlib.Path(ms.__file__).parent / "_transforms"


def _set_up_outside_trace():
    """What only ``_trace.py`` may do, found in other ``_transforms`` modules."""
    found = []
    for path in sorted(TRANSFORMS.glob("*.py")):
        if path.name == SET_UP:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            where = f"{path.name}:{getattr(node, 'lineno', '?')}"
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.attr == "functionalize" and node.value.id == "_core":
                    found.append(f"{where} calls _core.functionalize")
                if node.attr == "staged" and node.value.id == "_fold":
                    found.append(f"{where} stages a backward pass by hand")
            if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Attribute):
                if node.target.attr == "differentiating":
                    found.append(f"{where} sets the differentiating mode")
            if isinstance(node, ast.ImportFrom) and node.module in ("_core", "_fold"):
                names = {alias.name for alias in node.names}
                if names & {"functionalize", "staged"}:
                    found.append(f"{where} imports {sorted(names)}")
            if isinstance(node, ast.FunctionDef) and node.name == "call_converted":
                found.append(f"{where} defines call_converted")
    return found


def test_only_the_trace_module_sets_up_user_code():
    found = _set_up_outside_trace()
    assert not found, (
        "transforms set up user code by hand; use _transforms/_trace.py:\n" + "\n".join(found)
    )
