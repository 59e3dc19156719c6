"""pytest plugin (``-p tests._doctest_floats``): doctest floats match to a few float32 ulps.

XLA's CPU kernels for ``exp``, ``log``, ``tanh``, ``erf``, ``rsqrt``... are vectorised polynomials
whose last bit depends on the vector ISA the compiler targets (AVX-512, AVX2, AVX, NEON): a
docstring printing ``ops.gelu(x)`` to float32's full precision passes on one CPU and fails on
another (issue 15). So when a doctest's output differs from the docstring, it still passes if the
only differences are printed floats within 4 float32 ulps (relative ``4 * 2**-23``) plus half a
unit of the last digit written in the docstring, and whitespace between tokens (NumPy pads columns
to the widest number). Text, integers, shapes, dtypes and how many numbers there are must match
exactly as written.
"""

from __future__ import annotations

import math
import re

import _pytest.doctest as _pytest_doctest

ULPS = 4 * 2.0**-23
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)\b")


def _is_float(token: str) -> bool:
    return any(mark in token.lower() for mark in (".", "e", "nan", "inf"))


def _half_unit(token: str) -> float:
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 0.5 * 10.0 ** (int(exponent or 0) - decimals)


def _floats_close(want: str, got: str) -> bool:
    w, g = float(want), float(got)
    if math.isnan(w) or math.isnan(g) or math.isinf(w) or math.isinf(g):
        return (math.isnan(w) and math.isnan(g)) or w == g
    return abs(w - g) <= ULPS * max(abs(w), abs(g)) + _half_unit(want)


def outputs_close(want: str, got: str) -> bool:
    """True if ``got`` is ``want`` up to float32 rounding of its printed floats."""
    if "..." in want:
        return False
    want_numbers, got_numbers = _NUMBER.findall(want), _NUMBER.findall(got)
    want_text = re.sub(r"\s+", "", _NUMBER.sub("#", want))
    got_text = re.sub(r"\s+", "", _NUMBER.sub("#", got))
    if want_text != got_text or len(want_numbers) != len(got_numbers):
        return False
    for w, g in zip(want_numbers, got_numbers):
        if _is_float(w) or _is_float(g):
            if not (_is_float(w) and _is_float(g) and _floats_close(w, g)):
                return False
        elif w != g:
            return False
    return True


def _checker_class():
    base = _pytest_doctest._init_checker_class()

    class FloatTolerantChecker(base):
        def check_output(self, want: str, got: str, optionflags: int) -> bool:
            return super().check_output(want, got, optionflags) or outputs_close(want, got)

    return FloatTolerantChecker


_pytest_doctest.CHECKER_CLASS = _checker_class()
