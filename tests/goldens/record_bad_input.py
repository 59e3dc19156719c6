"""Record MindSpore 2.10's outcome of each bad call of <name>_cases.py -> <name>.json.

Run with the reference MindSpore (``/root/ms-ref/bin/python tests/goldens/record_bad_input.py
[name]``, no PYTHONPATH); ``name`` is ``bad_input`` (the default), ``bad_arguments`` or
``bad_ops``. Each
outcome is "ok" or the builtin exception type raised (the first builtin class in the exception's
MRO) with the exact type's name beside it. bad_arguments_cases.py asks for sizes no machine has:
record it under ``ulimit -v 20000000`` so that NumPy refuses them at once.

``record_bad_input.py bad_ops --all OUT.json`` records every case of the ops campaign (not
committed: tools/fuzz_bad_input_ops.py --mindspore OUT.json compares cellax with it); the cases
of a row whose valid call fails on MindSpore's CPU (no kernel) are marked "unsupported".

Each case runs in its own process, forked from this one once MindSpore is imported (a fork
costs milliseconds, an import seconds): a case that kills MindSpore is recorded as "crash"
with the signal, one that runs longer than TIMEOUT seconds as "hang", and no case sees what an
earlier one left behind (``ops.cross`` of Tensors of different shapes reads outside its inputs
in 2.10: after the cases before it in one process it segfaulted, alone it returns arbitrary
values).
"""

import json
import os
import pathlib
import runpy
import select
import signal
import sys
import time
import warnings

import numpy as np

import mindspore as ms
from mindspore import Tensor, mint, nn, ops

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


TIMEOUT = 120.0


def run_one(code: str, scope: dict) -> dict:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            synchronize(eval(code, dict(scope)))
        return {"code": code, "outcome": "ok"}
    except Exception as error:  # noqa: BLE001 - the type is what is recorded
        return {
            "code": code,
            "outcome": builtin_type(error),
            "type": type(error).__name__,
            "message": str(error).split("\n")[0][:200],
        }


def run_isolated(code: str, scope: dict) -> dict:
    """:func:`run_one` in a forked child: its death or its silence is the case's outcome."""
    read, write = os.pipe()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # the child: run the case, send its outcome, leave without cleaning up
        os.close(read)
        try:
            os.write(write, json.dumps(run_one(code, scope)).encode())
        finally:
            os._exit(0)
    os.close(write)
    data, deadline = b"", time.monotonic() + TIMEOUT
    with os.fdopen(read, "rb") as pipe:
        while True:
            ready, _, _ = select.select([pipe], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return {"code": code, "outcome": "hang", "message": f"no answer in {TIMEOUT} s"}
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                break
            data += chunk
    _, status = os.waitpid(pid, 0)
    if data:
        return json.loads(data)
    reason = (
        f"signal {signal.Signals(os.WTERMSIG(status)).name}"
        if os.WIFSIGNALED(status)
        else f"exit status {os.WEXITSTATUS(status)}"
    )
    return {"code": code, "outcome": "crash", "message": reason}


def record(table: dict, scope: dict) -> dict:
    return {name: run_isolated(code, scope) for name, code in table.items()}


def main():
    ms.set_context(pynative_synchronize=True)
    scope = {"ms": ms, "Tensor": Tensor, "nn": nn, "ops": ops, "mint": mint, "np": np}
    exec(cases["SETUP"], scope)
    if "--all" in sys.argv:
        outcome = record(cases["cases"](), scope)
        for name in outcome:
            row = name.rsplit("/", 2)[0] if not name.endswith("/ok") else name[:-3]
            if outcome[f"{row}/ok"]["outcome"] != "ok":
                outcome[name]["unsupported"] = True
        target = pathlib.Path(sys.argv[sys.argv.index("--all") + 1])
    else:
        outcome = record(cases["CASES"], scope)
        target = HERE / f"{NAME}.json"
    out = {"mindspore": ms.__version__, "cases": outcome}
    target.write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
