"""Distributed training (issue 21): communication, data parallel, operator parallel, launcher.

Multi-device runs happen in subprocesses with 8 virtual CPU devices (the test process's
backend already runs with one); each prints one JSON line that is compared with a one-device
run of the same script.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import cellax as ms
from cellax import communication, nn

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCRIPTS = pathlib.Path(__file__).resolve().parent / "distributed"


def _env(devices: int) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT)
    env["XLA_FLAGS"] = f"--xla_force_host_platform_device_count={devices}"
    env.pop("JAX_NUM_CPU_DEVICES", None)
    for name in list(env):
        if name.startswith(("MS_", "OMPI_", "SLURM_")) or name in ("RANK_ID", "RANK_SIZE"):
            del env[name]
    return env


def _start(script: str, *args, devices: int = 1):
    return subprocess.Popen(
        [sys.executable, str(SCRIPTS / script), *map(str, args)],
        env=_env(devices),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


def _result(proc, timeout: int = 240) -> dict:
    out, _ = proc.communicate(timeout=timeout)
    assert proc.returncode == 0, out[-3000:]
    line = [ln for ln in out.splitlines() if ln.startswith("RESULT")][-1]
    return json.loads(line[len("RESULT") :])


def _close(a, b, atol):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _close(a[key], b[key], atol)
        return
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=0, atol=atol)


@pytest.fixture(scope="module")
def dp_runs():
    many = _start("dp_script.py", "data_parallel", devices=8)
    one = _start("dp_script.py", "stand_alone", devices=1)
    return _result(many), _result(one)


def test_data_parallel_matches_one_device(dp_runs):
    many, one = dp_runs
    assert many["devices"] == 8 and one["devices"] == 1
    assert (many["rank"], many["size"]) == (0, 1)
    # 20 steps: the tutorial loop (DistributedGradReducer) and TrainOneStepCell
    _close(many["losses"], one["losses"], 1e-6)
    _close(many["losses2"], one["losses2"], 1e-6)
    _close(many["weights"], one["weights"], 1e-6)
    _close(many["weights2"], one["weights2"], 1e-6)
    # the gradient all-reduce is in the compiled step; Parameters stay replicated
    assert many["all_reduce"] >= 1 and one["all_reduce"] == 0
    assert set(many["shardings"].values()) == {"P()"}
    assert many["reducer"] == "DistributedGradReducer" and one["reducer"] == "function"


def test_communication_defaults():
    assert communication.get_rank() == 0
    assert communication.get_group_size() == 1
    assert communication.get_local_rank() == 0
    assert communication.get_local_rank_size() == 1
    assert communication.GlobalComm.WORLD_COMM_GROUP == "hccl_world_group"
    communication.init()  # no launcher: one process, nothing to join
    assert communication.GlobalComm.INITED
    assert communication.get_process_group_ranks() == [0]
    with pytest.raises(ValueError, match="distinct ranks"):
        communication.create_group("pair", [0, 0])
    with pytest.raises(ValueError, match="does not exist"):
        communication.get_rank("nope")


def test_context_parallel_mode_error():
    with pytest.raises(ValueError, match=r"but got the value : bogus\."):
        ms.set_auto_parallel_context(parallel_mode="bogus")
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"


def test_grad_reducer_factors():
    net = nn.Dense(2, 1)
    params = net.trainable_params()
    grads = (ms.ops.ones((1, 2)), ms.Tensor(np.ones((1,), np.float16)))
    out = nn.DistributedGradReducer(params, mean=True, degree=2)(grads)
    np.testing.assert_array_equal(out[0].asnumpy(), [[0.5, 0.5]])  # sum over 1 rank / 2
    assert out[1].dtype == ms.float16
    np.testing.assert_array_equal(out[1].asnumpy(), [0.5])
    same = nn.DistributedGradReducer(params, mean=False)(grads)
    np.testing.assert_array_equal(same[0].asnumpy(), [[1.0, 1.0]])
    params[0].layerwise_parallel = True
    try:
        skipped = nn.DistributedGradReducer(params, mean=True, degree=2)(grads)
    finally:
        params[0].layerwise_parallel = False
    np.testing.assert_array_equal(skipped[0].asnumpy(), [[1.0, 1.0]])
    with pytest.raises(TypeError, match="'mean' must be a bool"):
        nn.DistributedGradReducer(params, mean=1)
