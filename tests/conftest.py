import pytest

import cellax


@pytest.fixture(autouse=True)
def _pynative_mode_and_seed():
    """Every test starts in PYNATIVE_MODE with seed 0 (tests that change them restore this)."""
    cellax.set_context(mode=cellax.PYNATIVE_MODE)
    cellax.set_seed(0)
    yield
    cellax.set_context(mode=cellax.PYNATIVE_MODE)


# Recording scripts run under real MindSpore (a separate venv), never under pytest.
collect_ignore_glob = ["goldens/record_*.py", "goldens/*/record_*.py"]
