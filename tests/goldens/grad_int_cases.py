"""Issue 36 cases (``out = ...`` snippets in the format of ``conformance_cases.py``): gradients
of integer Tensors, gradients through casts, grad's return structures, and the small op
differences. ``record_grad_int.py`` runs them under MindSpore 2.10; ``tests/test_grad_int.py``
runs them under cellax and compares."""

import grad_int_fns

_I = "T(2, ms.int32), T(5, ms.int32)"
_F2 = "T([1.5, -2.7])"
_W = "net = Weighted()\nx, y = T([1.0, 2.0]), T([3.0, 4.0])\n"

GRAD = {
    # integer inputs are differentiated; the gradient has the input's dtype
    "int_default": f"out = ms.grad(mul3)({_I})",
    "int_both": f"out = ms.grad(mul3, grad_position=(0, 1))({_I})",
    "int_int64": "out = ms.grad(mul3, (0, 1))(T(3, ms.int64), T(-4, ms.int64))",
    "int_uint8": "out = ms.grad(mul3, (0, 1))(T(3, ms.uint8), T(4, ms.uint8))",
    "int_array": "out = ms.grad(sq_sum)(T([1, 2, 3], ms.int32))",
    "int_div": f"out = ms.grad(div, (0, 1))({_I})",
    "int_div_big": "out = ms.grad(div, (0, 1))(T(7, ms.int32), T(2, ms.int32))",
    "int_value_and_grad": f"out = ms.value_and_grad(mul3, (0, 1))({_I})",
    "int_grad_all": f"out = ops.GradOperation(get_all=True)(mul3)({_I})",
    "int_mixed": "out = ms.grad(mul3, (0, 1))(T(2, ms.int32), T(1.5))",
    "int_jit": f"out = ms.grad(jit_mul3, (0, 1))({_I})",
    "int_if_true": f"out = ms.grad(IfNet(), (0, 1))({_I})",
    "int_if_false": "out = ms.grad(IfNet(), (0, 1))(T(5, ms.int32), T(2, ms.int32))",
    "int_if_graph": f"out = in_graph(lambda: ms.grad(IfNet(), (0, 1))({_I}))",
    "int_while": "out = ms.grad(WhileNet(), (0, 1))(T(1, ms.int32), T(3, ms.int32))",
    "int_while_graph": (
        "out = in_graph(lambda: ms.grad(WhileNet(), (0, 1))(T(1, ms.int32), T(3, ms.int32)))"
    ),
    "int_stop_gradient": "out = ops.GradOperation(get_all=True)(stop_int)(T(1, ms.int32))",
    "int_through_float": "out = ms.grad(int_to_float)(T([1, 2], ms.int32))",
    # casts pass the gradient (MindSpore's Cast bprop casts dout back to the input's dtype)
    "cast_sens_int": (
        "out = ops.GradOperation(get_all=True, sens_param=True)(to_int)"
        f"({_F2}, T([1, 1], ms.int32))"
    ),
    "cast_sens_float": (
        f"out = ops.GradOperation(get_all=True, sens_param=True)(to_int)({_F2}, T([2.0, 1.0]))"
    ),
    "cast_cell": (
        "out = ops.GradOperation(get_all=True, sens_param=True)(CastNet())"
        f"({_F2}, T([1, 3], ms.int32))"
    ),
    "cast_round_trip": f"out = ms.grad(round_trip)({_F2})",
    "cast_round_trip_jit": f"out = ms.grad(jit_round_trip)({_F2})",
    "cast_astype": f"out = ms.grad(astype_trip)({_F2})",
    "cast_cell_round_trip": f"out = ms.grad(RoundTrip())({_F2})",
    "cast_cell_round_trip_graph": f"out = in_graph(lambda: ms.grad(RoundTrip())({_F2}))",
    # requires_grad=False Parameters asked for by list get zero gradients
    "frozen_grad_operation": (
        "net = Frozen()\n"
        "out = ops.GradOperation(get_all=True, get_by_list=True)"
        "(net, [net.p1, net.p2, net.p3])(T([1.0, 1.0]))"
    ),
    "frozen_grad_by_list": (
        "net = Frozen()\n"
        "out = ops.GradOperation(get_by_list=True)(net, [net.p1, net.p3])(T([1.0, 1.0]))"
    ),
    "frozen_ms_grad": (
        "net = Frozen()\nout = ms.grad(net, None, [net.p1, net.p2, net.p3])(T([1.0, 1.0]))"
    ),
    # custom bprop returning something that is not a gradient
    "bad_bprop_str": "out = ms.grad(BadBprop())(T([1.0, 2.0]))",
    "bad_bprop_int": "out = ms.grad(BadBpropInt())(T([1.0, 2.0]))",
}

# grad / value_and_grad return structures, every grad_position and weights kind
_POSITIONS = {"p0": "0", "pt0": "(0,)", "p01": "(0, 1)", "pnone": "None"}
_WEIGHTS = {
    "wnone": "None",
    "wparam": "net.w",
    "wlist1": "[net.w]",
    "wlist2": "[net.w, net.b]",
    "wtuple": "ms.ParameterTuple(net.trainable_params())",
}
STRUCTURE = {}
for _p, _pos in _POSITIONS.items():
    for _k, _weights in _WEIGHTS.items():
        if _p == "pnone" and _k == "wnone":
            continue
        STRUCTURE[f"grad_{_p}_{_k}"] = f"{_W}out = ms.grad(net, {_pos}, {_weights})(x, y)"
        STRUCTURE[f"vg_{_p}_{_k}"] = f"{_W}out = ms.value_and_grad(net, {_pos}, {_weights})(x, y)"
STRUCTURE["grad_aux"] = (
    "out = ms.grad(lambda a, b: (a * b, a + b), 0, has_aux=True)(T(2.0), T(3.0))"
)
STRUCTURE["grad_aux_t"] = (
    "out = ms.grad(lambda a, b: (a * b, a + b), (0, 1), has_aux=True)(T(2.0), T(3.0))"
)

OPS = {
    "tensor_div_int": "out = ops.tensor_div(T([7, -7], ms.int32), T([2, 2], ms.int32))",
    "div_int": "out = ops.div(T([7, -7], ms.int32), T([2, 2], ms.int32))",
    "add_bool_int": "out = ops.add(T([True, False]), T([2, 3], ms.int32))",
    "add_bool_float": "out = ops.add(T([True, False]), T([2.0, 3.0]))",
    "any_int_axis": "out = ops.any(T([[0, 2], [0, 0]], ms.int32), 1)",
    "any_int_all": "out = ops.any(T([[0, 2], [0, 0]], ms.int32))",
    "any_float_axis": "out = ops.any(T([[0.0, 0.5], [0.0, 0.0]]), 0, True)",
    "repeat_interleave_tensor": "out = ops.repeat_interleave(T([1, 2, 3]), T([1, 2, 3]), 0)",
    "repeat_interleave_tensor_2d": (
        "out = ops.repeat_interleave(T([[1.0, 2.0], [3.0, 4.0]]), T([2, 1]), 1)"
    ),
    "repeat_interleave_int": "out = ops.repeat_interleave(T([[1, 2], [3, 4]]), 2)",
    "topk_ties_3": "out = ops.topk(T([1.0, 3.0, 3.0, 2.0, 3.0]), 3)",
    "topk_ties_all": "out = ops.topk(T([2.0, 2.0, 2.0, 2.0]), 4)",
    "topk_ties_2d": "out = ops.topk(T([[5.0, 1.0, 5.0, 5.0], [0.0, 0.0, 1.0, 0.0]]), 2)",
    "topk_ties_smallest": "out = ops.topk(T([1.0, 0.0, 1.0, 0.0, 0.0]), 3, largest=False)",
    "ms_bool": "out = (str(ms.bool), ms.bool == ms.bool_, str(T([1, 0], ms.bool).dtype))",
    "tanhshrink": "out = ops.tanhshrink(T([-2.0, -0.1, 0.0, 0.001, 0.5, 3.0, 20.0]))",
    "tanhshrink_small": "out = ops.tanhshrink(T([1e-3, 1e-2, 0.05, -0.2]))",
    "log_softmax_large_axis": (
        "out = ops.log_softmax(T(np.sin(np.arange(3000, dtype=np.float32)).reshape(3, 1000) * 8), 1)"
    ),
    "log_softmax_axis0": (
        "out = ops.log_softmax(T(np.cos(np.arange(2048, dtype=np.float32)).reshape(1024, 2) * 5), 0)"
    ),
}


def all_cases():
    return {**GRAD, **STRUCTURE, **{"op_" + k: v for k, v in OPS.items()}}


def make_namespace(ms):
    import numpy as np

    return {
        "ms": ms,
        "ops": ms.ops,
        "nn": ms.nn,
        "np": np,
        "T": ms.Tensor,
        "P": ms.Parameter,
        **grad_int_fns.bind(ms),
    }
