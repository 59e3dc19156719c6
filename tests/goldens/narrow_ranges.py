"""``ops.narrow`` / ``mint.narrow`` on a (2, 3) Tensor at the edges of their argument ranges.

Run under MindSpore 2.10 CPU (``python tests/goldens/narrow_ranges.py``) to record the outcomes
``tests/ops/test_array.py::test_narrow_ranges_like_mindspore`` expects.
"""

import numpy as np

ARGS = [(0, 0, 0), (1, 1, 0), (1, 3, 0), (1, 2, 2), (1, -1, 1), (1, 0, 4), (2, 0, 1)]


def outcome(ms, fn, args) -> str:
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    try:
        return f"ok {tuple(fn(x, *args).shape)}"
    except Exception as error:  # noqa: BLE001 - the type is the outcome
        return type(error).__name__


if __name__ == "__main__":
    import mindspore

    print({str(a): outcome(mindspore, mindspore.ops.narrow, a) for a in ARGS})
    # mint.narrow: each case in a fresh process (2.10 keeps a stale error message after one)
    print({str(a): outcome(mindspore, mindspore.mint.narrow, a) for a in ARGS[:3]})
