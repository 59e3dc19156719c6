import os

# The suite compiles thousands of small XLA programs and runs each a few times, so compiling is
# most of its time. XLA's LLVM backend at optimisation level 0 compiles them several times
# faster; XLA's own HLO passes and float semantics (no fast math) are the same at every level,
# so the results are too. Set before JAX starts its backend; benchmarks/ keeps the defaults.
if "xla_backend_optimization_level" not in os.environ.get("XLA_FLAGS", ""):
    os.environ["XLA_FLAGS"] = (
        os.environ.get("XLA_FLAGS", "") + " --xla_backend_optimization_level=0"
    ).strip()

import pytest  # noqa: E402
from hypothesis import settings

import cellax
from cellax import _context, _parallel_state

# Property tests never depend on the machine's speed (no per-example deadline) or on the run
# (derandomized: the same examples every run, on every machine). CELLAX_HYPOTHESIS=long explores
# more examples, with fresh randomness, for a longer local campaign.
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True)
settings.register_profile("long", deadline=None, max_examples=2000, print_blob=True)
settings.load_profile(os.environ.get("CELLAX_HYPOTHESIS", "ci"))


@pytest.fixture(autouse=True)
def _pynative_mode_and_seed():
    """Every test starts in PYNATIVE_MODE with seed 0, and leaves the context as it found it
    (a documentation page that sets ``pynative_grad_replay`` does not change later tests), and
    whether ``communication.init()`` ran, with the groups made since, as it found them."""
    cellax.set_context(mode=cellax.PYNATIVE_MODE)
    cellax.set_seed(0)
    settings = dict(_context._settings)
    comm_inited, comm_groups = _parallel_state.COMM.inited, dict(_parallel_state.COMM.groups)
    yield
    _context._settings.clear()
    _context._settings.update(settings)
    _parallel_state.COMM.inited = comm_inited
    _parallel_state.COMM.groups.clear()
    _parallel_state.COMM.groups.update(comm_groups)


# Recording scripts run under real MindSpore (a separate venv), never under pytest; the
# distributed worker scripts run only as subprocesses of tests/test_distributed.py (importing
# one in the test process would start its multi-device job).
collect_ignore_glob = [
    "goldens/record_*.py",
    "goldens/*/record_*.py",
    "distributed/*_script.py",
]
