"""A bad-input campaign over cellax.ops functions (issue 22): prints each contract violation.

Each public function is called with one positional argument replaced by a bad value (None, a string,
a dict, a nested ragged list) and the rest filled with small valid Tensors where it needs them.
The contract: the call raises a builtin exception type MindSpore raises (TypeError,
ValueError, RuntimeError, IndexError, KeyError, MemoryError, NotImplementedError) whose
message starts with "For '" and names no JAX/NumPy internals. Run:
``python tools/fuzz_bad_input.py [--verbose]``; the suite runs a bounded version of the same
contract (tests/test_bad_input.py).
"""

from __future__ import annotations

import argparse
import inspect
import re
import warnings

import numpy as np

import cellax as ms
from cellax import ops

ALLOWED = (
    TypeError,
    ValueError,
    RuntimeError,
    IndexError,
    KeyError,
    MemoryError,
    NotImplementedError,
)
# "numpy.ndarray" is a type name MindSpore's own messages list among the accepted inputs
LEAKS = re.compile(
    r"\bjax\b|\bjnp\.|\bnumpy\.(?!ndarray)|<locals>|Traced<|\bXLA\b|MLIR|\blax\.|"
    r"0x[0-9a-f]{6,}"
)
BAD_VALUES = {"None": None, "str": "abc", "dict": {"a": 1}, "ragged": [[1, 2], [3]]}


# Functions that write files when their arguments are valid (a str first argument is a file
# name for them): the campaign would leave files in the working directory.
WRITES_FILES = {"tensordump"}


def public_functions():
    for name in sorted(dir(ops)):
        fn = getattr(ops, name)
        if name.startswith("_") or not inspect.isfunction(fn) or name in WRITES_FILES:
            continue
        yield name, fn


def check(call, leaks=LEAKS) -> str | None:
    """The error-contract violation of ``call()`` (warnings silenced), or None when it returns
    or raises a builtin type whose message starts "For '<api>'" and shows no internals."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call()
    except ALLOWED as error:
        text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
        if not text.startswith("For '"):
            return f"{type(error).__name__}: message does not name the API: {text[:160]!r}"
        if leaks.search(text):
            return f"{type(error).__name__}: message leaks internals: {text[:160]!r}"
        return None
    except Exception as error:  # noqa: BLE001 - a wrong exception type is the finding
        return f"{type(error).__module__}.{type(error).__name__}: {str(error)[:160]!r}"
    return None  # accepted (e.g. a dtype-like argument): not a contract question here


def violation(fn, bad, argc: int, position: int = 0):
    args = [ms.Tensor(np.ones((2, 3), np.float32))] * argc
    args[position] = bad
    return check(lambda: fn(*args))


def required_positional(fn) -> int:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return 1
    kinds = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return max(1, sum(1 for p in params if p.kind in kinds and p.default is p.empty))


def campaign(verbose: bool = False, all_positions: bool = False) -> list:
    found = []
    for name, fn in public_functions():
        argc = required_positional(fn)
        for position in range(argc if all_positions else 1):
            for label, bad in BAD_VALUES.items():
                problem = violation(fn, bad, argc, position)
                if problem:
                    found.append((name, position, label, problem))
                    if verbose:
                        print(f"{name}(arg {position} = {label}): {problem}")
    return found


# under jit, cellax's own remedies may name jax.jit / jax.debug.print
JIT_LEAKS = re.compile(r"\bjnp\.|\bnumpy\.(?!ndarray)|<locals>|Traced<|\bXLA\b|MLIR|\blax\.")


def jit_violation(fn, argc: int):
    """The contract violation of ``fn`` traced inside ``cellax.jit`` with Tensor arguments
    (arguments that must be static then arrive traced), or None. The program is traced and
    lowered, not compiled: what jit changes for an op's arguments shows while tracing, and
    compiling a thousand programs would cost most of the campaign's time."""
    x = ms.Tensor(np.ones((2, 3), np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:  # only what jit changes: calls that fail eagerly too, or return a function, are
            # the eager campaign's question
            if callable(fn(*([x] * argc))):
                return None
        except Exception:  # noqa: BLE001
            return None
    return check(lambda: ms.jit(lambda *args: fn(*args)).lower(*([x] * argc)), JIT_LEAKS)


def jit_campaign(verbose: bool = False, part: tuple = (0, 1)) -> list:
    """Every public ops function under jit with all required arguments traced Tensors
    (``part=(k, n)``: only every n-th function, from the k-th)."""
    found = []
    start, step = part
    for name, fn in list(public_functions())[start::step]:
        problem = jit_violation(fn, required_positional(fn))
        if problem:
            found.append((name, "jit", problem))
            if verbose:
                print(f"{name} (under jit): {problem}")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every violation")
    parser.add_argument(
        "--all-positions", action="store_true", help="mutate every positional argument"
    )
    parser.add_argument("--jit", action="store_true", help="also call each op inside jit")
    options = parser.parse_args()
    found = campaign(options.verbose, options.all_positions)
    if options.jit:
        found += jit_campaign(options.verbose)
    per_fn = (lambda fn: required_positional(fn)) if options.all_positions else (lambda fn: 1)
    calls = sum(per_fn(fn) for _, fn in public_functions()) * len(BAD_VALUES)
    print(f"{len(found)} violations in {calls} calls")


if __name__ == "__main__":
    main()
