"""map in grain worker processes: same rows as in-process, work spread over 2 processes, and a
crashing worker surfaces as an error (never a hang). Bounded by an alarm, no timing asserts."""

import os
import signal

import numpy as np
import pytest

from cellax import dataset as ds


def _square_with_pid(x):
    return x * x, np.int64(os.getpid())


def _crash_on_three(x):
    if int(x) == 3:
        os._exit(3)
    return x


@pytest.fixture
def deadline():
    def expired(signum, frame):
        raise TimeoutError("the worker pipeline did not finish in 240 s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(240)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_two_worker_processes_map_in_order_and_crash_surfaces(deadline):
    source = ds.NumpySlicesDataset({"x": np.arange(24)}, shuffle=False)
    data = source.map(
        _square_with_pid,
        input_columns="x",
        output_columns=["x", "pid"],
        num_parallel_workers=2,
        python_multiprocessing=True,
    ).batch(6)
    batches = list(data.create_tuple_iterator(output_numpy=True))
    values = np.concatenate([b[0] for b in batches])
    np.testing.assert_array_equal(values, np.arange(24) ** 2)
    pids = {int(p) for b in batches for p in b[1]}
    assert len(pids) == 2 and os.getpid() not in pids

    crashing = ds.NumpySlicesDataset({"x": np.arange(10)}, shuffle=False).map(
        _crash_on_three, input_columns="x", num_parallel_workers=2, python_multiprocessing=True
    )
    with pytest.raises(RuntimeError):
        list(crashing.create_tuple_iterator(output_numpy=True))


def test_threads_keep_order():
    data = ds.NumpySlicesDataset({"x": np.arange(30)}, shuffle=False).map(
        lambda x: x + 1, input_columns="x", num_parallel_workers=3
    )
    rows = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    assert rows == list(range(1, 31))
