"""The doctest float checker (tests/_doctest_floats.py) tolerates ISA rounding and nothing else."""

import _pytest.doctest as pytest_doctest
import pytest

from tests._doctest_floats import outputs_close

GELU = "[ 0.8413447  -0.15865527]"


@pytest.mark.parametrize(
    "got",
    [
        "[ 0.8413447  -0.15865529]",  # 1 ulp: erf's vector kernel on AVX
        "[ 0.8413447 -0.15865527]",  # column padding only
        "[ 0.84134465  -0.15865527]",  # one more digit printed, within rounding
    ],
)
def test_float32_rounding_is_tolerated(got):
    assert outputs_close(GELU, got)


@pytest.mark.parametrize(
    "want, got",
    [
        (GELU, "[ 0.8413447  -0.15866527]"),  # 1e-5: a real difference
        (GELU, "[ 0.8413447  -0.15865527  0.5]"),  # one number more
        (GELU, "( 0.8413447  -0.15865527)"),  # other text
        ("Tensor(shape=[2], dtype=Float32)", "Tensor(shape=[3], dtype=Float32)"),  # integers exact
        ("[1. 2.]", "[1 2]"),  # a float printed as an int is a dtype change
        ("[nan  1.]", "[1.  nan]"),
        ("1.0e+00", "1.0e+01"),
        ("[0.5 ...]", "[0.5000001 2.]"),  # ellipsis outputs stay with doctest's own rules
    ],
)
def test_real_differences_fail(want, got):
    assert not outputs_close(want, got)


def test_plugin_is_the_doctest_checker():
    checker = pytest_doctest._get_checker()
    assert checker.check_output(GELU + "\n", "[ 0.8413447  -0.15865529]\n", 0)
    assert not checker.check_output(GELU + "\n", "[ 0.8413447  -0.1586]\n", 0)
