"""Record MindSpore 2.10's single-device Parameter attributes that trainers read (oracle venv):

    /root/ms-ref/bin/python tests/goldens/record_parameter_attrs.py

Writes tests/goldens/parameter_attrs.json: {"defaults": {attribute: value}, "set": [[attribute,
value, result]]} where result is the value read back or {"error": type name}.
"""

import json
import pathlib

import numpy as np

ATTRIBUTES = (
    "cache_enable cache_shape key comm_fusion parallel_optimizer layerwise_parallel "
    "requires_aggr sliced is_init unique init_mode parallel_optimizer_comm_recompute"
).split()

# (attribute, values to set): each set on a fresh Parameter.
SETS = [
    ("cache_enable", [True, 1, "x", None]),
    ("cache_shape", [[4, 3], (4, 3), "x", 5]),
    ("key", [3, True, "x", 1.5]),
    ("comm_fusion", [0, 2, -1, True, "x"]),
    ("parallel_optimizer", [False, 1]),
    ("layerwise_parallel", [True, 1]),
    ("parallel_optimizer_comm_recompute", [True, 1]),
    ("requires_aggr", [False, 1]),
    ("sliced", [True]),
    ("unique", [True]),
    ("is_init", [True]),
    ("init_mode", [None, 5]),
]


def fresh(ms):
    return ms.Parameter(ms.Tensor(np.ones((2, 3)), ms.float32), name="w")


def run(ms) -> dict:
    """The golden dict, computed with ``ms`` (MindSpore or cellax)."""
    param = fresh(ms)
    defaults = {name: getattr(param, name) for name in ATTRIBUTES}
    info = param.param_info
    defaults["param_info"] = {
        name: getattr(info, name)
        for name in (
            "name",
            "cache_enable",
            "cache_shape",
            "key",
            "comm_fusion",
            "requires_aggr",
            "parameter_shape",
            "layerwise_parallel",
        )
    }
    results = []
    for name, values in SETS:
        for value in values:
            param = fresh(ms)
            try:
                setattr(param, name, value)
                result = getattr(param, name)
                result = list(result) if isinstance(result, tuple) else result
            except Exception as exc:  # noqa: BLE001 - the error is the golden
                result = {"error": type(exc).__name__}
            results.append([name, list(value) if isinstance(value, tuple) else value, result])
    clone = fresh(ms)
    clone.comm_fusion, clone.cache_shape = 3, [1, 2]
    copied = clone.clone()
    defaults["clone"] = [copied.comm_fusion, list(copied.cache_shape)]
    return {"defaults": defaults, "set": results}


def main() -> None:
    import mindspore as ms

    out = run(ms)
    print(out)
    path = pathlib.Path(__file__).with_name("parameter_attrs.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
