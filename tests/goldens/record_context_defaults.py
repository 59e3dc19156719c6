"""Record MindSpore 2.10's get_context values -> context_defaults.json.

Run from /tmp with MindSpore's interpreter (``/root/ms-ref/bin/python``): it never imports
cellax. ``defaults``: ``get_context(key)`` on a fresh process for every key of MindSpore's
context table (the public members of ``ms_ctx_param`` and the attributes of its ``_Context``
object), and for the further keys ``set_context`` takes (``get_context`` rejects those).
``round_trips``: ``get_context`` after one ``set_context`` call, each in a fresh process.
"""

import json
import os
import subprocess
import sys
import warnings

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "context_defaults.json")

# keys set_context accepts (or accepted) besides the table's; get_context may reject them
SET_ONLY = [
    "affinity_cpu_list",
    "auto_tune_mode",
    "enable_auto_mixed_precision",
    "enable_sparse",
    "grad_for_scalar",
    "load_compile_cache",
    "memory_offload",
    "precompile_only",
    "recompute",
    "save_compile_cache",
]

ROUND_TRIPS = [
    ("save_graphs", True),
    ("save_graphs", False),
    ("save_graphs", 2),
    ("memory_optimize_level", "O1"),
    ("jit_config", {"jit_level": "O1"}),
    ("jit_config", {"jit_level": "O0", "infer_boost": "on"}),
    ("jit_level", "O2"),
    ("deterministic", "ON"),
    ("device_id", 1),
    ("max_call_depth", 2000),
    ("enable_compile_cache", True),
    ("jit_syntax_level", 0),
    ("debug_level", 1),
    ("runtime_num_threads", 4),
    ("mode", 0),
]


def _outcome(fn):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = fn()
    except Exception as error:  # noqa: BLE001 - the outcome is what gets recorded
        return {"error": type(error).__name__, "message": str(error)}
    return {"value": value, "type": type(value).__name__}


def _table_keys(ms):
    from mindspore import context

    keys = {k for k in context.ms_ctx_param.__members__ if not k.startswith("_")}
    ctx = context._context()
    for name in dir(ctx):
        if name.startswith("_") or name == "setters":
            continue
        if not callable(getattr(ctx, name)):
            keys.add(name)
    return sorted(keys)


def _defaults():
    import mindspore as ms

    table = _table_keys(ms)
    return {
        "table": table,
        "values": {k: _outcome(lambda k=k: ms.get_context(k)) for k in table + SET_ONLY},
    }


def _round_trip(index):
    import mindspore as ms

    key, value = ROUND_TRIPS[index]
    ms.set_context(**{key: value})
    reads = [key] + (["jit_level", "infer_boost"] if key == "jit_config" else [])
    return {k: _outcome(lambda k=k: ms.get_context(k)) for k in reads}


def _child(what):
    result = subprocess.run(
        [sys.executable, os.path.abspath(__file__), what],
        capture_output=True,
        text=True,
        check=True,
        cwd="/tmp",
    )
    return json.loads(result.stdout.strip().splitlines()[-1])


def main():
    if len(sys.argv) > 1:
        what = sys.argv[1]
        result = _defaults() if what == "defaults" else _round_trip(int(what))
        print(json.dumps(result))
        return
    import mindspore as ms

    defaults = _child("defaults")
    trips = []
    for index, (key, value) in enumerate(ROUND_TRIPS):
        trips.append({"key": key, "set": value, "get": _child(str(index))})
    data = {
        "mindspore": ms.__version__,
        "host_cpus": os.cpu_count(),
        "table": defaults["table"],
        "defaults": defaults["values"],
        "round_trips": trips,
    }
    with open(OUT, "w") as file:
        json.dump(data, file, indent=1, sort_keys=True)
        file.write("\n")
    print("wrote", OUT)


if __name__ == "__main__":
    main()
