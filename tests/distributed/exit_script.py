"""OnRequestExit on two data-parallel ranks with MS_ENABLE_GRACEFUL_EXIT=1: rank 0 alone gets
the exit signal after step 2; both ranks stop at the end of step 3 and save their checkpoint
under rank_<DEVICE_ID>; prints RESULT and JSON (run by test_distributed)."""

import json
import os
import signal
import sys

import numpy as np

import cellax as ms
from cellax import nn, train
from cellax.communication import get_rank, init

os.environ["MS_ENABLE_GRACEFUL_EXIT"] = "1"  # read when the callback is built
ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
init()
directory = sys.argv[1]
net = nn.Dense(2, 1)
model = train.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
data = [(np.ones((2, 2), np.float32), np.ones((2, 1), np.float32))] * 6
steps = []


def step_end(context):
    steps.append(context.original_args().cur_step_num)
    if get_rank() == 0 and steps[-1] == 2:
        os.kill(os.getpid(), signal.SIGUSR1)


on_exit = train.OnRequestExit(save_mindir=False, directory=directory, sig=signal.SIGUSR1)
model.train(1, data, callbacks=[train.LambdaCallback(on_train_step_end=step_end), on_exit])
folder = os.path.join(directory, f"rank_{ms.get_context('device_id')}")
print("RESULT" + json.dumps({"steps": steps, "files": sorted(os.listdir(folder))}))
