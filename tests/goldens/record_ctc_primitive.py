"""Record the old-style ``ops.CTCLoss`` primitive (sparse labels, scores softmaxed inside, blank
last) under MindSpore 2.10 CPU; run from /tmp with the oracle venv:

    cd /tmp && /root/ms-ref/bin/python /path/to/tests/goldens/record_ctc_primitive.py

Writes ctc_primitive.json: per case, the loss and (for frames inside each sample's sequence
length) the gradient output; "errors": cases MindSpore rejects.
"""

import json
import pathlib

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent

# name -> (labels per sample, sequence lengths, primitive kwargs)
CASES = {
    "plain": ([[1, 2], [0, 0]], [6, 6], {}),
    "blank_padding": ([[1, 2, 4, 4, 4], [0, 0, 4, 4, 4]], [6, 6], {}),
    "short_sequence": ([[1, 2], [0, 0]], [4, 6], {}),
    "collapse": ([[1, 2], [0, 0]], [6, 6], {"preprocess_collapse_repeated": True}),
    "too_long_ignored": (
        [[1, 2, 3, 1, 2, 3, 1], [0]],
        [3, 6],
        {"ignore_longer_outputs_than_inputs": True},
    ),
}
ERRORS = {"too_long": ([[1, 2, 3, 1, 2, 3, 1], [0]], [3, 6], {})}


def scores():
    return np.random.default_rng(0).standard_normal((6, 2, 5)).astype(np.float32)


def sparse(labels):
    indices = [[b, j] for b, row in enumerate(labels) for j in range(len(row))]
    values = [v for row in labels for v in row]
    return np.array(indices, np.int64), np.array(values, np.int32)


def main() -> None:
    import mindspore as ms
    from mindspore import ops

    def run(labels, lengths, kwargs):
        indices, values = sparse(labels)
        loss, grad = ops.CTCLoss(**kwargs)(
            ms.Tensor(scores()), ms.Tensor(indices), ms.Tensor(values),
            ms.Tensor(np.array(lengths, np.int32)),
        )  # fmt: skip
        grad = grad.asnumpy()
        frames = np.arange(6)[:, None] < np.array(lengths)[None, :]
        return {
            "loss": loss.asnumpy().tolist(),
            "grad": np.where(frames[..., None], grad, 0).tolist(),
        }

    out = {name: run(*case) for name, case in CASES.items()}
    out["errors"] = {}
    for name, case in ERRORS.items():
        try:
            run(*case)
        except RuntimeError as error:
            out["errors"][name] = type(error).__name__
    (HERE / "ctc_primitive.json").write_text(json.dumps(out) + "\n")


if __name__ == "__main__":
    main()
