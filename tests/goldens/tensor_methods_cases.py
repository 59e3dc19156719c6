"""Cases for the Tensor methods added from MindSpore 2.10's list (record_tensor_methods_more.py
runs them on MindSpore, tests/test_tensor_methods_more.py on cellax).

Each case is ``fn(ms, np) -> result``, written against the ``mindspore`` API only; a pair
``(fn, reference)`` gives MindSpore a second way to compute the same result where 2.10's CPU
build has no kernel for ``fn`` (its in-place Inplace* kernels are Ascend-only). Random methods
record only their shape and dtype (``shape_of``).
"""

from __future__ import annotations


def _x(ms, np):
    return ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))


def _sq(ms, np):
    return ms.Tensor(np.array([[4.0, 1.0], [1.0, 3.0]], np.float32))


def shape_of(t):
    return {"shape_only": list(t.shape), "dtype": str(t.dtype)}


def _c(ms, np):  # a copy to write into
    return _x(ms, np).copy()


CASES = {
    # reinterpretation and creation
    "view_int32": lambda ms, np: _x(ms, np).view(ms.int32),
    "view_float16": lambda ms, np: _x(ms, np).view(ms.float16),
    "view_float64": lambda ms, np: _x(ms, np).view(ms.float64),
    "view_int8": lambda ms, np: ms.Tensor([1.5, -2.0], ms.float32).view(ms.int8),
    "view_uint8_bool": lambda ms, np: ms.Tensor([1, 0, 1], ms.uint8).view(ms.bool_),
    "view_int16_to_float32": lambda ms, np: ms.Tensor([0, 16256, 0, 16384], ms.int16).view(
        ms.float32
    ),
    "view_shape": lambda ms, np: _x(ms, np).view(4, 2),
    "new_ones_tuple": lambda ms, np: _x(ms, np).new_ones((2, 3)),
    "new_ones_dtype": lambda ms, np: _x(ms, np).new_ones(3, ms.int32),
    "new_zeros_list": lambda ms, np: _x(ms, np).new_zeros([2]),
    "reshape_as": lambda ms, np: _x(ms, np).reshape_as(ms.Tensor(np.ones((4, 2)))),
    "bfloat16": lambda ms, np: _x(ms, np).bfloat16().float(),
    "byte": lambda ms, np: _x(ms, np).byte(),
    "short": lambda ms, np: _x(ms, np).short(),
    "fill": lambda ms, np: _x(ms, np).fill(3),
    "fill_tensor": lambda ms, np: _x(ms, np).fill(ms.Tensor(2.0)),
    "value": lambda ms, np: _x(ms, np).value(),
    "data": lambda ms, np: _x(ms, np).data,
    "H": lambda ms, np: _x(ms, np).H,
    "mH": lambda ms, np: _x(ms, np).mH,
    # overloads
    "select_dim": lambda ms, np: _x(ms, np).select(1, 2),
    "select_negative": lambda ms, np: _x(ms, np).select(-1, -1),
    "select_keywords": lambda ms, np: _x(ms, np).select(dim=0, index=1),
    "select_out_of_range": lambda ms, np: _x(ms, np).select(1, 4),
    "select_condition": lambda ms, np: _x(ms, np).select(_x(ms, np) > 2, _x(ms, np) * 10),
    "take_flat": lambda ms, np: _x(ms, np).take(ms.Tensor([0, 5])),
    "take_clip": lambda ms, np: _x(ms, np).take(ms.Tensor([-10, -9, -1, 3, 10])),
    "take_wrap": lambda ms, np: _x(ms, np).take(ms.Tensor([-1, 10]), mode="wrap"),
    "take_axis": lambda ms, np: _x(ms, np).take(ms.Tensor([-1, 5]), axis=1),
    "take_raise": lambda ms, np: _x(ms, np).take(ms.Tensor([10]), mode="raise"),
    "index": (  # Ascend-only in MindSpore 2.10 (NotImplementedError on CPU)
        lambda ms, np: _x(ms, np).index((ms.Tensor([0, 1]), ms.Tensor([3, 2]))),
        lambda ms, np: _x(ms, np)[ms.Tensor([0, 1]), ms.Tensor([3, 2])],
    ),
    "masked_scatter": lambda ms, np: _x(ms, np).masked_scatter(
        _x(ms, np) > 2, ms.Tensor(np.arange(10, 18, dtype=np.float32))
    ),
    "masked_scatter_broadcast": lambda ms, np: _x(ms, np).masked_scatter(
        ms.Tensor([True, False, True, False]), ms.Tensor(np.arange(10, 18, dtype=np.float32))
    ),
    "masked_scatter_too_short": lambda ms, np: _x(ms, np).masked_scatter(
        _x(ms, np) > 2, ms.Tensor([1.0, 2.0])
    ),
    "masked_scatter_int_mask": lambda ms, np: _x(ms, np).masked_scatter(
        ms.Tensor([1, 0, 1, 0]), ms.Tensor(np.ones(8, np.float32))
    ),
    "index_put": lambda ms, np: _x(ms, np).index_put(
        (ms.Tensor([0, 1]), ms.Tensor([1, 2])), ms.Tensor([7.0, 8.0])
    ),
    "index_put_accumulate": lambda ms, np: _x(ms, np).index_put(
        (ms.Tensor([0, 0]), ms.Tensor([1, 1])), ms.Tensor([7.0, 8.0]), True
    ),
    # in place (MindSpore 2.10 CPU has no kernel: the reference is the out-of-place form)
    "masked_scatter_": (
        lambda ms, np: _c(ms, np).masked_scatter_(
            _x(ms, np) > 4, ms.Tensor(np.arange(10, 18, dtype=np.float32))
        ),
        lambda ms, np: _x(ms, np).masked_scatter(
            _x(ms, np) > 4, ms.Tensor(np.arange(10, 18, dtype=np.float32))
        ),
    ),
    "index_put_": (
        lambda ms, np: _c(ms, np).index_put_(
            (ms.Tensor([0, 1]), ms.Tensor([1, 2])), ms.Tensor([7.0, 8.0]), True
        ),
        lambda ms, np: _x(ms, np).index_put(
            (ms.Tensor([0, 1]), ms.Tensor([1, 2])), ms.Tensor([7.0, 8.0]), True
        ),
    ),
    "scatter_src": (
        lambda ms, np: _c(ms, np).scatter_(1, ms.Tensor([[0], [1]]), ms.Tensor([[9.0], [8]])),
        lambda ms, np: _x(ms, np).scatter(1, ms.Tensor([[0], [1]]), ms.Tensor([[9.0], [8]])),
    ),
    "scatter_value": (
        lambda ms, np: _c(ms, np).scatter_(1, ms.Tensor([[0], [1]]), 5.0),
        lambda ms, np: _x(ms, np).scatter(1, ms.Tensor([[0], [1]]), ms.Tensor([[5.0], [5.0]])),
    ),
    "scatter_add_": (
        lambda ms, np: _c(ms, np).scatter_add_(1, ms.Tensor([[0], [1]]), ms.Tensor([[9.0], [8]])),
        lambda ms, np: ms.ops.tensor_scatter_elements(
            _x(ms, np), ms.Tensor([[0], [1]]), ms.Tensor([[9.0], [8]]), 1, "add"
        ),
    ),
    "index_add_": (
        lambda ms, np: _c(ms, np).index_add_(
            0, ms.Tensor([1]), ms.Tensor([[1.0, 1, 1, 1]]), alpha=2
        ),
        lambda ms, np: _x(ms, np) + ms.Tensor([[0.0, 0, 0, 0], [2, 2, 2, 2]]),
    ),
    "index_copy_": (
        lambda ms, np: _c(ms, np).index_copy_(1, ms.Tensor([3, 0]), ms.Tensor([[1.0, 2], [3, 4]])),
        lambda ms, np: ms.Tensor([[2.0, 1, 2, 1], [4, 5, 6, 3]]),
    ),
    "index_fill_": (
        lambda ms, np: _c(ms, np).index_fill_(1, ms.Tensor([1]), -1.0),
        lambda ms, np: _x(ms, np).index_fill(1, ms.Tensor([1], ms.int32), -1.0),
    ),
    "fill_diagonal_": (
        lambda ms, np: ms.Tensor(np.zeros((3, 3), np.float32)).fill_diagonal_(5.0),
        lambda ms, np: ms.Tensor(np.zeros((3, 3), np.float32)).fill_diagonal(5.0),
    ),
    "addmm_": (
        lambda ms, np: ms.Tensor(np.ones((2, 2), np.float32)).addmm_(
            ms.Tensor(np.ones((2, 3), np.float32)),
            ms.Tensor(np.ones((3, 2), np.float32)),
            beta=2,
            alpha=0.5,
        ),
        lambda ms, np: ms.Tensor(np.ones((2, 2), np.float32)).addmm(
            ms.Tensor(np.ones((2, 3), np.float32)),
            ms.Tensor(np.ones((3, 2), np.float32)),
            beta=2,
            alpha=0.5,
        ),
    ),
    "floor_": ((lambda ms, np: (_x(ms, np) / 3).floor_()), lambda ms, np: (_x(ms, np) / 3).floor()),
    "floor_divide_": (
        lambda ms, np: _c(ms, np).floor_divide_(3),
        lambda ms, np: _x(ms, np).floor_divide(3),
    ),
    "remainder_": (
        lambda ms, np: _c(ms, np).remainder_(3),
        lambda ms, np: _x(ms, np).remainder(3),
    ),
    "log_": ((lambda ms, np: (_x(ms, np) + 1).log_()), lambda ms, np: (_x(ms, np) + 1).log()),
    "sigmoid_": (lambda ms, np: _c(ms, np).sigmoid_(), lambda ms, np: _x(ms, np).sigmoid()),
    "sign_": ((lambda ms, np: (_x(ms, np) - 3).sign_()), lambda ms, np: (_x(ms, np) - 3).sign()),
    "tanh_": (lambda ms, np: _c(ms, np).tanh_(), lambda ms, np: _x(ms, np).tanh()),
    # math
    "float_power": lambda ms, np: _x(ms, np).float_power(2),
    "float_power_tensor": lambda ms, np: ms.Tensor([2, 3]).float_power(ms.Tensor([2, 3])),
    "float_power_fraction": lambda ms, np: ms.Tensor([2.0, 3.0]).float_power(2.5),
    "divide_floor": (  # MindSpore 2.10 fails it under launch_blocking (2 outputs)
        lambda ms, np: _x(ms, np).divide(3, rounding_mode="floor"),
        lambda ms, np: (_x(ms, np) / 3).floor(),
    ),
    "subtract_alpha": lambda ms, np: _x(ms, np).subtract(1, alpha=2),
    "multiply": lambda ms, np: _x(ms, np).multiply(2),
    "less_equal": lambda ms, np: _x(ms, np).less_equal(2),
    "greater_equal": lambda ms, np: _x(ms, np).greater_equal(2),
    "hardshrink": lambda ms, np: (_x(ms, np) - 4).hardshrink(1.5),
    "gcd": lambda ms, np: ms.Tensor([4, 6]).gcd(ms.Tensor([6, 4])),
    "lcm": lambda ms, np: ms.Tensor([4, 6]).lcm(ms.Tensor([6, 4])),
    "real": lambda ms, np: _x(ms, np).real(),
    "imag": lambda ms, np: _x(ms, np).imag(),
    "isneginf": lambda ms, np: ms.Tensor([-np.inf, 1.0, np.inf]).isneginf(),
    "isposinf": lambda ms, np: ms.Tensor([-np.inf, 1.0, np.inf]).isposinf(),
    "logaddexp2": lambda ms, np: _x(ms, np).logaddexp2(_x(ms, np)),
    "sinc": lambda ms, np: (_x(ms, np) / 3).sinc(),
    "acosh": lambda ms, np: (_x(ms, np) + 1).acosh(),
    "asinh": lambda ms, np: _x(ms, np).asinh(),
    "atanh": lambda ms, np: (_x(ms, np) / 10).atanh(),
    "arctan2": lambda ms, np: _x(ms, np).arctan2(_x(ms, np) + 1),
    "deg2rad": lambda ms, np: _x(ms, np).deg2rad(),
    "rad2deg": lambda ms, np: _x(ms, np).rad2deg(),
    "digamma": lambda ms, np: (_x(ms, np) + 1).digamma(),
    "lgamma": lambda ms, np: (_x(ms, np) + 1).lgamma(),
    "erfinv": lambda ms, np: (_x(ms, np) / 10).erfinv(),
    "i0": lambda ms, np: _x(ms, np).i0(),
    "sgn": lambda ms, np: (_x(ms, np) - 3).sgn(),
    "signbit": lambda ms, np: (_x(ms, np) - 3).signbit(),
    "positive": lambda ms, np: _x(ms, np).positive(),
    "copysign": lambda ms, np: _x(ms, np).copysign(-1.0),
    "fmax": lambda ms, np: _x(ms, np).fmax(ms.Tensor([3.0, np.nan, 0, 9])),
    "bitwise_not": (
        lambda ms, np: ms.Tensor([1, 2]).bitwise_not(),
        lambda ms, np: -ms.Tensor([1, 2]) - 1,
    ),
    "bitwise_left_shift": lambda ms, np: ms.Tensor([1, 2]).bitwise_left_shift(ms.Tensor([2, 1])),
    "ldexp": lambda ms, np: _x(ms, np).ldexp(ms.Tensor([1])),
    "heaviside": lambda ms, np: (_x(ms, np) - 3).heaviside(ms.Tensor(0.5)),
    "xdivy": lambda ms, np: _x(ms, np).xdivy(_x(ms, np) + 1),
    "addr": lambda ms, np: ms.Tensor(np.ones((2, 2), np.float32)).addr(
        ms.Tensor([1.0, 2]), ms.Tensor([3.0, 4]), beta=2, alpha=1
    ),
    "addmv": lambda ms, np: ms.Tensor([1.0, 1.0]).addmv(_x(ms, np), ms.Tensor([1.0, 0, 0, 1])),
    "ger": lambda ms, np: ms.Tensor([1.0, 2]).ger(ms.Tensor([3.0, 4, 5])),
    # reductions, linear algebra
    "argmax_with_value": lambda ms, np: _x(ms, np).argmax_with_value(),
    "argmin_with_value": lambda ms, np: _x(ms, np).argmin_with_value(1, True),
    "ptp": lambda ms, np: _x(ms, np).ptp(1),
    "ptp_all": lambda ms, np: _x(ms, np).ptp(),
    "sum_to_size": lambda ms, np: _x(ms, np).sum_to_size(1, 4),
    "sum_to_size_tuple": lambda ms, np: _x(ms, np).sum_to_size((2, 1)),
    "sum_to_size_lead": lambda ms, np: _x(ms, np).sum_to_size(4),
    "sum_to_size_bad": lambda ms, np: _x(ms, np).sum_to_size(3),
    "histc": lambda ms, np: _x(ms, np).histc(4, 0, 8),
    "bincount": lambda ms, np: ms.Tensor([1, 1, 3]).bincount(),
    "msort": lambda ms, np: ms.Tensor([[3.0, 1], [1, 2]]).msort(),
    "top_k": lambda ms, np: _x(ms, np).top_k(2),
    "nanmedian": lambda ms, np: ms.Tensor([[1.0, np.nan, 3.0], [2.0, 5.0, 4.0]]).nanmedian(),
    "cholesky": lambda ms, np: _sq(ms, np).cholesky(),
    "logdet": lambda ms, np: _sq(ms, np).logdet(),
    "slogdet": lambda ms, np: _sq(ms, np).slogdet(),
    "matrix_determinant": lambda ms, np: _sq(ms, np).matrix_determinant(),
    "inv": lambda ms, np: (_x(ms, np) + 1).inv(),
    "adjoint": lambda ms, np: _x(ms, np).adjoint(),
    "diagflat": lambda ms, np: ms.Tensor([1.0, 2.0]).diagflat(1),
    "renorm": lambda ms, np: _x(ms, np).renorm(2, 0, 5.0),
    "cov": lambda ms, np: _x(ms, np).cov(),
    # shape and element access
    "resize": lambda ms, np: _x(ms, np).resize(3, 3),
    "resize_tuple": lambda ms, np: _x(ms, np).resize((1, 2)),
    "resize_int": lambda ms, np: _x(ms, np).resize(3),
    "itemset_flat": lambda ms, np: _x(ms, np).itemset(1, 7.0),
    "itemset_tuple": lambda ms, np: _x(ms, np).itemset((1, 2), 9),
    "itemset_scalar": lambda ms, np: ms.Tensor([1.0]).itemset(5.0),
    "choose": lambda ms, np: ms.Tensor([0, 1, 0]).choose(
        [ms.Tensor([1, 2, 3]), ms.Tensor([4, 5, 6])]
    ),
    "fill_diagonal": lambda ms, np: ms.Tensor(np.zeros((3, 3), np.float32)).fill_diagonal(5.0),
    "fill_diagonal_wrap": lambda ms, np: ms.Tensor(np.zeros((7, 3), np.float32)).fill_diagonal(
        5.0, True
    ),
    "fill_diagonal_tall": lambda ms, np: ms.Tensor(np.zeros((5, 2), np.float32)).fill_diagonal(1.0),
    "reverse": lambda ms, np: _x(ms, np).reverse([1]),
    "hsplit": lambda ms, np: _x(ms, np).hsplit(2),
    "vsplit": lambda ms, np: _x(ms, np).vsplit(2),
    "unfold": lambda ms, np: ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)).unfold(
        2, stride=2
    ),
    "slice_scatter": lambda ms, np: _x(ms, np).slice_scatter(
        ms.Tensor(np.ones((2, 2), np.float32)), 1, 0, 2
    ),
    "select_scatter": lambda ms, np: _x(ms, np).select_scatter(ms.Tensor([9.0, 9.0]), 1, 0),
    "unsorted_segment_max": lambda ms, np: ms.Tensor([1.0, 5.0, 3.0]).unsorted_segment_max(
        ms.Tensor([0, 0, 1], ms.int32), 2
    ),
    # bookkeeping
    "stride": lambda ms, np: _x(ms, np).stride(),
    "stride_dim": lambda ms, np: _x(ms, np).stride(0),
    "stride_bad": lambda ms, np: _x(ms, np).stride(1.0),
    "storage_offset": lambda ms, np: _x(ms, np).storage_offset(),
    "is_signed": lambda ms, np: [
        ms.Tensor([1], t).is_signed() for t in (ms.float32, ms.int8, ms.uint8, ms.bool_)
    ],
    "is_pinned": lambda ms, np: _x(ms, np).is_pinned(),
    "is_shared": lambda ms, np: _x(ms, np).is_shared(),
    "is_meta": lambda ms, np: _x(ms, np).is_meta,
    "init": lambda ms, np: _x(ms, np).init,
    "const_arg": lambda ms, np: _x(ms, np).const_arg,
    "hooks": lambda ms, np: _x(ms, np).hooks(),
    "device": lambda ms, np: _x(ms, np).device,
    "get_bytes": lambda ms, np: list(ms.Tensor([1.0, 2.0]).get_bytes()),
    "move_to": lambda ms, np: _x(ms, np).move_to("CPU"),
    "requires_grad_param": lambda ms, np: _rg(ms),
    # random: shape and dtype only
    "cauchy": lambda ms, np: shape_of(_x(ms, np).cauchy()),
    "log_normal": lambda ms, np: shape_of(_x(ms, np).log_normal()),
    "random_categorical": lambda ms, np: shape_of(
        ms.Tensor(np.zeros((2, 3), np.float32)).random_categorical(2)
    ),
    "multinomial": lambda ms, np: shape_of(ms.Tensor([0.2, 0.8]).multinomial(3)),
    # last: MindSpore reports this error again at the next few calls
    "view_bad_last_dim": lambda ms, np: ms.Tensor(np.ones((2, 3), np.float32)).view(ms.float64),
}


def _rg(ms):
    w = ms.Parameter(ms.Tensor([1.0]), name="w")
    w.requires_grad_(False)
    first = w.requires_grad
    w.requires_grad_()
    return [first, w.requires_grad]


def run(ms, np, name):
    """The case's result on ``ms``; a pair runs its first form, falling back to the reference
    form only in the recorder (MindSpore's CPU build has no kernel for the first)."""
    case = CASES[name]
    if isinstance(case, tuple):
        return case[0](ms, np)
    return case(ms, np)


def encode(ms, np, result):
    """JSON-able form of a result: Tensors as dtype, shape and nested lists."""
    if isinstance(result, ms.Tensor):
        value = result.asnumpy()
        return {"dtype": str(result.dtype), "shape": list(value.shape), "value": value.tolist()}
    if isinstance(result, (tuple, list)):
        return [encode(ms, np, r) for r in result]
    if isinstance(result, (np.generic,)):
        return result.item()
    return result
