"""CONTROL_FLOW.md section 3 errors (type, file:line, variable) and grads through control flow."""

import jax
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops

HERE = "test_errors_and_grads.py:"


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype=dtype))


# -- errors -------------------------------------------------------------------------------------


def test_branch_join_shape_and_dtype():
    def shape(x):
        if x.sum() > 0:
            out = x.sum()
        else:
            out = x
        return out

    with pytest.raises(ValueError, match=rf"For 'if' at {HERE}\d+, 'out' must have the same shape"):
        ms.jit(shape)(t([1.0, 2.0]))

    def dtype(x):
        if x.sum() > 0:
            out = x
        else:
            out = x.astype(ms.int32)
        return out

    with pytest.raises(TypeError, match=rf"{HERE}\d+, 'out' must have the same dtype"):
        ms.jit(dtype)(t([1.0]))


def test_name_set_on_one_path_raises_unbound_local_error_when_used():
    def f(x):
        if x.sum() > 0:
            z = x * 2
        return z + 1

    with pytest.raises(
        UnboundLocalError, match=rf"'z' is assigned only in the true branch.*{HERE}"
    ):
        ms.jit(f)(t([1.0]))

    def unused(x):  # fine while z is not used after the `if`
        if x.sum() > 0:
            z = x * 2
            x = z
        return x

    assert float(ms.jit(unused)(t([1.0])).asnumpy()[0]) == 2.0


def test_loop_carry_change_and_first_assignment_in_loop():
    def grows(x):
        out = x
        while out.sum() < 10:
            out = ops.concat([out, out])
        return out

    with pytest.raises(ValueError, match=rf"For 'while' at {HERE}\d+, the loop variable 'out'"):
        ms.jit(grows)(t([1.0]))

    def born(x):
        while x.sum() < 10:
            h = x * 2
            x = h
        return h

    with pytest.raises(UnboundLocalError, match=r"'h' is first assigned inside the Tensor `while`"):
        ms.jit(born)(t([1.0]))


def test_python_list_and_python_value_under_a_tensor_condition():
    def lists(x):
        ys = [x]
        if x.sum() > 0:
            ys.append(x)
        return ops.stack(ys)

    with pytest.raises(TypeError, match=r"the Python list 'ys' must have the same length"):
        ms.jit(lists)(t([1.0]))

    def mode(x):
        m = "mean"
        if x.sum() > 0:
            m = "sum"
        return x.sum() if m == "sum" else x.mean()

    with pytest.raises(TypeError, match=r"'m' must not depend on a Tensor condition"):
        ms.jit(mode)(t([1.0]))


def test_list_indexed_by_tensor_condition_size_and_range_bound():
    def index(x, j):
        values = [x, x * 2]
        return values[j]

    with pytest.raises(
        TypeError,
        match=rf"For 'getitem' at {HERE}\d+, .*needs a Python int index, but the index 'j'",
    ):
        ms.jit(index)(t([1.0]), ms.Tensor(1))

    def size(x):
        if x > 0:
            x = x * 2
        return x

    with pytest.raises(
        ValueError, match=rf"{HERE}\d+, the condition `x > 0` must have one element.*\(3,\)"
    ):
        ms.jit(size)(t([1.0, 2.0, 3.0]))

    def bound(x, n):
        for _ in range(n):
            x = x + 1
        return x

    with pytest.raises(
        TypeError, match=rf"For 'range' at {HERE}\d+, the bound 'n' must be an int or a 0-d integer"
    ):
        ms.jit(bound)(t([1.0]), t([2.0, 3.0]))


COUNT = 0


def test_global_assignment_under_a_tensor_condition_is_not_lowerable():
    def f(x):
        global COUNT
        if x.sum() > 0:
            COUNT = COUNT + 1
        return x

    with pytest.raises(NotImplementedError, match=r"`global`/`nonlocal` assignment to 'COUNT'"):
        ms.jit(f)(t([1.0]))


def test_raise_under_a_tensor_condition_commits_nothing():
    p = ms.Parameter(ms.Tensor(0.0), name="p")

    @ms.jit
    def safe_log(x):
        ops.assign(p, p + 1)
        if x.min() <= 0:
            raise ValueError("safe_log needs positive input")
        return ops.log(x)

    np.testing.assert_allclose(safe_log(t([1.0, np.e])).asnumpy(), [0.0, 1.0], rtol=1e-6)
    assert float(p.asnumpy()) == 1.0
    traces = safe_log.trace_count  # (the first call also discovers the error slot)
    with pytest.raises(ValueError, match="safe_log needs positive input"):
        safe_log(t([1.0, -1.0]))
    assert float(p.asnumpy()) == 1.0  # nothing from the failed call
    safe_log(t([2.0, 3.0]))
    assert float(p.asnumpy()) == 2.0 and safe_log.trace_count == traces


def test_switch_index_out_of_range_raises_after_the_run():
    acts = (nn.ReLU(), nn.Tanh(), nn.Sigmoid())
    f = ms.jit(lambda i, x: _pick(acts, i, x))
    np.testing.assert_allclose(f(ms.Tensor(-3), t([-1.0])).asnumpy(), [0.0])
    with pytest.raises(
        IndexError, match=rf"For 'getitem' at {HERE}\d+, the index 'i' must be in \[-3, 3\)"
    ):
        f(ms.Tensor(5), t([1.0]))


def _pick(acts, i, x):
    return acts[i](x)


# -- grads --------------------------------------------------------------------------------------


def power(x):
    y = x
    while y < 100.0:
        y = y * x
    return y


def loop_break(x):
    y = x
    for _ in range(4):
        y = y * x
        if y > 50:
            break
    return y


def branchy(x):
    if x > 0:
        y = x * x * x
    else:
        y = ops.log(-x) * 2  # the untaken branch must not poison the gradient with NaN
    return y


def _finite_difference(f, x, eps=1e-3):
    return (f(x + eps) - f(x - eps)) / (2 * eps)


@pytest.mark.parametrize(
    "fn, xs",
    [(power, [3.0, 2.0, 1.5]), (loop_break, [2.0, 3.0, 1.5]), (branchy, [2.0, -2.0])],
)
def test_grad_matches_finite_differences(fn, xs):
    jitted = ms.jit(ms.grad(fn))
    for x in xs:
        got = float(jitted(ms.Tensor(x)).asnumpy())
        want = _finite_difference(lambda v: float(fn(ms.Tensor(np.float64(v)))), x)
        np.testing.assert_allclose(got, want, rtol=2e-3)
    assert float(ms.jit(ms.grad(power))(ms.Tensor(3.0)).asnumpy()) == 405.0


@pytest.mark.parametrize("loop_grad", ["bounded", "checkpointed"])
def test_power_grad_for_both_loop_grad_modes(loop_grad):
    jitted = ms.jit(ms.grad(power), loop_grad=loop_grad, max_loop_iterations=300)
    assert float(jitted(ms.Tensor(3.0)).asnumpy()) == 405.0  # 4 iterations
    x = float(np.float32(1.02))  # 232 iterations: y = x**233, two scan levels
    got = float(jitted(ms.Tensor(np.float32(x))).asnumpy())
    np.testing.assert_allclose(got, 233 * x**232, rtol=1e-3)
    with pytest.raises(ValueError, match="'loop_grad' must be one of"):
        ms.jit(power, loop_grad="treeverse")


def test_value_and_grad_and_grad_operation_through_a_while():
    value, grad = ms.jit(ms.value_and_grad(power))(ms.Tensor(3.0))
    assert (float(value.asnumpy()), float(grad.asnumpy())) == (243.0, 405.0)
    g = ms.jit(ops.GradOperation()(power))(ms.Tensor(3.0))
    assert float(g.asnumpy()) == 405.0
    reference = jax.grad(lambda x: x**5)(3.0)
    assert float(grad.asnumpy()) == float(reference)


def test_loop_longer_than_max_loop_iterations_under_grad_raises_and_commits_nothing():
    p = ms.Parameter(ms.Tensor(0.0), name="p")

    def f(x):
        ops.assign(p, p + 1)
        return power(x)

    jitted = ms.jit(ms.grad(f), max_loop_iterations=4)
    assert float(jitted(ms.Tensor(3.0)).asnumpy()) == 405.0  # 4 iterations
    assert float(p.asnumpy()) == 1.0
    with pytest.raises(RuntimeError, match=r"For 'while' at .*max_loop_iterations=4"):
        jitted(ms.Tensor(1.5))  # needs 12 iterations
    assert float(p.asnumpy()) == 1.0
