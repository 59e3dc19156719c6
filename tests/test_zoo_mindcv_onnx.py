"""ONNX export sweep over mindcv 0.3.0's models under 30M parameters (issue 39's figure).

Runs only with ``CELLAX_MINDCV_ONNX=1`` and mindcv importable (``pip install --no-deps --target
DIR mindcv==0.3.0``, DIR on PYTHONPATH), e.g.::

    CELLAX_MINDCV_ONNX=1 CELLAX_ALIAS_MINDSPORE=1 PYTHONPATH=DIR:$PWD \\
        python -m pytest tests/test_zoo_mindcv_onnx.py -s

The models and input sizes are those ``docs/mindcv_sweep.json`` records as running forward
on cellax (``tools/mindcv_sweep.py``), smallest first. Each model runs in its own subprocess:
``mindcv.create_model(name, num_classes=10)`` in inference mode, ``ms.export(...,
file_format="ONNX")`` on a ``(1, 3, H, H)`` batch, onnxruntime on the file, compared with
cellax's forward pass. ``CELLAX_MINDCV_ONNX_BUDGET`` (seconds, default 1500) stops the sweep
early (the count is then partial), ``CELLAX_MINDCV_ONNX_OUT`` names a JSON file for the
per-model results, and ``CELLAX_MINDCV_ONNX_SKIP`` names such a file from an earlier partial run
whose models are skipped (to resume). The test fails if a model exports but onnxruntime's
numbers differ from cellax's by more than 1e-3 of the output's scale and more than twice as much
as cellax's own jitted program does.
"""

import importlib.util
import itertools
import json
import re
import os
import subprocess
import sys
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SWEEP = os.path.join(ROOT, "docs", "mindcv_sweep.json")
LIMIT = 30_000_000

pytestmark = [
    pytest.mark.skipif(
        not os.environ.get("CELLAX_MINDCV_ONNX"), reason="set CELLAX_MINDCV_ONNX=1 to sweep"
    ),
    pytest.mark.skipif(
        importlib.util.find_spec("mindcv") is None, reason="mindcv is not installed"
    ),
]


def _family(name: str) -> str:
    """``mobilenet_v2_035_128`` -> ``mobilenet_v2``; ``resnet18`` -> ``resnet``."""
    head = re.sub(r"(_\d[\w.]*)+$", "", name.lower())
    return re.sub(r"\d+[a-z]?$", "", head) or head


def _worker(name: str, size: int, directory: str) -> dict:
    import numpy as np

    import cellax

    cellax.alias_mindspore()
    import mindcv
    import onnxruntime as ort

    import mindspore as ms

    rec: dict = {"model": name, "H": size}
    ms.set_seed(0)
    net = mindcv.create_model(name, pretrained=False, num_classes=10)
    net.set_train(False)
    x = np.random.default_rng(0).standard_normal((1, 3, size, size)).astype(np.float32)
    path = os.path.join(directory, name)
    try:
        ms.export(net, ms.Tensor(x), file_name=path, file_format="ONNX")
    except Exception as e:  # noqa: BLE001 - a sweep records every failure
        rec["error"] = f"export: {type(e).__name__}: {str(e).splitlines()[0][:400]}"
        return rec
    rec["exported"] = True
    try:
        session = ort.InferenceSession(path + ".onnx", providers=["CPUExecutionProvider"])
        got = session.run(None, {session.get_inputs()[0].name: x})[0]
    except Exception as e:  # noqa: BLE001
        rec["error"] = f"onnxruntime: {type(e).__name__}: {str(e).splitlines()[0][:400]}"
        return rec
    finally:
        os.remove(path + ".onnx")
    want = net(ms.Tensor(x))
    want = (want[0] if isinstance(want, (tuple, list)) else want).asnumpy()
    scale = max(float(np.abs(want).max()), 1e-6)
    rec["rel_err"] = float(np.abs(got - want).max()) / scale
    rec["match"] = got.shape == want.shape and rec["rel_err"] < 1e-3
    if got.shape == want.shape and not rec["match"]:
        # a randomly initialised network can amplify rounding (outputs of order 1e6): then
        # onnxruntime may differ from cellax's eager run as much as XLA's own compiled program
        import jax

        from cellax import functional_call, state

        compiled = jax.jit(lambda v, a: functional_call(net, v, a)[0])(state(net), x)
        compiled = compiled[0] if isinstance(compiled, (tuple, list)) else compiled
        rec["jit_rel_err"] = float(np.abs(np.asarray(compiled) - want).max()) / scale
        rec["match"] = rec["rel_err"] <= 2 * rec["jit_rel_err"]
    if not rec["match"]:
        rec["error"] = f"mismatch: shape {got.shape} vs {want.shape}, rel_err {rec['rel_err']:.3g}"
    return rec


def _run(name: str, size: int, directory: str, timeout: float) -> dict:
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    try:
        proc = subprocess.run(
            [sys.executable, __file__, name, str(size), directory],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return {"model": name, "H": size, "error": f"timeout ({timeout:.0f} s)"}
    for line in proc.stdout.splitlines():
        if line.startswith("@@RESULT "):
            return json.loads(line[len("@@RESULT ") :])
    tail = (proc.stderr.strip().splitlines() or ["no output"])[-1][:400]
    return {"model": name, "H": size, "error": f"crash: {tail}"}


def test_mindcv_onnx_sweep(tmp_path):
    with open(SWEEP) as f:
        recorded = json.load(f)
    by_family: dict = {}  # smallest first within a family (resnet, vit, mobilenet_v2, ...)
    for name, r in sorted(recorded.items(), key=lambda item: item[1].get("params", LIMIT)):
        if r.get("forward") and r.get("params", LIMIT) < LIMIT:
            by_family.setdefault(_family(name), []).append((r["params"], name, r["H"]))
    # round robin over the families, so that a partial sweep covers every architecture
    rounds = itertools.zip_longest(*by_family.values())
    models = [m for group in rounds for m in group if m is not None]
    skip = os.environ.get("CELLAX_MINDCV_ONNX_SKIP")
    if skip:
        with open(skip) as f:
            done = set(json.load(f)["results"])
        models = [m for m in models if m[1] not in done]
    budget = float(os.environ.get("CELLAX_MINDCV_ONNX_BUDGET", 1500))
    start, results = time.time(), {}
    for params, name, size in models:
        left = budget - (time.time() - start)
        if left < 30:
            break
        rec = _run(name, size, str(tmp_path), timeout=min(300.0, left))
        rec["params"] = params
        results[name] = rec
        print(name, "ok" if rec.get("match") else rec.get("error"), flush=True)
    exported = sum(1 for r in results.values() if r.get("exported"))
    matched = sum(1 for r in results.values() if r.get("match"))
    summary = {
        "models": len(models),
        "tried": len(results),
        "exported": exported,
        "matched": matched,
        "seconds": round(time.time() - start),
        "results": results,
    }
    out = os.environ.get("CELLAX_MINDCV_ONNX_OUT")
    if out:
        with open(out, "w") as f:
            json.dump(summary, f, indent=1, sort_keys=True)
    print(f"mindcv ONNX: {len(models)} models, tried {len(results)}, exported {exported}, "
          f"match onnxruntime {matched}")  # fmt: skip
    wrong = [n for n, r in results.items() if r.get("exported") and not r.get("match")]
    assert not wrong, f"exported but onnxruntime disagrees with cellax: {wrong}"


if __name__ == "__main__":
    print("@@RESULT " + json.dumps(_worker(sys.argv[1], int(sys.argv[2]), sys.argv[3])))
