"""The foundation golden cases: code run under MindSpore (recording) and cellax (tests).

Each case is a snippet exec'd in a namespace with ``ms``, ``np``, ``T`` (Tensor), ``P``
(Parameter), ``PT`` (ParameterTuple), ``mstype``, ``init`` (the initializer module), ``copy``
and ``pickle``; the snippet stores its result in ``out``. :func:`normalize` turns the result
into JSON that does not depend on the framework.
"""

import copy
import importlib
import math
import pickle

import numpy as np

DTYPES = [
    "bool_",
    "int8",
    "uint8",
    "int16",
    "int32",
    "int64",
    "float16",
    "bfloat16",
    "float32",
    "float64",
]
SCALARS = {"int": "2", "float": "2.5", "bool": "True"}
BINOPS = ["+", "-", "*", "/", "//", "%", "**", "<", "==", "&", "|", "^"]

_LHS = {
    "b": "[True, False, True, True, False]",
    "u": "[3, 1, 0, 2, 5]",
    "i": "[-3, -1, 0, 2, 5]",
    "f": "[-2.5, -1.0, 0.0, 1.5, 5.0]",
}
_RHS = {
    "b": "[True, True, True, True, True]",
    "u": "[2, 3, 2, 3, 2]",
    "i": "[2, 3, -2, 3, 2]",
    "f": "[2.0, 0.5, -2.0, 3.0, 1.5]",
}


def _kind(dt: str) -> str:
    return {"bool_": "b", "uint8": "u"}.get(dt, "f" if "float" in dt else "i")


def _operand(name: str, side: dict) -> str:
    if name in SCALARS:
        return SCALARS[name]
    return f"T(np.array({side[_kind(name)]}), ms.{name})"


def binop_cases():
    names = DTYPES + list(SCALARS)
    for op in BINOPS:
        for a in names:
            for b in names:
                if a in SCALARS and b in SCALARS:
                    continue
                if op in "&|^" and ("float" in a or "float" in b):
                    continue
                rhs = _operand(b, _RHS).replace("-2", "2") if op == "**" else _operand(b, _RHS)
                yield f"binop {a} {op} {b}", f"out = {_operand(a, _LHS)} {op} {rhs}"


UNARY = {
    f"unary {op} {dt}": f"out = {op}(T(np.array({_LHS[_kind(dt)]}), ms.{dt}))"
    for op in ["-", "abs", "~"]
    for dt in DTYPES
    if not (op == "~" and "float" in dt)
}

MISC_OPS = {
    "pow int negative exponent": "out = T([2, 3, 4], ms.int32) ** -1",
    "pow int tensor negative exponent": "out = T([2, 3, 4]) ** T([-1, 2, -2])",
    "pow float negative": "out = T([2.0, 4.0]) ** -1",
    "rpow int": "out = 2 ** T([1, 2, 3])",
    "rpow float": "out = 2.0 ** T([1, 2, 3])",
    "floordiv negative ints": "out = T([-7, 7, -7, 7]) // T([2, 2, -2, -2])",
    "mod negative ints": "out = T([-7, 7, -7, 7]) % T([2, 2, -2, -2])",
    "mod negative floats": "out = T([-7.5, 7.5]) % T([2.0, -2.0])",
    "floordiv floats": "out = T([-7.5, 7.5]) // 2",
    "rfloordiv": "out = 7 // T([2, -3])",
    "rmod": "out = 7 % T([2, -3])",
    "rsub int": "out = 10 - T([1, 2])",
    "rtruediv int int": "out = 1 / T([2, 4])",
    "rtruediv float int": "out = 1.0 / T([2, 4])",
    "truediv int64 int64": "out = T([1, 2]) / T([4, 4])",
    "truediv int by zero": "out = T([1, -1, 0], ms.int32) / 0",
    "truediv float by zero": "out = T([1.0, -1.0, 0.0]) / 0",
    "broadcast add": "out = T(np.arange(6).reshape(2, 3), ms.float32) + T([1.0, 2.0, 3.0])",
    "broadcast column": "out = T([[1], [2]]) * T([1, 2, 3])",
    "broadcast 3d": "out = T(np.ones((2, 1, 3)), ms.float32) - T(np.ones((4, 1)), ms.float32)",
    "broadcast mismatch": "out = T([1, 2, 3]) + T([1, 2])",
    "matmul": "out = T([[1.0, 2.0], [3.0, 4.0]]) @ T([[1.0], [1.0]])",
    "matmul int": "out = T([[1, 2], [3, 4]]) @ T([[1], [1]])",
    "lshift": "out = T([1, 2, 3], ms.int32) << 2",
    "rshift": "out = T([8, 16, -8], ms.int32) >> T([1, 2, 1], ms.int32)",
    "eq None": "out = T([1, 2]) == None",
    "ne None": "out = T([1, 2]) != None",
    "ne tensor": "out = T([1, 2]) != T([1, 3])",
    "ge scalar": "out = T([1, 2, 3]) >= 2",
    "gt float": "out = T([1.0, 2.0, 3.0]) > 1.5",
    "le rscalar": "out = 2 <= T([1, 2, 3])",
    "iadd": "x = T([1.0, 2.0]); y = x; x += 1; out = (x, y)",
    "isub int": "x = T([1, 2]); x -= 1; out = x",
    "imul": "x = T([1.0, 2.0]); x *= T([2.0, 3.0]); out = x",
    "itruediv int": "x = T([1, 2]); x /= 2; out = x",
    "int plus big int": "out = T([1, 2], ms.int32) + 2**40",
    "uint8 overflow": "out = T([250], ms.uint8) + T([10], ms.uint8)",
    "neg bool": "out = -T([True, False])",
}

CONSTRUCT = {
    "ctor int": "out = T(1)",
    "ctor float": "out = T(1.5)",
    "ctor bool": "out = T(True)",
    "ctor complex": "out = T(1 + 2j)",
    "ctor int list": "out = T([1, 2, 3])",
    "ctor mixed list": "out = T([1, 2.5])",
    "ctor bool list": "out = T([True, False])",
    "ctor bool int list": "out = T([True, 2])",
    "ctor nested": "out = T([[1, 2], [3, 4]])",
    "ctor tuple": "out = T((1, 2))",
    "ctor np float64": "out = T(np.array([1.5, 2.5]))",
    "ctor np float32": "out = T(np.array([1.5, 2.5], np.float32))",
    "ctor np int32": "out = T(np.array([1, 2], np.int32))",
    "ctor np int64": "out = T(np.array([1, 2]))",
    "ctor np uint16": "out = T(np.array([1, 2], np.uint16))",
    "ctor np bool": "out = T(np.array([True, False]))",
    "ctor np float16": "out = T(np.array([1.5], np.float16))",
    "ctor np scalar float64": "out = T(np.float64(1.5))",
    "ctor np scalar int32": "out = T(np.int32(3))",
    "ctor np scalar float32": "out = T(np.float32(1.25))",
    "ctor np 0d": "out = T(np.array(2.5))",
    "ctor list of np float64": "out = T([np.float64(1.5), np.float64(2.0)])",
    "ctor dtype float32": "out = T([1, 2], ms.float32)",
    "ctor dtype kw": "out = T([1, 2], dtype=ms.float16)",
    "ctor float to int32": "out = T([1.7, -1.7, 2.5], ms.int32)",
    "ctor to bool": "out = T([0, 1, 2], ms.bool_)",
    "ctor int to uint8 wrap": "out = T([300, -1], ms.uint8)",
    "ctor big int": "out = T(2**40)",
    "ctor too big int": "out = T(2**70)",
    "ctor tensor": "out = T(T([1, 2]))",
    "ctor tensor dtype": "out = T(T([1, 2]), ms.float32)",
    "ctor tensor list": "out = T([T(1), T(2)])",
    "ctor empty list": "out = T([])",
    "ctor empty nested": "out = T([[], []])",
    "ctor np empty": "out = T(np.zeros((0, 3), np.float32))",
    "ctor ragged": "out = T([[1, 2], [3]])",
    "ctor string": "out = T('abc')",
    "ctor none": "out = T(None)",
    "ctor dict": "out = T({'a': 1})",
    "ctor bad dtype": "out = T([1, 2], 'float32')",
    "ctor np dtype": "out = T([1, 2], np.float32)",
    "ctor shape placeholder": "out = T(shape=[3, None], dtype=ms.float32)",
    "ctor shape placeholder -1": "out = T(shape=[3, -1], dtype=ms.float32)",
    "ctor shape placeholder shape": "out = T(shape=[3, None], dtype=ms.float32).shape",
    "ctor shape placeholder ndim": "out = T(shape=[3, None], dtype=ms.float32).ndim",
    "ctor shape zeros": "out = T(shape=[2, 3], dtype=ms.int64)",
    "ctor shape and data": "out = T([1, 2], shape=[2])",
    "ctor init One": "out = T(shape=[2, 3], dtype=ms.float32, init=init.One()).asnumpy()",
    "ctor init no dtype": "out = T(shape=[2, 3], init=init.One())",
}

ATTRS = {
    "attr shape": "out = T(np.zeros((2, 3)), ms.float32).shape",
    "attr shape 0d": "out = T(1).shape",
    "attr ndim": "out = T(np.zeros((2, 3, 4)), ms.float32).ndim",
    "attr size": "out = T(np.zeros((2, 3)), ms.float32).size",
    "attr size 0d": "out = T(1.0).size",
    "attr dtype str": "out = str(T([1.0]).dtype)",
    "attr itemsize": "out = T([1.0], ms.float16).itemsize",
    "attr nbytes": "out = T([1.0, 2.0], ms.float64).nbytes",
    "attr T": "out = T(np.arange(6).reshape(2, 3), ms.float32).T",
    "attr T 3d": "out = T(np.arange(24).reshape(2, 3, 4), ms.int32).T.shape",
    "astype": "out = T([1.7, -1.2]).astype(ms.int32)",
    "astype bool": "out = T([0.0, 2.0]).astype(ms.bool_)",
    "astype float16": "out = T([1, 2]).astype(ms.float16)",
    "astype str": "out = T([1, 2]).astype('float32')",
    "astype np": "out = T([1, 2]).astype(np.float32)",
    "astype bad": "out = T([1, 2]).astype('floatxx')",
    "asnumpy": "out = T([1.0, 2.0]).asnumpy()",
    "asnumpy bool": "out = T([True]).asnumpy()",
    "asnumpy writable": "a = T([1.0, 2.0]); n = a.asnumpy(); n[0] = 5; out = (n, a)",
    "copy": "a = T([1.0, 2.0]); b = a.copy(); out = (b, b is a)",
    "item float": "out = T([2.5]).item()",
    "item int": "out = T([[3]]).item()",
    "item bool": "out = T(True).item()",
    "item many": "out = T([1, 2]).item()",
    "item index": "out = T([[1, 2], [3, 4]]).item((1, 0))",
    "item type": "out = type(T(2.5).item()).__name__",
    "tolist": "out = T([[1, 2], [3, 4]]).tolist()",
    "tolist float": "out = T([1.5, 2.0]).tolist()",
    "tolist 0d": "out = T(3).tolist()",
    "len": "out = len(T([[1, 2], [3, 4], [5, 6]]))",
    "len 0d": "out = len(T(1))",
    "iter": "out = list(T([[1, 2], [3, 4]]))",
    "iter 0d": "out = list(T(1))",
    "bool one": "out = bool(T([2]))",
    "bool zero": "out = bool(T(0.0))",
    "bool many": "out = bool(T([1, 2]))",
    "bool empty": "out = bool(T(np.zeros((0,), np.float32)))",
    "int": "out = int(T(2.7))",
    "int many": "out = int(T([1, 2]))",
    "float": "out = float(T([3]))",
    "index": "out = [10, 20, 30][T(1)]",
    "index int32": "out = [10, 20, 30][T(2, ms.int32)]",
    "index float": "out = [10, 20, 30][T(1.0)]",
    "format": "out = f'{T(2.5):.3f}'",
    "format 1elem": "out = f'{T([2.5]):.2f}'",
    "format empty spec": "out = f'{T([1.5, 2.5])}'",
    "format many spec": "out = f'{T([1.5, 2.5]):.2f}'",
    "array": "out = np.array(T([1, 2]))",
    "array dtype": "out = np.asarray(T([1, 2]), np.float32)",
    "np add": "out = np.add(np.ones(2), T([1.0, 2.0]).asnumpy())",
}

INDEX = {
    "idx int": "out = X[0]",
    "idx neg": "out = X[-1, 1]",
    "idx slice": "out = X[:, 1:3]",
    "idx step": "out = X[1:, ::2, -1]",
    "idx ellipsis": "out = X[..., 0]",
    "idx none": "out = X[None, 0]",
    "idx none many": "out = X[0, None, :, None]",
    "idx mask": "out = X[X > 10]",
    "idx mask row": "out = X[T([True, False])]",
    "idx list": "out = X[[1, 0]]",
    "idx tensor": "out = X[T([1, 0])]",
    "idx tensor pair": "out = X[T([0, 1]), T([2, 1])]",
    "idx tensor 0d": "out = X[T(1)]",
    "idx bool list": "out = X[:, [True, False, True]]",
    "idx out of range": "out = X[5]",
    "idx too many": "out = X[0, 0, 0, 0]",
    "idx float": "out = X[1.5]",
    "idx scalar elem": "out = X[1, 2, 3]",
    "idx empty slice": "out = X[:, 3:]",
}
for _k in list(INDEX):
    INDEX[_k] = "X = T(np.arange(24).reshape(2, 3, 4), ms.float32); " + INDEX[_k]

SETITEM = {
    "set int": "x[0] = 1.0",
    "set scalar elem": "x[1, 2] = -5",
    "set slice": "x[:, 1:3] = 7",
    "set row tensor": "x[0] = T([9.0, 8.0, 7.0])",
    "set broadcast": "x[:, 0] = T([1.0])",
    "set mask": "x[x > 2] = 0",
    "set mask tensor": "x[x > 2] = T(-1.0)",
    "set tensor index": "x[T([0, 1]), T([1, 2])] = 3",
    "set ellipsis": "x[...] = 4",
    "set none": "x[None] = 2",
    "set list": "x[[0, 1], 0] = T([10.0, 20.0])",
    "set int into float dtype": "x[0, 0] = T(5, ms.int64)",
    "set float into int": "x = T([1, 2, 3]); x[0] = 2.7",
    "set bad shape": "x[0] = T([1.0, 2.0])",
    "set out of range": "x[5] = 1",
    "set keeps identity": "y = x; x[0, 0] = 100; x = y",
}
for _k in list(SETITEM):
    SETITEM[_k] = "x = T(np.arange(6).reshape(2, 3), ms.float32); " + SETITEM[_k] + "; out = x"

_SHAPES_F32 = [
    (),
    (1,),
    (3,),
    (6,),
    (7,),
    (12,),
    (13,),
    (25,),
    (1000,),
    (1001,),
    (1, 6),
    (1, 7),
    (1, 10),
    (2, 3),
    (6, 2),
    (7, 2),
    (7, 7),
    (2, 2, 2),
    (3, 3, 3),
    (7, 1, 1),
    (2, 2, 2, 2),
    (1, 2, 2, 2),
    (8, 8, 8),
    (2, 7, 8),
    (0,),
    (2, 0),
    (0, 3),
]
REPR = {}
for _s in _SHAPES_F32:
    REPR[f"repr f32 {_s}"] = (
        f"out = T((np.arange({int(np.prod(_s))}) * 0.37 - 3).reshape({_s}), ms.float32)"
    )
for _dt in DTYPES + ["int16", "uint16", "uint32", "uint64", "complex64"]:
    for _s in [(), (4,), (30,), (2, 3), (1, 8), (8, 2), (1001,)]:
        REPR[f"repr {_dt} {_s}"] = (
            f"out = T((np.arange({int(np.prod(_s))}) * 7 % 23 - 9).reshape({_s}), ms.{_dt})"
        )
REPR.update(
    {
        "repr f32 values": "out = T([0.1, 1e-5, 123456789.0, -2.5, 1e20, 3.14159265])",
        "repr f32 special": "out = T([float('nan'), float('inf'), -float('inf'), -0.0, 1e-40])",
        "repr f16 special": "out = T([0.1, float('nan'), float('inf'), -0.0, 1e-8, 65504], ms.float16)",
        "repr f64 values": "out = T(np.array([0.1, 1e-300, 1e300, np.pi]))",
        "repr bf16 values": "out = T([0.1, 1.5, 2.75, -3.3, 100.2, 1e-3], ms.bfloat16)",
        "repr bf16 2d": "out = T([[0.1, 1.5, 2.75], [-3.3, 100.2, 1e-3]], ms.bfloat16)",
        "repr bf16 long": "out = T(np.arange(30) * 1.5, ms.bfloat16)",
        "repr int widths": "out = T(np.array([[1, 2], [300, 4]], np.int32))",
        "repr int elided width": "out = T(np.array([1, 2, 3, 100000, 5, 6, 7], np.int32).reshape(1, 7))",
        "repr int negative": "out = T([[-1, 20], [3, -400]])",
        "repr uint8 255": "out = T([255, 0, 1], ms.uint8)",
        "repr bool all true": "out = T([[True, True]])",
        "repr bool summarized": "out = T(np.arange(56).reshape(8, 7) > 3)",
        "repr complex": "out = T(np.array([1 + 2j, -0.5j, 3]), ms.complex64)",
        "repr tuple": "out = (T(1.0), T([1, 2]))",
        "repr list": "out = [T(2.0)]",
        "repr f32 scalars": "out = [T(v) for v in (0.1, 1e-5, 123456789.0, 1.0, -0.0, 3.14159265, 1e20)]",
        "repr f16 scalars": "out = [T(v, ms.float16) for v in (0.1, 1.0, -2.5, 3.14159)]",
        "repr f64 scalars": "out = [T(v, ms.float64) for v in (0.1, 1.0, 3.14159265358979, 1e-300)]",
        "repr bf16 scalars": "out = [T(v, ms.bfloat16) for v in (0.1, 1.0, -2.5, 1e20)]",
        "repr placeholder 1d": "out = T(shape=[None], dtype=ms.int64)",
        "repr threshold output": "out = T([20.0, 0.2, 0.3], ms.float32)",
        "repr seed 004 logits": "out = T(np.linspace(-0.005, 0.006, 10).reshape(1, 10), ms.float32)",
        "repr seed 001 grad": "out = T(np.full((1, 2, 1, 1), 0.999995), ms.float32)",
        "str f32 long": "out = str(T(np.arange(2000) * 0.5, ms.float32))",
        "str bf16 long": "out = str(T(np.arange(40) * 1.5, ms.bfloat16))",
        "str bf16 2d": "out = str(T([[0.1, 1.5, 2.75], [-3.3, 100.2, 1e-3]], ms.bfloat16))",
        "str bf16 0d": "out = str(T(1.5, ms.bfloat16))",
        "str f16": "out = str(T([0.1, 3.14159], ms.float16))",
        "str 0d float": "out = str(T(123456789.0))",
        "str 0d bool": "out = str(T(True))",
        "str int": "out = str(T([[1, 200], [3, 4]]))",
        "str print 2d": "out = str(T(np.array([[1.5, 2.0], [3.0, 4.0]]), ms.float32))",
        "str empty": "out = str(T(np.zeros((2, 0)), ms.float32))",
    }
)

DTYPE = {
    "dtype str float32": "out = str(ms.float32)",
    "dtype repr float32": "out = repr(ms.float32)",
    "dtype names": "out = [str(getattr(ms, n)) for n in "
    + repr(
        DTYPES
        + [
            "uint16",
            "uint32",
            "uint64",
            "complex64",
            "complex128",
            "float_",
            "int_",
            "half",
            "single",
            "double",
        ]
    )
    + "]",
    "dtype reprs": "out = [repr(getattr(ms, n)) for n in " + repr(DTYPES) + "]",
    "dtype module": "out = ms.dtype.float32 == ms.float32",
    "mstype module": "out = mstype.int64 is ms.int64",
    "dtype eq": "out = (ms.float32 == ms.float32, ms.float32 == ms.float16, ms.float32 != ms.int32)",
    "dtype eq str": "out = ms.float32 == 'float32'",
    "dtype eq np": "out = ms.float32 == np.float32",
    "dtype hashable": "out = len({ms.float32, ms.float32, ms.int32})",
    "dtype_to_nptype": "out = [mstype.dtype_to_nptype(getattr(ms, n)).__name__ for n in "
    + repr([d for d in DTYPES if d != "bfloat16"])
    + "]",
    "dtype_to_pytype": "out = [mstype.dtype_to_pytype(getattr(ms, n)).__name__ for n in "
    "['bool_', 'int32', 'float16', 'float64', 'uint8']]",
    "pytype_to_dtype": "out = [str(mstype.pytype_to_dtype(t)) for t in (int, float, bool)]",
    "pytype_to_dtype np": "out = str(mstype.pytype_to_dtype(np.float64))",
    "pytype_to_dtype bad": "out = mstype.pytype_to_dtype('abc')",
    "get_py_obj_dtype": "out = [str(mstype.get_py_obj_dtype(v)) for v in "
    "(1, 2.0, True, T([1.0], ms.float16))]",
    "dtype in tuple": "out = ms.float32 in (ms.float16, ms.float32)",
    "tensor dtype eq": "out = T([1.0]).dtype == ms.float32",
    "tensor dtype type": "out = type(T([1.0]).dtype) == type(ms.float32)",
    "dtype pickle": "out = pickle.loads(pickle.dumps(ms.float16)) == ms.float16",
    "dtype in list print": "out = str([ms.float32, ms.int8])",
}

PARAM = {
    "param repr": "out = repr(P(T(np.ones((5, 3)), ms.float32), name='w'))",
    "param str": "out = str(P(T(np.ones((5, 3)), ms.float32), name='w'))",
    "param format": "out = f'{P(T([1.0]), name=\"w\")}'",
    "param list": "out = str([P(T([1.0]), name='w')])",
    "param default name": "out = P(T([1.0])).name.startswith('Parameter')",
    "param from float": "out = P(1.0, name='a')",
    "param from int": "out = P(1, name='a')",
    "param from bool": "out = P(True, name='a')",
    "param from np float64 scalar": "out = P(np.float64(1.5), name='a')",
    "param from ndarray": "out = P(np.ones(3), name='a')",
    "param from list": "out = P([1, 2], name='a')",
    "param from none": "out = P(None)",
    "param name int": "out = P(T([1.0]), name=3)",
    "param requires_grad int": "out = P(T([1.0]), requires_grad=1)",
    "param requires_grad set": "p = P(T([1.0]), name='a'); p.requires_grad = False; out = p",
    "param requires_grad set bad": "p = P(T([1.0]), name='a'); p.requires_grad = 'no'",
    "param name set": "p = P(T([1.0]), name='a'); p.name = 'b'; out = p",
    "param attrs": "p = P(T([1.0]), name='a'); out = (p.requires_grad, p.layerwise_parallel, "
    "p.parallel_optimizer)",
    "param data": "p = P(T([1.0, 2.0]), name='a'); out = p.data",
    "param value": "p = P(T([1.0, 2.0]), name='a'); out = p.value()",
    "param asnumpy": "out = P(T([1.0, 2.0]), name='a').asnumpy()",
    "param is tensor": "out = isinstance(P(T([1.0])), T)",
    "param add": "p = P(T([1.0, 2.0]), name='a'); out = p + 1",
    "param getitem": "p = P(T([[1.0, 2.0]]), name='a'); out = p[0]",
    "param setitem": "p = P(T([1.0, 2.0]), name='a'); p[0] = 5.0; out = (p, p.asnumpy())",
    "param set_data": "p = P(T([1.0, 2.0]), name='a'); r = p.set_data(T([3.0, 4.0])); "
    "out = (r is p, p, p.asnumpy())",
    "param set_data shape": "p = P(T(np.ones((5, 3)), ms.float32), name='w'); "
    "p.set_data(T(np.ones((3, 5)), ms.float32)); out = (p, p.asnumpy())",
    "param set_data slice_shape": "p = P(T(np.ones((5, 3)), ms.float32), name='w'); "
    "p.set_data(T(np.ones((2, 3)), ms.float32), slice_shape=True); "
    "out = p",
    "param set_data cast": "p = P(T([1.0, 2.0]), name='a'); p.set_data(T([3, 4], ms.int64)); "
    "out = (p, p.asnumpy())",
    "param set_data int param float": "p = P(T([1, 2], ms.int32), name='a'); "
    "p.set_data(T([1.5, 2.5])); out = (p, p.asnumpy())",
    "param set_data int param py float": "p = P(T([1, 2], ms.int32), name='a'); p.set_data(1.5)",
    "param set_data py float": "p = P(T([1.0, 2.0]), name='a'); p.set_data(3.0); "
    "out = (p, p.asnumpy())",
    "param set_data py int": "p = P(T([1.0, 2.0]), name='a'); p.set_data(3); out = (p, p.asnumpy())",
    "param set_data ndarray": "p = P(T([1.0, 2.0]), name='a'); p.set_data(np.ones(2))",
    "param set_data list": "p = P(T([1.0, 2.0]), name='a'); p.set_data([1.0, 2.0])",
    "param set_data seed": "p = P(T(np.ones(3), ms.float32), name='b'); "
    "p.set_data(T([3, 4, 5])); out = p.asnumpy()",
    "param clone": "p = P(T([1.0, 2.0]), name='a', requires_grad=False); c = p.clone(); "
    "out = (c, c is p, c.asnumpy())",
    "param clone zeros": "p = P(T([1.0, 2.0]), name='a'); out = p.clone('zeros').asnumpy()",
    "param clone independent": "p = P(T([1.0, 2.0]), name='a'); c = p.clone(); c[0] = 9.0; "
    "out = (p.asnumpy(), c.asnumpy())",
    "param init_data": "p = P(T([1.0, 2.0]), name='a'); out = p.init_data() is p",
    "param copy": "p = P(T([1.0, 2.0]), name='a'); c = copy.copy(p); out = (c, type(c).__name__)",
    "param deepcopy": "p = P(T([1.0, 2.0]), name='a'); c = copy.deepcopy(p); c[0] = 7.0; "
    "out = (c, p.asnumpy(), c.asnumpy(), type(c).__name__)",
    "param pickle": "p = P(T([1.0, 2.0]), name='a', requires_grad=False); "
    "c = pickle.loads(pickle.dumps(p)); out = (c, c.asnumpy())",
    "param initializer": "out = P(init.initializer('ones', [1, 2, 3], ms.float32), name='y')",
    "param type data": "out = type(P(T([1.0])).data).__name__",
    "ptuple": "x = P(T([1, 2]), name='x'); y = P(T([1.0]), name='y'); out = PT((x, y))",
    "ptuple dup": "x = P(T([1, 2]), name='x'); y = P(T([1, 2]), name='x'); out = PT((x, y))",
    "ptuple same": "x = P(T([1, 2]), name='x'); out = PT((x, x))",
    "ptuple not param": "x = P(T([1, 2]), name='x'); out = PT((x, 1))",
    "ptuple list": "x = P(T([1, 2]), name='x'); out = PT([x])",
    "ptuple gen": "out = PT(P(T([float(i)]), name=f'p{i}') for i in range(2))",
    "ptuple clone": "x = P(T([1, 2]), name='x'); y = P(2.0, name='z'); out = PT((x, y)).clone('c')",
    "ptuple clone zeros": "x = P(T([1, 2]), name='x'); out = PT((x,)).clone('c', 'zeros')[0]"
    ".asnumpy()",
    "ptuple clone bad prefix": "x = P(T([1, 2]), name='x'); out = PT((x,)).clone(1)",
    "ptuple add": "x = P(T([1, 2]), name='x'); y = P(T([1.0]), name='y'); "
    "out = type(PT((x,)) + PT((y,))).__name__",
    "ptuple is tuple": "out = isinstance(PT(()), tuple)",
    "ptuple seed 001": (
        "x = P(default_input=T(np.arange(2 * 3).reshape((2, 3))), name='x'); "
        "y = P(default_input=init.initializer('ones', [1, 2, 3], ms.float32), name='y'); "
        "z = P(default_input=2.0, name='z'); params = PT((x, y, z)); "
        "out = (str(params), str(params.clone('params_copy')))"
    ),
}

INIT_NAMES = [
    "normal",
    "Normal",
    "uniform",
    "ones",
    "one",
    "zeros",
    "zero",
    "xavier_uniform",
    "xavieruniform",
    "xavier_normal",
    "xaviernormal",
    "he_uniform",
    "heuniform",
    "he_normal",
    "henormal",
    "truncatedNormal",
    "truncatednormal",
    "truncated_normal",
    "identity",
    "orthogonal",
    "dirac",
    "variancescaling",
    "variance_scaling",
    "sparse",
    "constant",
    "eye",
    "foo",
]
INIT = {
    f"init name {n}": f"t = init.initializer('{n}', [4, 6], ms.float32); "
    f"out = (t.shape, str(t.dtype))"
    for n in INIT_NAMES
}
INIT.update(
    {
        "init dirac": "out = init.initializer('dirac', [2, 2, 3], ms.float32).asnumpy()",
        "init identity": "out = init.initializer('identity', [2, 3], ms.int32).asnumpy()",
        "init ones int": "out = init.initializer('ones', [2], ms.int32)",
        "init zeros default dtype": "out = init.initializer('zeros', [2])",
        "init number": "out = init.initializer(3, [2, 2], ms.float32)",
        "init float number": "out = init.initializer(0.5, (2,), ms.float16)",
        "init bool": "out = init.initializer(True, (2,), ms.float32)",
        "init int shape": "out = init.initializer('ones', 3, ms.float32)",
        "init no shape": "out = init.initializer('ones')",
        "init Constant": "out = init.initializer(init.Constant(2), [2, 2], ms.float32)",
        "init One class": "out = init.initializer(init.One(), [1, 2, 3], ms.float32)",
        "init tensor": "out = init.initializer(T([1, 2]), [2], ms.float32)",
        "init tensor shape int": "out = init.initializer(T([1, 2]), 2)",
        "init tensor wrong shape": "out = init.initializer(T(np.ones((2, 2)), ms.float32), [3, 3])",
        "init ndarray": "out = init.initializer(np.ones((2,)), [2], ms.float32)",
        "init object": "out = init.initializer(object(), [2], ms.float32)",
        "init zero dim": "out = init.initializer('ones', [0, 2], ms.float32)",
        "init negative dim": "out = init.initializer('ones', [-1, 2], ms.float32)",
        "init float dim": "out = init.initializer('ones', [1.5, 2], ms.float32)",
        "init str shape": "out = init.initializer('ones', 'ab', ms.float32)",
        "init xavier 1d": "out = init.initializer('xavier_uniform', [5], ms.float32)",
        "init he 1d": "out = init.initializer('he_normal', [5], ms.float32)",
        "init orthogonal 1d": "out = init.initializer('orthogonal', [5], ms.float32)",
        "init identity 3d": "out = init.initializer('identity', [2, 2, 2], ms.float32)",
        "init dirac 2d": "out = init.initializer('dirac', [2, 2], ms.float32)",
        "init sparse 3d": "out = init.initializer(init.Sparse(0.5), [2, 2, 2], ms.float32)",
        "init he bad mode": "out = init.HeUniform(mode='fan_x')",
        "init orthogonal": "a = init.initializer('orthogonal', [4, 4], ms.float32).asnumpy(); "
        "out = bool(np.allclose(a @ a.T, np.eye(4), atol=1e-5))",
        "init sparse": "a = init.initializer(init.Sparse(0.5, 1.0), [4, 6], ms.float32).asnumpy(); "
        "out = [int((a[:, j] == 0).sum()) for j in range(6)]",
    }
)

CONTEXT = {
    "ctx modes": "out = (ms.GRAPH_MODE, ms.PYNATIVE_MODE)",
    "ctx default mode": "out = ms.get_context('mode')",
    "ctx set mode": "ms.set_context(mode=ms.GRAPH_MODE); m = ms.get_context('mode'); "
    "ms.set_context(mode=ms.PYNATIVE_MODE); out = m",
    "ctx bad mode": "ms.set_context(mode=5)",
    "ctx unknown key": "ms.set_context(foo_bar=1)",
    "ctx get unknown": "out = ms.get_context('foo_bar')",
    "ctx device_id": "out = ms.get_context('device_id')",
    "ctx bad device": "ms.set_context(device_target='XPU')",
    "seed": "ms.set_seed(3); out = ms.get_seed()",
    "seed negative": "ms.set_seed(-1)",
    "seed float": "ms.set_seed(1.5)",
    "seed big": "ms.set_seed(2**32)",
}

GROUPS = {
    "binop": None,
    "unary": UNARY,
    "ops": MISC_OPS,
    "construct": CONSTRUCT,
    "attrs": ATTRS,
    "index": INDEX,
    "setitem": SETITEM,
    "repr": REPR,
    "dtype": DTYPE,
    "param": PARAM,
    "init": INIT,
    "context": CONTEXT,
}


def all_cases():
    yield from binop_cases()
    for name, group in GROUPS.items():
        if group is not None:
            yield from group.items()


def make_namespace(ms, root: str) -> dict:
    return {
        "ms": ms,
        "np": np,
        "T": ms.Tensor,
        "P": ms.Parameter,
        "PT": ms.ParameterTuple,
        "mstype": importlib.import_module(f"{root}.common.dtype"),
        "init": importlib.import_module(f"{root}.common.initializer"),
        "copy": copy,
        "pickle": pickle,
    }


def _num(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
    if isinstance(v, complex):
        return [_num(v.real), _num(v.imag)]
    return v


def _values(array: np.ndarray):
    if array.dtype.kind not in "biufc":
        array = array.astype(np.float64)  # bfloat16
    flat = [_num(v) for v in array.reshape(-1).tolist()]
    return flat


def normalize(obj, ms):
    """A JSON description of a result that is equal for equal behaviour in both frameworks."""
    if isinstance(obj, ms.Parameter):
        return {"parameter": str(obj), "value": normalize(ms.Tensor(obj.asnumpy()), ms)}
    if isinstance(obj, ms.Tensor):
        if obj.shape and any(d < 0 for d in obj.shape):
            return {"tensor": str(obj.dtype), "shape": list(obj.shape), "repr": repr(obj)}
        array = obj.asnumpy()
        return {
            "tensor": str(obj.dtype),
            "shape": list(obj.shape),
            "values": _values(array),
            "repr": repr(obj),
            "str": str(obj),
        }
    if isinstance(obj, np.ndarray):
        return {"ndarray": str(obj.dtype), "shape": list(obj.shape), "values": _values(obj)}
    if isinstance(obj, (tuple, list)) and type(obj) in (tuple, list):
        return {type(obj).__name__: [normalize(v, ms) for v in obj]}
    if isinstance(obj, (bool, int, str)) or obj is None:
        return {"py": obj, "type": type(obj).__name__}
    if isinstance(obj, float):
        return {"py": _num(obj), "type": "float"}
    return {"other": str(obj), "type": type(obj).__name__}


def run_case(code: str, base: dict, ms):
    namespace = dict(base)
    try:
        exec(code, namespace)
        if "out" not in namespace:
            return {"py": None, "type": "NoneType"}
        return normalize(namespace["out"], ms)
    except Exception as error:  # noqa: BLE001
        message = str(error).split("\n")[0][:300]
        backend = any(
            s in str(error)
            for s in ("Select CPU operator", "Unsupported data type", "Unsupported tensor type")
        )
        return {"error": type(error).__name__, "msg": message, "backend": backend}


def _close(a, b, rtol: float) -> bool:
    if isinstance(a, list) or isinstance(b, list):
        return (
            isinstance(a, list)
            and isinstance(b, list)
            and len(a) == len(b)
            and all(_close(x, y, rtol) for x, y in zip(a, b))
        )
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    return math.isclose(a, b, rel_tol=rtol, abs_tol=rtol)


def compare(expected, actual, rtol: float = 1e-6, path: str = "") -> list:
    """Differences between two normalized results (empty when they agree)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        if "error" in expected or "error" in actual:
            if expected.get("error") != actual.get("error"):
                return [f"{path}: expected {expected}, got {actual}"]
            return []
        diffs = []
        keys = set(expected) | set(actual)
        for key in sorted(keys):
            if key in ("msg", "backend") or key not in expected:  # the golden says what to check
                continue
            if key not in expected or key not in actual:
                diffs.append(
                    f"{path}.{key}: missing ({expected.get(key)!r} vs {actual.get(key)!r})"
                )
                continue
            tol = rtol
            if key == "values" and expected.get("tensor") in ("Float16", "BFloat16"):
                tol = 1e-2
            diffs += compare(expected[key], actual[key], tol, f"{path}.{key}")
        return diffs
    if isinstance(expected, list) and isinstance(actual, list) and path.endswith("values"):
        return [] if _close(expected, actual, rtol) else [f"{path}: {expected} != {actual}"]
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return [f"{path}: length {len(expected)} != {len(actual)}"]
        diffs = []
        for i, (e, a) in enumerate(zip(expected, actual)):
            diffs += compare(e, a, rtol, f"{path}[{i}]")
        return diffs
    if isinstance(expected, float) or isinstance(actual, float):
        return [] if _close(expected, actual, rtol) else [f"{path}: {expected!r} != {actual!r}"]
    return [] if expected == actual else [f"{path}: {expected!r} != {actual!r}"]


# -- used by the tests ----------------------------------------------------------------------
# Behaviour where cellax deliberately differs from MindSpore 2.10 (documented in docs/tensor.md).
KNOWN_DIFFERENCES = {
    "asnumpy writable": "asnumpy() returns a copy: JAX arrays are immutable",
    "ctor bad dtype": "Tensor(dtype=...) also accepts dtype names",
    "ctor np dtype": "Tensor(dtype=...) also accepts NumPy dtypes",
    "dtype eq np": "cellax dtypes compare equal to their NumPy dtype",
    "dtype eq str": "cellax dtypes compare equal to their name",
    "dtype names": "ms.float_ / ms.int_ are Float32 / Int64, not the generic Float / Int",
    "dtype repr float32": "repr names the package the user imported: cellax.float32",
    "dtype reprs": "repr names the package the user imported: cellax.float32",
    "dtype in list print": "repr names the package the user imported: [cellax.float32, ...]",
    "dtype_to_nptype": "numpy 2 names numpy.bool_ 'bool'",
    "format": "f'{t:.3f}' formats a one-element Tensor",
    "format 1elem": "f'{t:.3f}' formats a one-element Tensor",
    "format many spec": "a format spec on a many-element Tensor raises ValueError",
    "get_py_obj_dtype": "a Tensor gives its element dtype, not Tensor[...]",
    "init he bad mode": "bad HeUniform mode is rejected at construction, not at generation",
    "init name dirac": "initializers run eagerly, so Dirac's shape check fires at once",
    "init no shape": "a clear ValueError instead of MindSpore's AttributeError",
    "item index": "Tensor.item(index) accepts NumPy's index argument",
}


def load(path: str | None = None) -> dict:
    import json
    import os

    path = path or os.path.join(os.path.dirname(os.path.abspath(__file__)), "foundation.json")
    with open(path) as f:
        return json.load(f)["cases"]


def selected(cases: dict, keys) -> list:
    """``[(key, case)]`` for the given keys, known differences and backend gaps left out."""
    out = []
    for key in keys:
        case = cases[key]
        if key in KNOWN_DIFFERENCES or case["result"].get("backend"):
            continue
        out.append((key, case))
    return out


def check(case: dict, ms, base: dict) -> None:
    actual = run_case(case["code"], base, ms)
    diffs = compare(case["result"], actual)
    assert not diffs, "\n".join([case["code"]] + diffs[:5])
