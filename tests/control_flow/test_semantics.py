"""Tensor control flow in cellax.jit: dispatch, caching, state, errors (CONTROL_FLOW.md)."""

import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from cellax._transforms import _control_flow


def t(values, dtype=np.float32):
    return ms.Tensor(np.array(values, dtype=dtype))


def test_steady_state_calls_never_enter_the_converter(monkeypatch):
    calls = []
    original = _control_flow.converted_call

    def spy(f):
        calls.append(f)
        return original(f)

    monkeypatch.setattr(_control_flow, "converted_call", spy)

    @ms.jit
    def f(x):
        if x.sum() > 0:
            x = x * 2
        return x

    f(t([1.0]))
    first = len(calls)
    assert first > 0
    for value in ([2.0], [-3.0]):
        f(t(value))
    assert len(calls) == first and f.trace_count == 1


def test_conversion_is_cached_per_code_object(monkeypatch):
    from cellax._autograph import _cache

    builds = []
    original = _cache._build
    monkeypatch.setattr(_cache, "_build", lambda fn: builds.append(fn) or original(fn))

    def make():
        def g(x):
            return x + 1 if x.sum() > 0 else x - 1

        return g

    outs = [ms.jit(make())(t([1.0])) for _ in range(3)]
    assert [float(o.asnumpy()[0]) for o in outs] == [2.0, 2.0, 2.0]
    assert len(builds) == 1


def test_python_conditions_act_as_python_and_constant_tensors_fold():
    @ms.jit
    def f(x, mode="sum"):
        limit = ms.Tensor([2.0])
        y = x.sum() if (limit > 1).all() else x  # shapes () and (3,): decided while tracing
        if mode == "sum":
            out = [y]
        else:
            out = (y, y)
        for i in range(3):
            out.append(x[i])
        return ops.stack(out[1:]) + out[0]

    np.testing.assert_allclose(f(t([1.0, 2.0, 3.0])).asnumpy(), [7.0, 8.0, 9.0])


def test_large_constants_are_staged_not_folded():
    from cellax._transforms._fold import FOLD_LIMIT

    @ms.jit
    def f(x):
        big = ops.tril(ops.ones((256, 256), ms.float32))  # 65536 elements > FOLD_LIMIT
        small = ops.ones((4,), ms.float32)
        if (small > 0).all():  # small constants still fold: a Python decision
            return (big * x).sum()
        return x

    assert 256 * 256 > FOLD_LIMIT
    x = ms.Tensor(np.float32(2.0))
    assert float(f(x).asnumpy()) == 256 * 257
    text = f.lower(x).as_text()
    assert len(text) < 20000  # folded, the 256x256 literal alone is over 100 kB


def test_nested_tensor_ifs_trace_each_branch_body_once():
    calls = {"outer": 0, "a": 0, "b": 0, "c": 0}

    def mark(name, value):
        calls[name] += 1
        return value

    @ms.jit
    def f(x):
        x = mark("outer", x)
        if x.sum() > 0:
            if x.max() > 2:
                if x.min() > 5:
                    x = mark("a", x * 10)
                else:
                    x = mark("b", x * 5)
            else:
                x = mark("c", x * 2)
        return x

    assert float(f(t([3.0])).asnumpy()[0]) == 15.0
    # once per trace of f (not 2**depth): cellax.jit traces f to learn its writes, then compiles
    assert calls["a"] == calls["b"] == calls["c"] == calls["outer"] <= 2


def test_control_flow_python_restores_the_tracer_bool_error():
    def branchy(x):
        if x > 0:
            return x
        return -x

    with pytest.raises(TypeError, match="ops.select"):
        ms.jit(branchy, control_flow="python")(ms.Tensor(1.0))
    assert float(ms.jit(branchy)(ms.Tensor(-2.0)).asnumpy()) == 2.0
    with pytest.raises(ValueError, match="'control_flow' must be one of"):
        ms.jit(branchy, control_flow="graph")


def test_jit_config_control_flow_switch_in_graph_mode():
    class Net(nn.Cell):
        def construct(self, x):
            if x.sum() > 0:
                return x
            return -x

    net = Net()
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        assert float(net(t([-2.0])).asnumpy()[0]) == 2.0
        net.set_jit_config(ms.JitConfig(control_flow="python"))
        with pytest.raises(TypeError, match="ops.select"):
            net(t([1.0]))
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)


def test_autograph_source_compiles_and_explains():
    def f(x):
        while x.sum() < 10:
            x = x * 2
        return x

    source = ms.autograph_source(f)
    assert "cx__.while_stmt" in source
    compile(source, "<converted>", "exec")
    namespace = {}
    exec("def h(x):\n    return -x if x.sum() > 0 else x\n", namespace)
    with pytest.raises(ValueError, match="source is not available"):
        ms.autograph_source(namespace["h"])


def test_code_without_source_runs_unconverted_and_says_why():
    namespace = {}
    exec("def h(x):\n    if x.sum() > 0:\n        return x\n    return -x\n", namespace)
    with pytest.raises(TypeError, match="did not convert 'h'.*source is not available"):
        ms.jit(namespace["h"])(t([1.0]))


class Counter(nn.Cell):
    def __init__(self):
        super().__init__()
        self.step = ms.Parameter(ms.Tensor(0, ms.int32), name="step")
        self.acc = ms.Parameter(ms.Tensor(0.0, ms.float32), name="acc")

    def construct(self, x):
        if self.step < 3:
            self.acc += x.sum()
        self.step += 1
        return self.acc


def test_counter_under_jit_of_a_cell():
    counter = Counter()
    step = ms.jit(counter)
    outs = [float(step(t([1.0, float(i)])).asnumpy()) for i in range(4)]
    assert outs == [1.0, 3.0, 6.0, 6.0]
    assert int(counter.step.asnumpy()) == 4 and float(counter.acc.asnumpy()) == 6.0
    assert step.trace_count == 1


def test_parameter_writes_in_a_tensor_while_and_in_callees_persist():
    count = ms.Parameter(ms.Tensor(0.0), name="count")

    def bump():
        ops.assign(count, count + 1)

    @ms.jit
    def f(limit):
        while count < limit:
            bump()
        return count * 1

    assert float(f(ms.Tensor(3.0)).asnumpy()) == 3.0
    assert float(count.asnumpy()) == 3.0
    assert float(f(ms.Tensor(5.0)).asnumpy()) == 5.0 and f.trace_count == 1


def test_optimizer_under_is_finite_leaves_parameters_bitwise_unchanged():
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = nn.SGD(net.trainable_params(), learning_rate=0.1)
    grad_fn = ms.value_and_grad(lambda x: net(x).sum(), None, opt.parameters)

    @ms.jit
    def step(x):
        loss, grads = grad_fn(x)
        is_finite = ops.isfinite(loss).all()
        if is_finite:
            opt(grads)
        return loss

    before = [p.asnumpy().copy() for p in net.trainable_params()]
    step(t([[np.inf, 1.0]]))
    for b, p in zip(before, net.trainable_params()):
        np.testing.assert_array_equal(b, p.asnumpy())
    step(t([[1.0, 1.0]]))
    assert not np.array_equal(before[0], net.weight.asnumpy())


def test_mutable_range_is_one_program():
    @ms.jit
    def add_n(x, n):
        for _ in range(n):
            x = x + 1
        return x

    assert float(add_n(t([1.0]), ms.mutable(3)).asnumpy()[0]) == 4.0
    assert float(add_n(t([1.0]), ms.mutable(5)).asnumpy()[0]) == 6.0
    assert add_n.trace_count == 1
    with pytest.raises(ValueError, match="dynamic_len"):
        ms.mutable((1, 2), dynamic_len=True)


def test_functional_loops_under_jit():
    @ms.jit
    def loops(n, x):
        a = ops.WhileLoop()(lambda v: v < n, lambda v: v * 2, x)
        b = ops.ForiLoop()(0, n, lambda i, acc: acc + i, x * 0)
        c, ys = ops.Scan()(lambda c, v: (c + v, c), x * 0, [x, x + 1])
        return a, b, c, ops.stack(ys)

    a, b, c, ys = loops(ms.Tensor(10), ms.Tensor(1))
    assert (int(a.asnumpy()), int(b.asnumpy()), int(c.asnumpy())) == (16, 45, 3)
    assert ys.asnumpy().tolist() == [0, 1]


def test_vmap_over_a_tensor_if_inside_jit():
    def f(row):
        if row.sum() > 0:
            row = row * 2
        else:
            row = row * 0
        return row

    out = ms.jit(lambda x: ms.vmap(f)(x))(t([[1.0, 2.0], [-1.0, -2.0]]))
    np.testing.assert_allclose(out.asnumpy(), [[2.0, 4.0], [0.0, 0.0]])


def test_cell_built_inside_jit_is_trace_local():
    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

        def construct(self, x):
            return self.dense(x)

    @ms.jit
    def run(x):
        model = Network()
        return model(x)

    x = t([[1.0, 2.0, 3.0]])
    for _ in range(3):
        np.testing.assert_allclose(run(x).asnumpy(), [[6.0, 6.0]])
    assert run.trace_count == 1
    text = run.lower(x).as_text()
    main = [line for line in text.splitlines() if "func.func public @main" in line][0]
    assert main.count("%arg") == 1  # only x: the Cell's Parameters are not program inputs


class Pick(nn.Cell):
    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(2, 2, weight_init="ones") for _ in range(3)])

    def construct(self, idx, x):
        return self.layers[idx](x)


def test_switch_layer_grads_reach_only_the_selected_cell():
    net = Pick()
    params = net.trainable_params()
    grad_fn = ms.jit(ms.grad(lambda i, x: net(i, x).sum(), None, params))
    for idx, chosen in ((1, 1), (-1, 2), (0, 0)):
        grads = grad_fn(ms.Tensor(idx, ms.int32), t([[1.0, 2.0]]))
        for k in range(3):
            norm = float(np.abs(grads[2 * k].asnumpy()).sum())
            assert (norm > 0) == (k == chosen), (idx, k)
    assert grad_fn.trace_count == 1


def test_early_return_of_a_tuple_under_a_tensor_condition():
    @ms.jit
    def f(x):
        if x.sum() > 0:
            return (x * 3, x)
        return (x * 0, -x)

    a, b = f(t([1.0, 2.0]))
    np.testing.assert_allclose(a.asnumpy(), [3.0, 6.0])
    a, b = f(t([-1.0, -2.0]))
    np.testing.assert_allclose(b.asnumpy(), [1.0, 2.0])
    assert f.trace_count == 1


def test_user_hooks_and_bprop_with_tensor_conditions_in_jit():
    def doubling(cell, inputs, output):
        if output.sum() > 0:
            return output * 2
        return output

    net = nn.Dense(2, 2, weight_init="ones", bias_init="zeros")
    net.register_forward_hook(doubling)
    run = ms.jit(lambda x: net(x))
    np.testing.assert_allclose(run(t([[1.0, 1.0]])).asnumpy(), [[4.0, 4.0]])
    np.testing.assert_allclose(run(t([[-1.0, -1.0]])).asnumpy(), [[-2.0, -2.0]])

    class Gated(nn.Cell):
        def construct(self, x):
            return x * 3

        def bprop(self, x, out, dout):
            if x.sum() > 0:
                return (dout * 3,)
            return (dout * 0,)

    gated = Gated()
    grad = ms.jit(ms.grad(lambda x: gated(x).sum()))
    np.testing.assert_allclose(grad(t([1.0, 1.0])).asnumpy(), [3.0, 3.0])
    np.testing.assert_allclose(grad(t([-1.0, -1.0])).asnumpy(), [0.0, 0.0])

    def clip(g):
        if g.sum() > 3:
            return g * 10
        return g

    def f(x):
        y = x * 1
        y.register_hook(clip)
        return (y * x).sum()

    tensor_grad = ms.jit(ms.grad(f))
    np.testing.assert_allclose(tensor_grad(t([2.0, 2.0])).asnumpy(), [22.0, 22.0])
    np.testing.assert_allclose(tensor_grad(t([1.0, 1.0])).asnumpy(), [2.0, 2.0])


def test_loop_else_under_tensor_exits_follows_python():
    # MindSpore 2.10 rejects `for/while ... else`; cellax runs Python's semantics
    def for_else(x):
        for v in x:
            if v > 5:
                break
        else:
            x = x * 0
        return x

    def while_else(x):
        while x.sum() < 10:
            x = x + 3
            if x.max() > 8:
                break
        else:
            x = x - 100
        return x

    for fn, value in ((for_else, [1.0, 2.0]), (for_else, [1.0, 9.0]), (while_else, [1.0, 1.0])):
        want = fn(np.array(value, np.float32))
        np.testing.assert_allclose(ms.jit(fn)(t(value)).asnumpy(), want)
    np.testing.assert_allclose(ms.jit(while_else)(t([6.0, 1.0])).asnumpy(), [9.0, 4.0])


def test_nested_jit_keeps_its_control_flow_option():
    @ms.jit
    def inner(x):
        if x.sum() > 0:
            return x * 2
        return x

    outer = ms.jit(lambda x: inner(x) + 1, control_flow="python")
    np.testing.assert_allclose(outer(t([1.0])).asnumpy(), [3.0])
    np.testing.assert_allclose(outer(t([-1.0])).asnumpy(), [0.0])


def _factorial(n):
    if n <= 1:
        return 1
    return n * _factorial(n - 1)


def _countdown(x, n):
    if n == 0:
        return x
    return _countdown(x + n, n - 1)


def test_recursive_module_level_functions_are_converted():
    # the recursive call names the module's global, as in the original function
    @ms.jit
    def f(x):
        return _countdown(x * _factorial(4), 3)

    np.testing.assert_allclose(f(ms.Tensor(2.0)).asnumpy(), 54.0)
    assert _trace_reason(_countdown) is None


def _trace_reason(fn):
    from cellax._autograph import _cache

    converted = _cache.convert(fn)
    assert converted is not None and converted.__code__.co_name == fn.__name__
    return _cache.reason_for_code(fn.__code__)
