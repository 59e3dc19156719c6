"""Does a map-heavy cellax.dataset pipeline keep a jitted train step fed, and what does it cost
over the same pipeline written by hand on grain?

    python benchmarks/dataset_feed.py            # 1024 images, 10 timed epochs per measurement
    python benchmarks/dataset_feed.py --quick    # 256 images, 4 timed epochs

One epoch = shuffle, a deliberately costly per-image NumPy map (tens of microseconds of NumPy
work per image, in Python), batch, then the jitted step of a small MLP on every batch. Variants,
each with the map in 2 worker processes:

* ``cellax``: ``NumpySlicesDataset(shuffle=True).map(heavy, num_parallel_workers=2,
  python_multiprocessing=True).batch(64, drop_remainder=True)`` read through one
  ``create_tuple_iterator(num_epochs=...)``, as a MindSpore script does;
* ``grain``: ``grain.MapDataset.range(n).shuffle(seed).repeat(epochs).map(...).batch(...)``
  ``.to_iter_dataset(reads).mp_prefetch(2 workers)``, the loop a JAX user writes by hand, with
  the read-ahead cellax uses in its workers (one reader thread, 2 elements: grain's default of
  16 threads and 500 elements per worker would compute the timed epochs of this small dataset
  during the warm-up, and the benchmark would time the buffer).

Every figure is a steady state: a fresh pipeline reads 2 epochs first (starting the workers and
draining what they read ahead while idle), then the timed epochs run back to back and their mean
is reported, so that read-ahead buffers cannot make a few epochs look faster than the workers
produce. Beside wall time per epoch, the CPU time of the whole process tree (main process and
worker processes, with ``psutil``) per epoch is printed: on a machine with few cores, loading and
the step compete for them, and data + step cannot go below

    floor = max(data, step, (CPU of data + CPU of step) / cores)

``fed`` = (data + step) / floor: 1.0 means the step runs as fast as the cores allow. Standalone
(not part of run.py): timings depend on the machine's free cores, so compare variants only
within one run.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

BATCH = 64
WORKERS = 2
WARM = 2  # epochs read before timing
TIMED = [10]  # epochs timed (set by --quick)


def heavy(image):
    """A deliberately costly Python/NumPy augmentation (about 50 microseconds per image)."""
    out = image.astype(np.float32)
    for _ in range(20):
        out = np.sqrt(out * out + 1.0)
    return (out / out.max()).astype(np.float32)


def waiting(image):
    """An I/O-bound map: sleeps 0.1 ms per image (about 0.2 ms with timer slack), as reading a file
    waits, and converts it; little CPU, so loading can overlap the step even on few cores."""
    time.sleep(1e-4)
    return image.astype(np.float32) / 255.0


MAPS = {"heavy": heavy, "io": waiting}


class _Rows:
    """Row ``i`` (image after the map, label) of the arrays: the hand-written grain map."""

    def __init__(self, images, labels, fn):
        self.images, self.labels, self.fn = images, labels, fn

    def __call__(self, i):
        return self.fn(self.images[i]), self.labels[i]


def _stack(rows):
    return tuple(np.stack(column) for column in zip(*rows))


def cellax_epochs(images, labels, epochs, fn=heavy):
    from cellax import dataset as ds

    data = ds.NumpySlicesDataset({"image": images, "label": labels}, shuffle=True)
    data = data.map(fn, "image", num_parallel_workers=WORKERS, python_multiprocessing=True)
    data = data.batch(BATCH, drop_remainder=True)
    iterator = data.create_tuple_iterator(num_epochs=epochs)
    return (lambda: iter(iterator)), iterator.stop


def grain_epochs(images, labels, epochs, fn=heavy):
    import grain
    from absl import flags

    from cellax import Tensor

    if not flags.FLAGS.is_parsed():
        flags.FLAGS.mark_as_parsed()
    steps = len(images) // BATCH
    data = grain.MapDataset.range(len(images)).shuffle(seed=0).repeat(epochs)
    data = data.map(_Rows(images, labels, fn)).batch(BATCH, drop_remainder=True, batch_fn=_stack)
    options = grain.MultiprocessingOptions(num_workers=WORKERS, per_worker_buffer_size=8)
    # the read-ahead cellax's workers use: with grain's default (16 threads and 500 elements per
    # worker) the workers compute the timed epochs during the warm-up, measuring the buffer
    reads = grain.ReadOptions(num_threads=1, prefetch_buffer_size=2)
    iterator = iter(data.to_iter_dataset(reads).mp_prefetch(options))

    def epoch():
        for _ in range(steps):
            x, y = next(iterator)
            yield Tensor(x), Tensor(y)

    return epoch, getattr(iterator, "close", lambda: None)


def _process_tree_cpu() -> float | None:
    """CPU seconds used so far by this process and its live descendants (None without psutil)."""
    try:
        import psutil
    except ImportError:
        return None
    me = psutil.Process()
    total = 0.0
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:  # a child that ended between the listing and the read
            continue
        total += times.user + times.system
    return total


def _measure(run, epochs: int):
    """(wall seconds, CPU seconds or None) per epoch of ``run(epochs)``."""
    cpu, start = _process_tree_cpu(), time.perf_counter()
    run(epochs)
    wall = time.perf_counter() - start
    end_cpu = _process_tree_cpu()
    used = None if cpu is None or end_cpu is None else (end_cpu - cpu) / epochs
    return wall / epochs, used


def _feed(fn, images, labels, step, step_s, step_cpu, cores):
    """Data alone and data + step per epoch for the cellax and the grain pipeline of ``fn``."""
    steady = {}
    for name, build in (("cellax", cellax_epochs), ("grain", grain_epochs)):
        row = {}
        for mode in ("data", "data_step"):
            # a fresh pipeline per measurement, ended after it (idle workers read ahead)
            epoch, close = build(images, labels, WARM + TIMED[0], fn)
            for _ in range(WARM):
                for _ in epoch():
                    pass

            def run(epochs, epoch=epoch, with_step=mode == "data_step"):
                for _ in range(epochs):
                    for x, y in epoch():
                        if with_step:
                            loss = step(x, y)
                if with_step:
                    loss.asnumpy()

            wall, cpu = _measure(run, TIMED[0])
            close()
            time.sleep(1.0)  # let the ended workers exit before the next measurement
            row[mode] = {"wall_s": wall, "cpu_s": cpu}
        data, both = row["data"], row["data_step"]
        floor = max(data["wall_s"], step_s)
        if data["cpu_s"] is not None and step_cpu is not None:
            floor = max(floor, (data["cpu_s"] + step_cpu) / cores)
        row["floor_s"] = floor
        row["fed"] = both["wall_s"] / floor
        steady[name] = row
    return steady


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--maps", default="heavy,io", help="comma-separated: heavy, io")
    args = parser.parse_args()
    n, timed = (256, 4) if args.quick else (1024, 10)
    TIMED[0] = timed

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

    def step_only(epochs):
        for _ in range(epochs * steps):
            loss = step(x0, y0)
        loss.asnumpy()

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    step_s, step_cpu = _measure(step_only, timed)
    results = {
        "images": n,
        "batch": BATCH,
        "workers": WORKERS,
        "cores": cores,
        "timed_epochs": timed,
        "step": {"wall_s": step_s, "cpu_s": step_cpu},
    }
    maps = args.maps.split(",")
    for map_name in maps:
        results[map_name] = _feed(MAPS[map_name], images, labels, step, step_s, step_cpu, cores)
        results[map_name]["cellax_over_grain"] = (
            results[map_name]["cellax"]["data_step"]["wall_s"]
            / results[map_name]["grain"]["data_step"]["wall_s"]
        )
    if args.json:
        print(json.dumps(results))
        return

    def cpu_text(cpu):
        return "   n/a" if cpu is None else f"{cpu:6.3f}"

    print(
        f"{n} images, batch {BATCH}, {WORKERS} worker processes, {cores} cores; seconds per "
        f"epoch, mean of {timed} epochs after {WARM} warm-up epochs (wall / CPU of all processes)"
    )
    print(f"  step alone                {step_s:6.3f} / {cpu_text(step_cpu)}")
    for map_name in maps:
        for name in ("cellax", "grain"):
            r = results[map_name][name]
            print(
                f"  {map_name:5s} {name:6s} data {r['data']['wall_s']:6.3f} / "
                f"{cpu_text(r['data']['cpu_s'])}   data + step {r['data_step']['wall_s']:6.3f} / "
                f"{cpu_text(r['data_step']['cpu_s'])}   floor {r['floor_s']:.3f}   "
                f"fed {r['fed']:.2f}"
            )
        ratio = results[map_name]["cellax_over_grain"]
        print(f"  {map_name:5s} cellax / grain (data + step): {ratio:.2f}")


if __name__ == "__main__":
    main()
