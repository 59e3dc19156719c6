"""Record MindSpore 2.10's outcome of each bad call of <name>_cases.py -> <name>.json.

Run with the reference MindSpore (``/root/ms-ref/bin/python tests/goldens/record_bad_input.py
[name]``, no PYTHONPATH); ``name`` is ``bad_input`` (the default) or ``bad_arguments``. Each
outcome is "ok" or the builtin exception type raised (the first builtin class in the exception's
MRO) with the exact type's name beside it. bad_arguments_cases.py asks for sizes no machine has:
record it under ``ulimit -v 20000000`` so that NumPy refuses them at once.
"""

import json
import pathlib
import runpy
import sys
import warnings

import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

HERE = pathlib.Path(__file__).resolve().parent
NAME = sys.argv[1] if len(sys.argv) > 1 else "bad_input"
cases = runpy.run_path(str(HERE / f"{NAME}_cases.py"))


def synchronize(result):
    """Errors of PyNative's asynchronous kernels surface here, in their own case."""
    if isinstance(result, (tuple, list)):
        for item in result:
            synchronize(item)
    elif isinstance(result, Tensor):
        result.asnumpy()


def builtin_type(error) -> str:
    return next(c.__name__ for c in type(error).__mro__ if c.__module__ == "builtins")


def main():
    ms.set_context(pynative_synchronize=True)
    scope = {"ms": ms, "Tensor": Tensor, "nn": nn, "ops": ops, "np": np}
    exec(cases["SETUP"], scope)
    outcome = {}
    for name, code in cases["CASES"].items():
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                synchronize(eval(code, dict(scope)))
            outcome[name] = {"code": code, "outcome": "ok"}
        except Exception as error:  # noqa: BLE001 - the type is what is recorded
            outcome[name] = {
                "code": code,
                "outcome": builtin_type(error),
                "type": type(error).__name__,
                "message": str(error).split("\n")[0][:200],
            }
    out = {"mindspore": ms.__version__, "cases": outcome}
    (HERE / f"{NAME}.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
