"""CONTROL_FLOW.md's examples and MindSpore-derived cases, written once for both frameworks.

``setup(module)`` binds ``ms``/``nn``/``ops`` to ``mindspore`` (the golden recorder,
``tests/goldens/record_control_flow.py``) or ``cellax`` (the tests); every case returns
nested lists of plain numbers. Cases follow MindSpore's docs (``statements.md``,
``static_graph.md``) and ``tests/st/control`` (single if/for/while, break/continue, tensor in
list, switch_layer, while grad).
"""

import numpy as np

ms = nn = ops = Network = None


def setup(module):
    global ms, nn, ops, Network
    ms, nn, ops = module, module.nn, module.ops
    Network = classes()[3]


def plain(value):
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if hasattr(value, "asnumpy"):
        return np.asarray(value.asnumpy()).tolist()
    if isinstance(value, (np.ndarray, np.generic)):
        return value.tolist()
    return value


def t(values, dtype=None):
    return ms.Tensor(np.array(values, dtype=dtype or np.float32))


# -- functions run under ms.jit -----------------------------------------------------------------


def if_elif(x):
    if x.sum() > 10:
        y = x * 3
    elif x.sum() > 0:
        y = x + 1
    else:
        y = -x
    return y


def nested(x, y):
    out = x
    if x.sum() > 0:
        if y.sum() > 0:
            out = x + y
        else:
            out = x - y
    else:
        out = out * 0
    return out


def ternary(x):
    return x * 2 if x.sum() > 0 else -x


def gate(x, y, scale=None):
    s = scale or 2.0
    ok = x.sum() > 0 and y.sum() > 0
    return ops.select(ok, x * s, y)


def and_or(a, b):
    return a and b, a or b


def not_test(x):
    if not x.sum() > 0:
        return x - 1
    return x + 1


def bucket(c):
    if c in [ms.Tensor(1), ms.Tensor(3)]:
        return c * 10
    return c


def early(x):
    if x.sum() > 0:
        if x.max() > 5:
            return x * 0
        x = x + 1
    return x * 2


def capped_sum(x, cap):
    total = x[0] * 0
    for v in x:
        if v < 0:
            continue
        total = total + v
        if total > cap:
            break
    return total


def halve_until(x, bound):
    while True:
        x = x / 2
        if x.max() < bound:
            break
    return x


def while_count(x):
    i = ms.Tensor(0)
    while x.sum() < 100:
        x = x * 2
        i = i + 1
    return x, i


def first_positive(x):
    for v in x:
        if v > 0:
            return v
    return x[0] * 0


def range_break(x):
    for i in range(5):
        x = x + i
        if x.sum() > 10:
            break
    return x


def power(x):
    y = x
    while y < 100.0:
        y = y * x
    return y


def branchy(x):
    if x > 0:
        y = x * x * x
    else:
        y = -x * 2
    return y


def loop_break(x):
    y = x
    for _ in range(4):
        y = y * x
        if y > 50:
            break
    return y


def safe_log(x):
    if x.min() <= 0:
        raise ValueError("safe_log needs positive input")
    return ops.log(x)


def add_n(x, n):
    for _ in range(n):
        x = x + 1
    return x


# -- shapes of MindSpore's tests/st/control (if in while, while in for, nested exits, grads) ---


def if_in_while(x, y):
    while x < y:
        if x > 2:
            x = x + 3
        else:
            x = x * 2
        y = y + 1
    return x, y


def while_in_for(x):
    total = x * 0
    for i in range(3):
        while x < 10 * (i + 1):
            x = x + 4
        total = total + x
    return total


def while_in_if(x, y):
    if x.sum() > y.sum():
        while x.sum() > 0:
            x = x - 1
    else:
        x = x + y
    return x


def for_continue_break(x):
    out = x * 0
    for i in range(6):
        if x[i % 3] < 0:
            continue
        out = out + x * i
        if out.sum() > 20:
            break
    return out


def unrolled_append(x):
    rows = []
    for i in range(3):
        row = x * i if x.sum() > 0 else x - i
        rows.append(row)
    return ops.stack(rows)


def while_return(x):
    while x < 100:
        if x < 0:
            return x * 0
        x = x * 3
    return x


def while_grad(x, y):
    while x < y:
        x = x * x
        y = y + 1
    return x + y


# -- Python statements around Tensor conditions (MindSpore's statements.md) ------------------


def enum_zip(x, y):
    out = x * 0
    for i, (a, b) in enumerate(zip((x, y), (y, x))):
        out = out + a * b * i if a.sum() > b.sum() else out - i
    return out


def comprehension(x):
    parts = [x * k if x.sum() > k else x for k in range(3)]
    return parts[0] + parts[1] + parts[2]


def nested_fn(x):
    def inner(z):
        if z.sum() > 0:
            return z * 2
        return z

    return inner(x) + inner(-x)


def dict_state(x):
    d = {"a": x, "b": x * 0}
    if x.sum() > 0:
        d["b"] = x + 1
    return d["a"] + d["b"]


def classes():
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.limit = ms.Tensor([2.0])

        def construct(self, x):
            y = x.sum() if (self.limit > 1).all() else x
            z = x * 2 if x.sum() > 0 else -x
            return y, z

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

    class Pick(nn.Cell):
        def __init__(self):
            super().__init__()
            self.acts = (nn.ReLU(), nn.Tanh(), nn.Sigmoid())

        def construct(self, idx, x):
            return self.acts[idx](x)

    class Network(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(3, 2, weight_init="ones", bias_init="zeros")

        def construct(self, x):
            return self.dense(x)

    class Accumulate(nn.Cell):  # a Parameter written in a Tensor while, through ops.assign
        def __init__(self):
            super().__init__()
            self.total = ms.Parameter(ms.Tensor(0.0, ms.float32), name="total")

        def construct(self, x, n):
            i = n * 0
            while i < n:
                ops.assign(self.total, self.total + x)
                i = i + 1
            return self.total

    class Layers(nn.Cell):  # a CellList in a for loop left by a Tensor break
        def __init__(self):
            super().__init__()
            self.layers = nn.CellList(
                [nn.Dense(2, 2, weight_init="ones", bias_init="ones") for _ in range(3)]
            )

        def construct(self, x):
            for layer in self.layers:
                x = layer(x)
                if x.sum() > 20:
                    break
            return x

    class SetP(nn.Cell):  # `self.p = value` in both branches of a Tensor if
        def __init__(self):
            super().__init__()
            self.p = ms.Parameter(ms.Tensor(np.zeros(2, np.float32)), name="p")

        def construct(self, x):
            if x.sum() > 0:
                self.p = x * 2
            else:
                self.p = self.p - 1
            return self.p

    class NormIf(nn.Cell):  # BatchNorm statistics updated in one branch only
        def __init__(self):
            super().__init__()
            self.bn = nn.BatchNorm1d(2)

        def construct(self, x):
            if x.sum() > 0:
                x = self.bn(x)
            return x

    return Net, Counter, Pick, Network, Accumulate, Layers, SetP, NormIf


def run_network(x):
    model = Network()
    return model(x)


# -- the cases ----------------------------------------------------------------------------------


def _jit_cases():
    jit = ms.jit
    return {
        "if_elif": lambda: [jit(if_elif)(t(v)) for v in ([20.0, 1.0], [1.0, 2.0], [-1.0, -2.0])],
        "nested": lambda: [
            jit(nested)(t(a), t(b)) for a, b in (([1.0], [2.0]), ([1.0], [-2.0]), ([-1.0], [2.0]))
        ],
        "ternary": lambda: [jit(ternary)(t(v)) for v in ([1.0, 2.0], [-3.0, 1.0])],
        "gate": lambda: [
            jit(gate)(t(a), t(b)) for a, b in (([1.0], [2.0]), ([1.0], [-2.0]), ([-1.0], [2.0]))
        ],
        "and_or": lambda: [
            jit(and_or)(t(a), t(b)) for a, b in ((0.0, 3.0), (2.0, 3.0), (2.0, 0.0))
        ],
        "not_test": lambda: [jit(not_test)(t(v)) for v in ([1.0], [-1.0])],
        "bucket": lambda: [jit(bucket)(ms.Tensor(i)) for i in range(4)],
        # MindSpore 2.10 finds an Int32 Tensor in a list of Int64 Tensors never
        "bucket_int32": lambda: [jit(bucket)(ms.Tensor(i, ms.int32)) for i in range(4)],
        "early": lambda: [jit(early)(t(v)) for v in ([1.0, 2.0], [1.0, 9.0], [-1.0, -2.0])],
        "capped_sum": lambda: [
            jit(capped_sum)(t([1.0, -2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]), t(c))
            for c in (6.0, 100.0, 0.5)
        ],
        "halve_until": lambda: [
            jit(halve_until)(t(v), t(5.0)) for v in ([100.0, 30.0], [1.0, 2.0])
        ],
        "while_count": lambda: [jit(while_count)(t(v)) for v in ([1.0, 2.0], [200.0, 1.0])],
        "first_positive": lambda: [
            jit(first_positive)(t(v)) for v in ([-1.0, 2.0, 3.0], [-1.0, -2.0, -3.0])
        ],
        "range_break": lambda: [jit(range_break)(t(v)) for v in ([1.0, 1.0], [-20.0, 0.0])],
        "grad_power": lambda: [jit(ms.grad(power))(t(v)) for v in (3.0, 2.0, 1.5)],
        "grad_branchy": lambda: [jit(ms.grad(branchy))(t(v)) for v in (2.0, -2.0)],
        "grad_loop_break": lambda: [jit(ms.grad(loop_break))(t(v)) for v in (2.0, 3.0, 1.5)],
        "safe_log_good": lambda: [jit(safe_log)(t([1.0, 2.0]))],
        "add_n": lambda: [
            jit(add_n)(t([1.0]), ms.mutable(3)),
            jit(add_n)(t([1.0]), ms.mutable(5)),
        ],
        "run_network": lambda: [jit(run_network)(t([[1.0, 2.0, 3.0]])) for _ in range(2)],
        "if_in_while": lambda: [jit(if_in_while)(t(a), t(b)) for a, b in ((1.0, 8.0), (5.0, 3.0))],
        "while_in_for": lambda: [jit(while_in_for)(t(v)) for v in (1.0, 25.0)],
        "while_in_if": lambda: [
            jit(while_in_if)(t(a), t(b)) for a, b in (([3.0, 2.0], [1.0]), ([1.0], [5.0]))
        ],
        "for_continue_break": lambda: [
            jit(for_continue_break)(t(v)) for v in ([1.0, 2.0, 3.0], [-1.0, 1.0, 1.0])
        ],
        "unrolled_append": lambda: [jit(unrolled_append)(t(v)) for v in ([1.0, 2.0], [-1.0, 0.0])],
        "while_return": lambda: [jit(while_return)(t(v)) for v in (2.0, -1.0, 200.0)],
        "enum_zip": lambda: [
            jit(enum_zip)(t(a), t(b))
            for a, b in (([1.0, 2.0], [0.0, 1.0]), ([0.0, 1.0], [3.0, 3.0]))
        ],
        "comprehension": lambda: [jit(comprehension)(t(v)) for v in ([1.0, 1.0], [5.0, 5.0])],
        "nested_fn": lambda: [jit(nested_fn)(t(v)) for v in ([1.0, -3.0], [2.0, 2.0])],
        "dict_state": lambda: [jit(dict_state)(t(v)) for v in ([1.0, 2.0], [-1.0, -2.0])],
        "grad_while_both": lambda: [
            jit(ms.grad(while_grad, grad_position=(0, 1)))(t(a), t(b))
            for a, b in ((2.0, 5.0), (1.5, 40.0))
        ],
    }


def _graph_cases():
    Net, Counter, Pick, _, Accumulate, Layers, SetP, NormIf = classes()

    def net():
        n = Net()
        return [n(t(v)) for v in ([1.0, 2.0, 3.0], [-1.0, -2.0, -3.0])]

    def counter():
        c = Counter()
        outs = [c(t([1.0, float(i)])) for i in range(4)]
        return outs + [c.step.asnumpy(), c.acc.asnumpy()]

    def pick():
        p = Pick()
        x = t([-1.0, 0.5])
        return [p(ms.Tensor(i, ms.int32), x) for i in (0, 1, 2, -1)]

    def accumulate():
        acc = Accumulate()
        outs = [acc(t(v), ms.Tensor(n, ms.int32)) for v, n in ((1.5, 3), (2.0, 0), (0.5, 2))]
        return outs + [acc.total.asnumpy()]

    def layers():
        net = Layers()
        return [net(t(v)) for v in ([[1.0, 1.0]], [[0.0, -1.0]], [[-5.0, -5.0]])]

    def set_parameter():
        cell = SetP()
        outs = [cell(t(v)) for v in ([1.0, 2.0], [-1.0, -1.0], [-5.0, 0.0])]
        return outs + [cell.p.asnumpy()]

    def norm_in_branch():
        cell = NormIf()
        cell.set_train(True)
        x = t([[1.0, 2.0], [3.0, 5.0]])
        outs = [cell(x), cell(-x)]
        return outs + [cell.bn.moving_mean.asnumpy(), cell.bn.moving_variance.asnumpy()]

    return {
        "set_parameter": set_parameter,
        "norm_in_branch": norm_in_branch,
        "net": net,
        "counter": counter,
        "pick": pick,
        "accumulate": accumulate,
        "cell_list_break": layers,
    }


def _functional_cases():
    def loops():
        return [
            ops.WhileLoop()(lambda v: v < 10, lambda v: v * 2, ms.Tensor(1)),
            ops.ForiLoop()(0, 5, lambda i, acc: acc + i, ms.Tensor(0)),
            ops.Scan()(lambda c, v: (c + v, c), ms.Tensor(0), [ms.Tensor(1), ms.Tensor(2)]),
        ]

    return {"functional_loops": loops}


def run_all(graph_mode):
    """{case: {"value": nested lists} | {"error": exception type name}}."""
    results = {}
    groups = [(_jit_cases(), False), (_graph_cases(), True), (_functional_cases(), False)]
    for cases, in_graph in groups:
        for name, case in cases.items():
            if in_graph:
                graph_mode(True)
            try:
                results[name] = {"value": plain(case())}
            except Exception as error:  # noqa: BLE001 - recorded for the golden
                results[name] = {"error": type(error).__name__, "message": str(error)[:300]}
            finally:
                graph_mode(False)
    return results
