"""Does a map-heavy cellax.dataset pipeline keep a jitted train step fed?

    python benchmarks/dataset_feed.py

Times one epoch of: the data alone, the step alone (on one cached batch), and both together,
with the map in the calling process and in 2 grain worker processes. When the pipeline runs
beside the step, "both" approaches max(data, step) rather than data + step. Standalone (not
part of run.py): timings depend on the machine's free cores.
"""

from __future__ import annotations

import time

import numpy as np


def heavy(image):
    """A deliberately costly Python/NumPy augmentation (about a millisecond per image)."""
    out = image.astype(np.float32)
    for _ in range(20):
        out = np.sqrt(out * out + 1.0)
    return (out / out.max()).astype(np.float32)


def main(n: int = 1024, batch: int = 64) -> None:
    import cellax as ms
    from cellax import dataset as ds
    from cellax import nn

    images = np.random.default_rng(0).integers(0, 256, (n, 32, 32, 3), dtype=np.uint8)
    labels = np.arange(n, dtype=np.int32) % 10
    net = nn.SequentialCell(nn.Flatten(), nn.Dense(32 * 32 * 3, 512), nn.ReLU(), nn.Dense(512, 10))
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(net.trainable_params(), 0.01)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y), None, optimizer.parameters)

    @ms.jit
    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss

    def pipeline(workers):
        data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=True)
        processes = workers > 1
        data = data.map(
            heavy, "image", num_parallel_workers=workers, python_multiprocessing=processes
        )
        return data.batch(batch, drop_remainder=True)

    def timed(fn):
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start

    x0, y0 = next(pipeline(1).create_tuple_iterator())
    step(x0, y0).asnumpy()  # compile
    steps = n // batch

    def step_only():
        for _ in range(steps):
            loss = step(x0, y0)
        loss.asnumpy()

    for workers in (1, 2):
        it = pipeline(workers).create_tuple_iterator(num_epochs=3)
        list(it)  # warm-up epoch (starts the worker processes)
        data_only = timed(lambda: list(it))

        def both():
            for x, y in it:
                loss = step(x, y)
            loss.asnumpy()

        together = timed(both)
        print(
            f"workers={workers}: data {data_only:.2f} s, step {timed(step_only):.2f} s, "
            f"both {together:.2f} s per epoch of {steps} batches"
        )


if __name__ == "__main__":
    main()
