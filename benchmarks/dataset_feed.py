"""Does a map-heavy cellax.dataset pipeline keep a jitted train step fed, and what does it cost
over the same pipeline written by hand on grain?

    python benchmarks/dataset_feed.py            # 1024 images, 3 timed epochs per variant
    python benchmarks/dataset_feed.py --quick    # 256 images, 2 timed epochs

One epoch = shuffle, a deliberately costly per-image NumPy map (about a millisecond), batch,
then the jitted step of a small MLP on every batch. Variants, each with the map in 2 worker
processes:

* ``cellax``: ``NumpySlicesDataset(shuffle=True).map(heavy, num_parallel_workers=2,
  python_multiprocessing=True).batch(64, drop_remainder=True)`` read through one
  ``create_tuple_iterator(num_epochs=...)``, as a MindSpore script does;
* ``grain``: ``grain.MapDataset.range(n).shuffle(seed).repeat(epochs).map(...).batch(...)``
  ``.to_iter_dataset().mp_prefetch(2 workers)``, the loop a JAX user writes by hand.

Printed per variant: seconds per epoch for the data alone and for data + step, beside the step
alone on one cached batch. When loading overlaps the step, data + step approaches
max(data, step) rather than data + step. Standalone (not part of run.py): timings depend on the
machine's free cores, so compare variants only within one run.
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

BATCH = 64
WORKERS = 2


def heavy(image):
    """A deliberately costly Python/NumPy augmentation (about a millisecond per image)."""
    out = image.astype(np.float32)
    for _ in range(20):
        out = np.sqrt(out * out + 1.0)
    return (out / out.max()).astype(np.float32)


class _Rows:
    """Row ``i`` (image after ``heavy``, label) of the arrays: the hand-written grain map."""

    def __init__(self, images, labels):
        self.images, self.labels = images, labels

    def __call__(self, i):
        return heavy(self.images[i]), self.labels[i]


def _stack(rows):
    return tuple(np.stack(column) for column in zip(*rows))


def cellax_epochs(images, labels, epochs):
    from cellax import dataset as ds

    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=True)
    data = data.map(heavy, "image", num_parallel_workers=WORKERS, python_multiprocessing=True)
    data = data.batch(BATCH, drop_remainder=True)
    iterator = data.create_tuple_iterator(num_epochs=epochs)
    return lambda: iter(iterator)


def grain_epochs(images, labels, epochs):
    import grain
    from absl import flags

    from cellax import Tensor

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    steps = len(images) // BATCH
    data = grain.MapDataset.range(len(images)).shuffle(seed=0).repeat(epochs)
    data = data.map(_Rows(images, labels)).batch(BATCH, drop_remainder=True, batch_fn=_stack)
    options = grain.MultiprocessingOptions(num_workers=WORKERS, per_worker_buffer_size=8)
    iterator = iter(data.to_iter_dataset().mp_prefetch(options))

    def epoch():
        for _ in range(steps):
            x, y = next(iterator)
            yield Tensor(x), Tensor(y)

    return epoch


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    n, timed = (256, 2) if args.quick else (1024, 3)

    import cellax as ms
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

    x0 = ms.Tensor(np.stack([heavy(i) for i in images[:BATCH]]))
    y0 = ms.Tensor(labels[:BATCH])
    step(x0, y0).asnumpy()  # compile
    steps = n // BATCH

    def timed_run(fn):
        start = time.perf_counter()
        fn()
        return time.perf_counter() - start

    def step_only():
        for _ in range(steps):
            loss = step(x0, y0)
        loss.asnumpy()

    step_s = float(np.median([timed_run(step_only) for _ in range(timed)]))
    results = {"images": n, "batch": BATCH, "workers": WORKERS, "step_s": step_s}
    for name, build in (("cellax", cellax_epochs), ("grain", grain_epochs)):
        # 1 warm-up epoch (starts the worker processes), then data-only and data+step epochs
        epoch = build(images, labels, 1 + 2 * timed)
        for _ in epoch():
            pass

        def data_only():
            for _ in epoch():
                pass

        def both():
            for x, y in epoch():
                loss = step(x, y)
            loss.asnumpy()

        data = [timed_run(data_only) for _ in range(timed)]
        fed = [timed_run(both) for _ in range(timed)]
        results[name] = {"data_s": float(np.median(data)), "data_step_s": float(np.median(fed))}
    results["cellax_over_grain"] = (
        results["cellax"]["data_step_s"] / results["grain"]["data_step_s"]
    )
    if args.json:
        print(json.dumps(results))
        return
    print(f"{n} images, batch {BATCH}, {WORKERS} worker processes, seconds per epoch (median)")
    print(f"  step alone        {results['step_s']:.3f}")
    for name in ("cellax", "grain"):
        r = results[name]
        print(f"  {name:7s} data {r['data_s']:.3f}   data + step {r['data_step_s']:.3f}")
    print(f"  cellax / grain (data + step): {results['cellax_over_grain']:.2f}")


if __name__ == "__main__":
    main()
