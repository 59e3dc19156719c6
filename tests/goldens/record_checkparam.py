"""Record MindSpore 2.10 _checkparam results (run with /root/ms-ref/bin/python) -> checkparam.json."""

from mindspore import _checkparam as V
import json

import mindspore as ms

# Cases: (function, args); dtype cases use mindspore dtypes, replaced by cellax ones in the test.
tests = [
    ("check_value_type", ("x", 1.0, [int], "Op")),
    ("check_value_type", ("x", True, [int], None)),
    ("check_value_type", ("x", 1, (int, float), None)),
    ("check_positive_int", (0, "k", "Op")),
    ("check_positive_int", (3,)),
    ("check_positive_int", (True, "k")),
    ("check_positive_int", (1.0, "k")),
    ("check_non_negative_int", (-1, "k", "Op")),
    ("check_positive_float", (0.0, "lr")),
    ("check_positive_float", (1, "lr")),
    ("check_non_negative_float", (-0.5, "w")),
    ("check_bool", (1, "flag", "Op")),
    ("check_bool", (True, "flag")),
    ("check_int_range", (5, 0, 3, V.INC_LEFT, "k", "Op")),
    ("check_int_range", (3, 0, 3, V.INC_BOTH, "k")),
    ("check_int_range", (3, 0, 3, V.INC_LEFT, "k")),
    ("check_int_range", (0, 0, 3, V.INC_NEITHER, "k")),
    ("check_float_range", (1.5, 0.0, 1.0, V.INC_BOTH, "p", "Op")),
    ("check_float_range", (0.5, 0.0, 1.0, V.INC_RIGHT, "p")),
    ("check_number_range", (1.5, 0.0, 1.0, V.INC_BOTH, float, "p", "Op")),
    ("check_number_range", (0.5, 0.0, 1.0, V.INC_BOTH, float, "p")),
    ("check_string", ("avg", ["max", "mean"], "mode", "Op")),
    ("check_string", ("max", ["max", "mean"], "mode")),
    ("check_int", (3, 4, V.GE, "k", "Op")),
    ("check_int", (5, 4, V.GE, "k")),
    ("check_int", (4, 4, V.EQ, "k")),
    ("check_equal_int", (3, 4, "k", "Op")),
    ("check_is_int", (1.0, "k", "Op")),
    ("check_is_float", (1, "k", "Op")),
    ("check_is_float", (1.0, "k")),
    ("check_isinstance", ("x", 1, (str,))),
    ("check_isinstance", ("x", "a", (str,))),
    ("check_positive_int_sequence", ((1, 0), "ks", "Op")),
    ("check_positive_int_sequence", ((1, 2), "ks")),
    ("twice", (3,)),
    ("twice", ((1, 2),)),
    ("triple", (2,)),
    ("once", (2,)),
    ("check", ("a", 3, "b", 4, V.EQ, "Op")),
    ("check_subclass", ("x", ms.float32, [ms.int32], "Op")),
    ("check_type_name", ("x", ms.float32, [ms.int32, ms.float16], "Op")),
    ("check_type_name", ("x", ms.float32, [ms.float32], "Op")),
    ("check_tensor_dtype_valid", ("x", ms.float32, [ms.int32], "Op")),
    ("check_float", (0.5, 1.0, V.LT, "f", "Op")),
    ("check_float", (1.5, 1.0, V.LT, "f", "Op")),
    ("check_number", ("n", 3, 4, V.GT, "Op")),
    # no name: "The input value ..." (mindspore.set_recursion_limit checks so)
    ("check_positive_int", (0,)),
    ("check_positive_int", (1.5,)),
    ("check_positive_int", (True,)),
    ("check_positive_int", ("3", None, "Op")),
    ("check_int", (2, 4, V.GE)),
]

out = []
for name, args in tests:
    try:
        r = getattr(V, name)(*args)
        out.append([name, "ok", repr(r)])
    except Exception as e:
        out.append([name, type(e).__name__, str(e)])
consts = {
    k: getattr(V, k)
    for k in "EQ NE LT LE GT GE INC_NEITHER INC_LEFT INC_RIGHT INC_BOTH IN NOT_IN".split()
}
here = __import__("os").path.dirname(__import__("os").path.abspath(__file__))
with open(here + "/checkparam.json", "w") as f:
    json.dump({"cases": out, "constants": consts}, f, indent=1)
