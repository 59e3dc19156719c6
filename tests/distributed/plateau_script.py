"""ReduceLROnPlateau and EarlyStopping on two data-parallel ranks whose losses differ: both
watch the mean over the ranks (MindSpore's AllReduce); prints RESULT and JSON (run by
test_distributed)."""

import json

import numpy as np

import cellax as ms
from cellax import nn, train
from cellax.communication import get_rank, init
from cellax.train._callback import _InternalCallbackParam  # Model's cb_params

ms.set_auto_parallel_context(parallel_mode="data_parallel", gradients_mean=True)
init()
net = nn.Dense(2, 1)
optimizer = nn.SGD(net.trainable_params(), 0.1)
plateau = train.ReduceLROnPlateau(monitor="loss", patience=0, factor=0.5)
stop = train.EarlyStopping(monitor="loss", patience=5)
losses = {0: [1.0, 4.0], 1: [3.0, 0.5]}[get_rank()]  # means 2.0 then 2.25: no improvement
bests, rates = [], []
for epoch, loss in enumerate(losses, 1):
    params = _InternalCallbackParam(
        {
            "net_outputs": ms.Tensor(np.float32(loss)),
            "optimizer": optimizer,
            "cur_epoch_num": epoch,
            "train_network": net,
        }
    )
    context = train.RunContext(params)
    params = context.original_args()
    plateau.on_train_epoch_end(context)
    stop.on_train_epoch_end(context)
    bests.append([float(plateau.best), float(stop.best)])
    rates.append(float(optimizer.learning_rate.asnumpy()))
print("RESULT" + json.dumps({"bests": bests, "rates": rates}))
