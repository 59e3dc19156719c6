"""Named functions and Cells for ``grad_int_cases.py``: MindSpore 2.10 parses the source of what
it compiles (``jit``, GRAPH_MODE), which code exec'd from a string does not have.
:func:`bind` points the module at the framework under test (``mindspore`` or ``cellax``)."""

ms = ops = nn = None


def bind(framework):
    """Bind the framework and build the Cells; return the namespace the cases use."""
    global ms, ops, nn
    ms, ops, nn = framework, framework.ops, framework.nn

    class IfNet(nn.Cell):
        """The control-flow tutorials' shape: a Tensor condition on integer inputs."""

        def construct(self, x, y):
            if x < y:
                out = x * y
            else:
                out = x + y
            return out * x

    class WhileNet(nn.Cell):
        def construct(self, x, y):
            out = y
            while x < y:
                x = x + 1
                out = out + x
            return out

    class CastNet(nn.Cell):
        def __init__(self):
            super().__init__()
            self.cast = ops.Cast()

        def construct(self, x):
            return self.cast(x, ms.int32)

    class RoundTrip(nn.Cell):
        def __init__(self):
            super().__init__()
            self.cast = ops.Cast()

        def construct(self, x):
            y = self.cast(self.cast(x, ms.int32), ms.float32)
            return y * x

    class Frozen(nn.Cell):
        def __init__(self):
            super().__init__()
            self.p1 = ms.Parameter(ms.Tensor([1.0, 2.0]), name="p1", requires_grad=False)
            self.p2 = ms.Parameter(ms.Tensor([3.0, 4.0]), name="p2", requires_grad=False)
            self.p3 = ms.Parameter(ms.Tensor([5.0, 6.0]), name="p3")

        def construct(self, x):
            return x * self.p1 * self.p2 * self.p3

    class Weighted(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor([2.0, 3.0]), name="w")
            self.b = ms.Parameter(ms.Tensor([1.0, 1.0]), name="b")

        def construct(self, x, y):
            return x * y * self.w + self.b * x

    class BadBprop(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return "not a gradient"

    class BadBpropInt(nn.Cell):
        def construct(self, x):
            return x * 2

        def bprop(self, x, out, dout):
            return 1

    return {
        "IfNet": IfNet,
        "WhileNet": WhileNet,
        "CastNet": CastNet,
        "RoundTrip": RoundTrip,
        "Frozen": Frozen,
        "Weighted": Weighted,
        "BadBprop": BadBprop,
        "BadBpropInt": BadBpropInt,
        "mul3": mul3,
        "div": div,
        "sq_sum": sq_sum,
        "to_int": to_int,
        "round_trip": round_trip,
        "astype_trip": astype_trip,
        "int_to_float": int_to_float,
        "jit_round_trip": ms.jit(round_trip),
        "jit_mul3": ms.jit(mul3),
        "stop_int": stop_int,
        "in_graph": in_graph,
    }


def mul3(x, y):
    return x * x * y


def div(x, y):
    return x / y


def sq_sum(x):
    return (x * x).sum()


def to_int(x):
    return ops.Cast()(x, ms.int32)


def round_trip(x):
    return ops.cast(ops.cast(x, ms.int32), ms.float32) * 3


def astype_trip(x):
    return x.astype(ms.int32).astype(ms.float32) * x


def int_to_float(x):
    return ops.cast(x, ms.float32) * 2.5


def stop_int(x):
    y = ops.stop_gradient(x + x)
    return x + y


def in_graph(thunk):
    """``thunk()`` under GRAPH_MODE, PyNative restored after."""
    ms.set_context(mode=ms.GRAPH_MODE)
    try:
        return thunk()
    finally:
        ms.set_context(mode=ms.PYNATIVE_MODE)
