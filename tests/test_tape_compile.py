"""The tape's backward programs compiled on a second thread (cellax/_transforms/_tape_compile.py).

The worker compiles each new kernel's backward program into ``jax.jit``'s cache while the
forward pass goes on; the backward pass takes back what the worker has not started and waits
for what it is compiling. These tests check that the backward pass then compiles nothing, that
a taken-back job is never compiled, that a fork waits for the running compile and that a forked
child can compile again, and that gradients are unchanged.
"""

import logging
import os
import threading
import warnings

import jax
import jax.numpy as jnp
import numpy as np

from cellax._transforms import _tape, _tape_compile


class _CompileLog(logging.Handler):
    """(thread, function) of each program JAX compiles while ``jax_log_compiles`` is on."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.compiled: list = []

    def emit(self, record) -> None:
        message = record.getMessage()
        if message.startswith("Compiling jit("):
            name = message[len("Compiling jit(") : message.index(")")]
            self.compiled.append((threading.current_thread().name, name))


def _loss(w, x):
    h = jnp.tanh(x @ w)
    return jnp.sum(jax.nn.relu(h) * h)


def test_backward_pass_finds_its_programs_compiled():
    _tape.clear_kernel_cache()  # every kernel below is new, whatever ran before in this process
    w = jnp.asarray(np.random.default_rng(0).standard_normal((7, 13)), jnp.float32)
    x = jnp.asarray(np.random.default_rng(1).standard_normal((11, 7)), jnp.float32)
    ones = jnp.ones((), jnp.float32)
    log, logger = _CompileLog(), logging.getLogger("jax")
    saved = (logger.level, jax.config.jax_log_compiles)
    logger.addHandler(log)
    logger.setLevel(logging.DEBUG)
    jax.config.update("jax_log_compiles", True)  # global: the worker thread logs too
    try:
        kernels_before = len(_tape._KERNELS)
        out, pullback = _tape.vjp(_loss, w, x)
        new = list(_tape._KERNELS.values())[kernels_before:]
        assert new and all(k.job is not None for k in new)
        for kernel in new:  # let the worker finish (it takes the jobs in order)
            assert kernel.job.done.wait(timeout=120)
        forward = list(log.compiled)
        grads = pullback(ones)
        backward = log.compiled[len(forward) :]
    finally:
        jax.config.update("jax_log_compiles", saved[1])
        logger.setLevel(saved[0])
        logger.removeHandler(log)
    assert ("cellax-tape-compile", "apply") in forward  # the backward programs, on the worker
    assert [c for c in backward if c[1] == "apply"] == []  # the backward pass found them
    assert all(k.job is None for k in new)  # each claimed by its first backward call
    ref = jax.grad(_loss, argnums=(0, 1))(w, x)
    for got, want in zip(grads, ref):
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-5, atol=1e-6)


class _BlockingPull:
    """A kernel.pull stand-in whose compile blocks until released, recording each call."""

    def __init__(self, gate: threading.Event | None, log: list, name: str) -> None:
        self.gate, self.log, self.name = gate, log, name

    def lower(self, *args):
        self.log.append(self.name)
        if self.gate is not None:
            self.gate.wait(timeout=60)
        raise RuntimeError("not a real program")  # the worker swallows it: no compile


def _until_started(log: list) -> None:
    """Wait (up to 30 s) until the worker has entered its first fake job."""
    for _ in range(600):
        if log:
            return
        threading.Event().wait(0.05)


class _FakeKernel:
    def __init__(self, pull) -> None:
        self.pull, self.residuals, self.avals = pull, None, []


def test_claim_takes_back_a_queued_job_and_waits_for_a_running_one():
    gate, log = threading.Event(), []
    running = _tape_compile.submit(_FakeKernel(_BlockingPull(gate, log, "first")), [])
    queued = _tape_compile.submit(_FakeKernel(_BlockingPull(None, log, "second")), [])
    _until_started(log)
    assert log == ["first"]
    _tape_compile.claim(queued)  # not started: taken back at once, though the worker is busy
    assert queued.state == "done" and queued.done.is_set()
    _tape_compile.claim(queued)  # a second claim returns at once too
    waiter = threading.Thread(target=_tape_compile.claim, args=(running,))
    waiter.start()
    waiter.join(timeout=0.2)
    assert waiter.is_alive()  # waits while the worker compiles
    gate.set()
    waiter.join(timeout=60)
    assert not waiter.is_alive() and running.done.is_set()
    _tape_compile.submit(_FakeKernel(_BlockingPull(None, log, "third")), []).done.wait(60)
    assert log == ["first", "third"]  # the taken-back job was never compiled


def test_settle_takes_back_the_queue():
    gate, log = threading.Event(), []
    running = _tape_compile.submit(_FakeKernel(_BlockingPull(gate, log, "a")), [])
    queued = [_tape_compile.submit(_FakeKernel(_BlockingPull(None, log, "b")), [])]
    _until_started(log)
    threading.Timer(0.3, gate.set).start()
    _tape_compile.settle()  # returns once "a" is done; "b" is handed back
    assert running.done.is_set() and queued[0].done.is_set()
    assert log == ["a"]


def test_fork_waits_for_the_running_compile():
    """A fork (dataset workers) happens between compiles, never during one: a child must not
    inherit XLA's locks held by the worker thread it does not have."""
    gate, log = threading.Event(), []
    running = _tape_compile.submit(_FakeKernel(_BlockingPull(gate, log, "slow")), [])
    queued = _tape_compile.submit(_FakeKernel(_BlockingPull(None, log, "next")), [])
    _until_started(log)
    threading.Timer(0.3, gate.set).start()
    with warnings.catch_warnings():  # JAX warns at every fork; the child only exits
        warnings.simplefilter("ignore", RuntimeWarning)
        pid = os.fork()
    if pid == 0:
        os._exit(0)
    finished_before_fork = running.done.is_set() and queued.done.is_set()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert finished_before_fork and log == ["slow"]
    # the worker goes on serving the parent
    after = _tape_compile.submit(_FakeKernel(_BlockingPull(None, log, "after")), [])
    assert after.done.wait(60) and log == ["slow", "after"]
