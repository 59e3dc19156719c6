"""CTC loss cases shared by record_ctc.py (MindSpore) and tests/ops/test_ctc_loss.py (cellax).

Each case builds fixed NumPy inputs; ``normalized=False`` feeds raw (not log-softmaxed) scores,
which MindSpore uses as given.
"""

import numpy as np


def _scores(t, n, c, seed, normalized=True):
    x = np.random.default_rng(seed).standard_normal((t, n, c)).astype(np.float32)
    if normalized:
        x = x - np.log(np.exp(x).sum(-1, keepdims=True))
    return x.astype(np.float32)


def cases():
    """name -> dict(log_probs, targets, input_lengths, target_lengths, kwargs)."""
    out = {}

    def add(name, lp, targets, in_len, tgt_len, **kwargs):
        out[name] = dict(
            log_probs=lp,
            targets=np.asarray(targets, np.int32),
            input_lengths=np.asarray(in_len, np.int32),
            target_lengths=np.asarray(tgt_len, np.int32),
            kwargs=kwargs,
        )

    lp = _scores(6, 3, 5, 0)
    targets = [[1, 2, 3], [4, 4, 0], [2, 0, 0]]
    for reduction in ("mean", "sum", "none"):
        add(f"basic_{reduction}", lp, targets, [6, 5, 4], [3, 2, 1], reduction=reduction)
    add(
        "repeated_labels",
        lp,
        [[1, 1, 2], [3, 3, 3], [2, 2, 0]],
        [6, 6, 5],
        [3, 3, 2],
        reduction="none",
    )
    add(
        "blank_last",
        lp,
        [[0, 1, 2], [3, 0, 3], [1, 0, 0]],
        [6, 5, 4],
        [3, 3, 1],
        blank=4,
        reduction="none",
    )
    add(
        "blank_middle_mean",
        lp,
        [[0, 1, 3], [4, 4, 0], [1, 0, 0]],
        [6, 5, 4],
        [3, 2, 1],
        blank=2,
        reduction="mean",
    )
    # [3, 3, 3] needs 5 frames; 4 are given: infinite loss.
    impossible = dict(
        targets=[[1, 2, 3], [3, 3, 3], [2, 0, 0]], in_len=[6, 4, 4], tgt_len=[3, 3, 1]
    )
    for zero_inf in (False, True):
        for reduction in ("none", "mean", "sum"):
            add(
                f"impossible_{reduction}_zero_infinity_{zero_inf}",
                lp,
                impossible["targets"],
                impossible["in_len"],
                impossible["tgt_len"],
                reduction=reduction,
                zero_infinity=zero_inf,
            )
    add(
        "empty_target",
        lp,
        [[1, 2, 3], [0, 0, 0], [2, 0, 0]],
        [6, 5, 4],
        [3, 0, 1],
        reduction="none",
    )
    add(
        "empty_target_mean",
        lp,
        [[1, 2, 3], [0, 0, 0], [2, 0, 0]],
        [6, 5, 4],
        [3, 0, 1],
        reduction="mean",
    )
    raw = _scores(6, 3, 5, 1, normalized=False)
    for reduction in ("none", "mean"):
        add(f"unnormalized_{reduction}", raw, targets, [6, 5, 4], [3, 2, 1], reduction=reduction)
    add(
        "long",
        _scores(12, 2, 6, 2),
        [[1, 2, 1, 3, 5], [5, 5, 4, 0, 0]],
        [12, 9],
        [5, 3],
        reduction="none",
    )
    return out
