"""Record MindSpore 2.10's ops.ctc_loss / nn.CTCLoss (values, log_alpha, gradients).

    /root/ms-ref/bin/python tests/goldens/record_ctc.py

Writes ctc.npz: ``<case>/loss``, ``<case>/log_alpha``, ``<case>/grad`` (gradient of the summed
loss with respect to log_probs) and ``<case>/cell`` (nn.CTCLoss's output). Cases are in
ctc_cases.py.
"""

import pathlib
import sys

import mindspore as ms
import numpy as np
from mindspore import nn, ops

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from ctc_cases import cases  # noqa: E402

T = ms.Tensor
out = {}
for name, case in cases().items():
    args = (T(case["targets"]), T(case["input_lengths"]), T(case["target_lengths"]))
    kwargs = case["kwargs"]
    loss, log_alpha = ops.ctc_loss(T(case["log_probs"]), *args, **kwargs)
    out[f"{name}/loss"] = loss.asnumpy()
    out[f"{name}/log_alpha"] = log_alpha.asnumpy()

    def total(lp, args=args, kwargs=kwargs):
        return ops.ctc_loss(lp, *args, **kwargs)[0].sum()

    out[f"{name}/grad"] = ms.grad(total)(T(case["log_probs"])).asnumpy()
    out[f"{name}/cell"] = nn.CTCLoss(**kwargs)(T(case["log_probs"]), *args).asnumpy()
np.savez(HERE / "ctc.npz", **out)
print(f"wrote {len(out)} arrays to ctc.npz")
