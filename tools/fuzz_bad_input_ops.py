"""The bad-argument campaign over the public ops API (issue 38): counts each kind of outcome.

The cases are those of tests/goldens/bad_ops_cases.py: about 320 valid calls of cellax.ops,
cellax.mint and cellax.nn, each with one argument at a time replaced by a bad or edge-case
value. Each case runs in a child process (a batch per child; a child that dies or stops
answering is a crash or a hang of the case it was running, and the next child goes on after
it). Outcomes:

* ``ok``: the call returned;
* ``clean``: a builtin type MindSpore raises, the message starting ``For '<the API called>'``
  and naming no JAX/NumPy internals (tools/fuzz_bad_input.py's LEAKS);
* ``leaky``: such a message that shows internals;
* ``wrong_api``: a message naming another API, or none;
* ``bad_type``: an exception type MindSpore does not raise for bad arguments (AttributeError,
  a JAX error, ...);
* ``crash`` / ``hang``.

Run ``python tools/fuzz_bad_input_ops.py [--verbose] [--mindspore OUTCOMES.json]``; with the
outcomes MindSpore 2.10 recorded for the same cases (``record_bad_input.py bad_ops --all
OUTCOMES.json``) it also counts the calls cellax accepts where MindSpore raises, and the calls
where both raise different builtin types. The suite runs a bounded sample of the same contract
(tests/test_bad_input_ops.py).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import runpy
import select
import subprocess
import sys
import tempfile
import time
import warnings

from fuzz_bad_input import ALLOWED, LEAKS

ROOT = pathlib.Path(__file__).resolve().parent.parent
CASES = runpy.run_path(str(ROOT / "tests" / "goldens" / "bad_ops_cases.py"))
GOOD = ("ok", "clean")


def _normal(api: str) -> str:
    for prefix in ("Tensor.", "ops.", "mint.", "nn."):
        api = api.removeprefix(prefix)
    return api.replace("_", "").lower()


def names_api(text: str, api: str) -> bool:
    """Whether ``text`` starts "For '<api>'" (its last component, case and underscores aside,
    as MindSpore names ``nn.Softmax``'s errors "For 'softmax'"; for an alias, the function it
    is: bad_ops_cases.ALIASES)."""
    if not text.startswith("For '"):
        return False
    named = _normal(text[5:].split("'", 1)[0])
    names = (api.rsplit(".", 1)[-1],) + CASES["ALIASES"].get(api, ())
    return named in {_normal(name) for name in names}


def classify(error: BaseException | None, api: str) -> tuple:
    """(outcome, detail) of a call of ``api`` that raised ``error`` (None: it returned)."""
    if error is None:
        return "ok", ""
    text = str(error.args[0]) if isinstance(error, KeyError) and error.args else str(error)
    detail = f"{type(error).__name__}: {text[:200]}"
    if not isinstance(error, ALLOWED) or type(error).__module__.startswith(("jax", "jaxlib")):
        return "bad_type", f"{type(error).__module__}.{detail}"
    if LEAKS.search(text):
        return "leaky", detail
    if not names_api(text, api):
        return "wrong_api", detail
    return "clean", detail


def scope() -> dict:
    import numpy as np

    import cellax as ms
    from cellax import Tensor, mint, nn, ops

    names = {"ms": ms, "Tensor": Tensor, "nn": nn, "ops": ops, "mint": mint, "np": np}
    exec(CASES["SETUP"], names)
    return names


def run_case(name: str, code: str, names: dict) -> tuple:
    """Run one case in this process: (outcome, detail)."""
    from cellax import Tensor

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = eval(code, dict(names))
            for item in result if isinstance(result, (tuple, list)) else (result,):
                if isinstance(item, Tensor):
                    item.asnumpy()  # errors of asynchronous dispatch surface in their case
    except Exception as error:  # noqa: BLE001 - classified
        return classify(error, CASES["api_of_case"](name))
    return classify(None, "")


_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
import fuzz_bad_input_ops as campaign
names = campaign.scope()
for name in open(sys.argv[2]).read().split():
    outcome = campaign.run_case(name, campaign.CASES['cases']()[name], names)
    print(json.dumps([name, *outcome]), flush=True)
"""


def run_isolated(names: list, timeout: float = 120.0) -> dict:
    """``{name: (outcome, detail)}`` for ``names``, each run in a child process (one child for
    all, replaced when one dies or hangs: that case's outcome is ``crash`` or ``hang``)."""
    results: dict = {}
    pending = list(names)
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
    while pending:
        handle, todo = tempfile.mkstemp(prefix="cellax-campaign-", suffix=".txt")
        os.write(handle, "".join(f"{name}\n" for name in pending).encode())
        os.close(handle)
        child = subprocess.Popen(
            [sys.executable, "-c", _CHILD, str(ROOT / "tools"), todo],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,  # a full pipe nobody reads would block the child
            env=env,
        )
        buffer = b""
        while pending:
            if b"\n" not in buffer:
                ready, _, _ = select.select([child.stdout], [], [], timeout)
                chunk = os.read(child.stdout.fileno(), 1 << 16) if ready else None
                if chunk:
                    buffer += chunk
                    continue
                name = pending.pop(0)  # the case the child was running
                if chunk is None:
                    results[name] = ("hang", f"no answer in {timeout:.0f} s")
                else:
                    results[name] = ("crash", f"exit status {child.wait()}")
                break
            line, buffer = buffer.split(b"\n", 1)
            name, outcome, detail = json.loads(line)
            results[name] = (outcome, detail)
            pending.remove(name)
        child.kill()
        child.wait()
        child.stdout.close()
        os.unlink(todo)
    return results


def counts(results: dict, mindspore: dict | None = None) -> dict:
    """Outcome counts; with MindSpore's outcomes, also ``silent`` (cellax returns where
    MindSpore raises) and ``other_type`` (both raise, different builtin types)."""
    total = collections.Counter(outcome for outcome, _ in results.values())
    if mindspore:
        for name, (outcome, detail) in results.items():
            theirs = mindspore.get(name, {}).get("outcome")
            if theirs in (None, "crash", "hang") or mindspore.get(name, {}).get("unsupported"):
                continue  # not recorded, MindSpore itself crashed or hung, or it has no such kernel
            if outcome == "ok" and theirs != "ok":
                total["silent"] += 1
            elif outcome != "ok" and theirs in _BUILTIN_TYPES:
                total["both_raise"] += 1
                mine = detail.split(":", 1)[0].rsplit(".", 1)[-1]
                if not _same_builtin(mine, theirs):
                    total["other_type"] += 1
    return dict(total)


# the builtin types MindSpore raises for bad arguments (it also raises AttributeError where
# it reaches attribute access on a Python number: not a type to match)
_BUILTIN_TYPES = {kind.__name__ for kind in ALLOWED}


def _same_builtin(mine: str, theirs: str) -> bool:
    import builtins

    from cellax._limits import AllocationError

    kind = AllocationError if mine == "AllocationError" else getattr(builtins, mine, None)
    return isinstance(kind, type) and issubclass(kind, getattr(builtins, theirs))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every finding")
    parser.add_argument("--mindspore", help="MindSpore's outcomes of the same cases (JSON)")
    parser.add_argument("--json", help="write every case's outcome here")
    parser.add_argument("--only", help="only the cases whose name contains this text")
    options = parser.parse_args()
    everything = CASES["cases"]()
    names = [name for name in everything if not options.only or options.only in name]
    start = time.time()
    results = run_isolated(names)
    mindspore = (
        json.loads(pathlib.Path(options.mindspore).read_text())["cases"]
        if (options.mindspore)
        else None
    )
    for name, (outcome, detail) in sorted(results.items()):
        theirs = (mindspore or {}).get(name, {})
        silent = outcome == "ok" and theirs.get("outcome", "ok") not in ("ok", "crash", "hang")
        silent = silent and not theirs.get("unsupported")
        if options.verbose and (outcome not in GOOD or silent):
            label = f"silent (MindSpore: {theirs['outcome']})" if silent else outcome
            print(f"{label:12} {name:50} {everything[name]!r}: {detail}")
    if options.json:
        pathlib.Path(options.json).write_text(json.dumps(results, indent=1, sort_keys=True))
    print(json.dumps(counts(results, mindspore), sort_keys=True))
    print(f"{len(results)} calls in {time.time() - start:.0f} s")


if __name__ == "__main__":
    main()
