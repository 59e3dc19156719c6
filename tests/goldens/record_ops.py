"""Record MindSpore reference outputs for tests/ops (run with the oracle venv).

    /tmp/ms/bin/python tests/goldens/record_ops.py

Writes tests/goldens/ops.json: name -> list of {"value": nested list, "dtype": str}.
Only cases where MindSpore's definition may differ from NumPy's are recorded.
"""

import json
import pathlib

import mindspore as ms
import mindspore.ops as ops
import numpy as np

T = ms.Tensor
X = T(np.array([[1.0, 3.0, 3.0], [2.0, 2.0, 0.0]], np.float32))
V = T(np.array([0.5, 1.5, 2.5, -0.5, -1.5, 3.7], np.float32))
A = T(np.array([-1.5, -0.3, 0.0, 0.7, 2.0], np.float32))

CASES = {
    "max_axis1": lambda: ops.max(X, 1),
    "max_axis0_keepdims": lambda: ops.max(X, 0, True),
    "max_all": lambda: ops.max(X),
    "min_axis1": lambda: ops.min(X, 1),
    "argmax_dim1": lambda: ops.argmax(X, 1),
    "argmax_all": lambda: ops.argmax(X),
    "argmin_axis1": lambda: ops.argmin(X, 1),
    "round": lambda: ops.round(V),
    "remainder_int": lambda: ops.remainder(T([-3, 3, -7], ms.int64), T([2, -2, 3], ms.int64)),
    "floor_mod": lambda: ops.floor_mod(T([-3.0, 3.0]), T([2.0, -2.0])),
    "fmod": lambda: ops.fmod(T([-3.0, 3.0]), T([2.0, -2.0])),
    "floor_div": lambda: ops.floor_div(T([-3, 3]), T([2, 2])),
    "std_all": lambda: ops.std(X),
    "var_axis1": lambda: ops.var(X, 1),
    "var_axis1_ddof1": lambda: ops.var(X, 1, ddof=1),
    "std_mean": lambda: ops.std_mean(X),
    "cummax": lambda: ops.cummax(X, 1),
    "cummin": lambda: ops.cummin(X, 1),
    "median": lambda: ops.median(X, 1),
    "topk": lambda: ops.topk(X, 2),
    "sort": lambda: ops.sort(X),
    "sort_desc": lambda: ops.sort(X, descending=True),
    "argsort": lambda: ops.argsort(X),
    "unique": lambda: ops.unique(T([3, 1, 3, 2])),
    "count_nonzero": lambda: ops.count_nonzero(X),
    "mean_int_axis": lambda: ops.mean(X, 1, True),
    "sqrt_int": lambda: ops.sqrt(T([1, 4, 9])),
    "add_int_float": lambda: ops.add(T([1, 2]), 2.5),
    "div_int": lambda: ops.div(T([1, 2]), T([2, 2])),
    "pow_int": lambda: ops.pow(T([1, 2, 3]), 2),
    "sum_int": lambda: ops.sum(T([1, 2, 3])),
    "clamp_int_float": lambda: ops.clamp(T([1, 2, 3]), 1.5, 2.5),
    "gelu": lambda: ops.gelu(A),
    "gelu_tanh": lambda: ops.gelu(A, approximate="tanh"),
    "softplus": lambda: ops.softplus(T([1.0, 30.0, -2.0])),
    "leaky_relu": lambda: ops.leaky_relu(A),
    "hardswish": lambda: ops.hardswish(A),
    "hardsigmoid": lambda: ops.hardsigmoid(A),
    "selu": lambda: ops.selu(A),
    "celu": lambda: ops.celu(A),
    "mish": lambda: ops.mish(A),
    "softsign": lambda: ops.softsign(A),
    "logsigmoid": lambda: ops.logsigmoid(A),
    "silu": lambda: ops.silu(A),
    "relu6": lambda: ops.relu6(T([-1.0, 3.0, 7.0])),
    "hardtanh": lambda: ops.hardtanh(A),
    "softmin": lambda: ops.softmin(X, 1),
    "glu": lambda: ops.glu(T([[1.0, 2.0, -1.0, 0.5]])),
    "prelu": lambda: ops.prelu(A, T([0.25], ms.float32)),
    "split_int": lambda: ops.split(T(np.arange(5)), 2),
    "chunk": lambda: ops.chunk(T(np.arange(5)), 2),
    "batch_dot_2d": lambda: ops.batch_dot(X, X),
    "norm_fro": lambda: ops.norm(X),
    "norm_dim0": lambda: ops.norm(X, dim=0),
    "norm_ord1_vec": lambda: ops.norm(T([3.0, -4.0]), 1),
    "one_hot_int": lambda: ops.one_hot(T([0, 2]), 3, 1, 0),
    "arange_int": lambda: ops.arange(5),
    "arange_float": lambda: ops.arange(0, 1, 0.25),
    "linspace": lambda: ops.linspace(0, 1, 5),
    "logsumexp": lambda: ops.logsumexp(X, 1),
    "argmaxwithvalue": lambda: ops.ArgMaxWithValue(axis=1)(X),
    "Argmax_prim": lambda: ops.Argmax()(X),
    "gather": lambda: ops.gather(X, T([1, 0]), 1),
    "isclose": lambda: ops.isclose(T([1.0, 2.0]), T([1.0, 2.1])),
    "tensor_max_axis_kw": lambda: X.max(axis=1),
    "tensor_max_dim_pos": lambda: X.max(1),
    "tensor_std": lambda: X.std(),
}


def encode(result):
    if isinstance(result, (tuple, list)):
        return [encode(r)[0] for r in result]
    array = result.asnumpy()
    return [{"value": array.tolist(), "dtype": str(result.dtype), "shape": list(array.shape)}]


def main():
    out = {name: encode(fn()) for name, fn in CASES.items()}
    path = pathlib.Path(__file__).with_name("ops.json")
    path.write_text(json.dumps(out, indent=1, sort_keys=True))
    print(f"wrote {len(out)} cases to {path}")


if __name__ == "__main__":
    main()
