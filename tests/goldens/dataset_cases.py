"""The dataset golden cases: pipelines built under MindSpore (recording) and cellax (tests).

Each case is ``(build, epochs)``: ``build(ds)`` gets the dataset module (``mindspore.dataset`` or
``cellax.dataset``), sets the seed it needs and returns a dataset; :func:`run` iterates it for
``epochs`` epochs through ONE ``create_tuple_iterator(num_epochs=epochs, output_numpy=True)``
and returns JSON: the column names, the dataset size and every row as ``[values, dtype]``
pairs. Data is small and generated, so nothing depends on files.
"""

import numpy as np


def _slices(ds, n=10, shuffle=False, **kw):
    return ds.NumpySlicesDataset({"a": np.arange(n), "b": np.arange(n) * 10}, shuffle=shuffle, **kw)


def _gen_rows():
    for i in range(6):
        yield np.arange(i % 3 + 1, dtype=np.int32), np.float32(i / 2)


def _images(ds):
    pixels = np.random.default_rng(0).integers(0, 256, (2, 7, 9, 3), dtype=np.uint8)
    return ds.NumpySlicesDataset({"img": pixels}, shuffle=False)


def _seeded(seed, make):
    def build(ds):
        ds.config.set_seed(seed)
        return make(ds)

    return build


CASES = {}
for _seed in (0, 5, 1234):
    for _n in (7, 10, 300):
        CASES[f"random_sampler/{_seed}/{_n}"] = (
            _seeded(_seed, lambda ds, n=_n: ds.NumpySlicesDataset(np.arange(n), shuffle=True)),
            3,
        )
    CASES[f"distributed/{_seed}/3/1"] = (
        _seeded(_seed, lambda ds: _slices(ds, shuffle=True, num_shards=3, shard_id=1)),
        2,
    )
    CASES[f"distributed/{_seed}/4/3"] = (
        _seeded(_seed, lambda ds: _slices(ds, shuffle=True, num_shards=4, shard_id=3)),
        2,
    )
    CASES[f"subset_random/{_seed}"] = (
        _seeded(
            _seed,
            lambda ds: _slices(ds, sampler=ds.SubsetRandomSampler([9, 3, 5, 1, 7]), shuffle=None),
        ),
        3,
    )
    CASES[f"random_num_samples/{_seed}"] = (
        _seeded(
            _seed, lambda ds: _slices(ds, shuffle=None, sampler=ds.RandomSampler(num_samples=4))
        ),
        2,
    )
    CASES[f"random_replacement/{_seed}"] = (
        _seeded(
            _seed,
            lambda ds: _slices(ds, shuffle=None, sampler=ds.RandomSampler(replacement=True)),
        ),
        2,
    )
    for _size in (2, 4, 100):
        CASES[f"shuffle_buffer/{_seed}/{_size}"] = (
            _seeded(_seed, lambda ds, s=_size: _slices(ds).shuffle(s)),
            3,
        )
    CASES[f"shuffled_source_then_buffer_then_batch/{_seed}"] = (
        _seeded(_seed, lambda ds: _slices(ds, shuffle=True).shuffle(3).batch(4)),
        2,
    )

for _seed in (3, 58):
    # a randomized split: one order per split, drawn with the seed when the split is read
    for _k in (0, 1):
        CASES[f"split_random/{_seed}/{_k}"] = (
            _seeded(_seed, lambda ds, k=_k: _slices(ds).split([0.8, 0.2])[k]),
            2,
        )
    CASES[f"split_random_after_map/{_seed}"] = (
        _seeded(
            _seed,
            lambda ds: _slices(ds).map(lambda a: a + 1, input_columns="a").split([0.7, 0.3])[1],
        ),
        2,
    )
for _n, _sizes in ((10, (0.33, 0.33, 0.34)), (10, (0.26, 0.26, 0.48)), (7, (0.5, 0.5))):
    for _k in (0, len(_sizes) - 1):  # rounding: the first split takes or gives up the rest
        CASES[f"split_rounding/{_n}/{_sizes}/{_k}"] = (
            lambda ds, n=_n, sizes=_sizes, k=_k: _slices(ds, n=n).split(
                list(sizes), randomize=False
            )[k],
            1,
        )

CASES.update(
    {
        "sequential_shards/4/2": (lambda ds: _slices(ds, num_shards=4, shard_id=2), 1),
        "sequential_sampler": (
            lambda ds: _slices(ds, shuffle=None, sampler=ds.SequentialSampler(2, 5)),
            1,
        ),
        "map_same_count": (
            lambda ds: _slices(ds).map(lambda b: b + 1, input_columns=["b"], output_columns=["z"]),
            1,
        ),
        "map_more_outputs": (
            lambda ds: _slices(ds).map(
                lambda a: (a, a * a), input_columns=["a"], output_columns=["x", "y"]
            ),
            1,
        ),
        "map_fewer_outputs": (
            lambda ds: _slices(ds).map(
                lambda b, a: a + b, input_columns=["b", "a"], output_columns=["s"]
            ),
            1,
        ),
        "map_chain_ops": (
            lambda ds: _slices(ds).map([lambda a: a * 2, lambda a: a + 1], input_columns="a"),
            1,
        ),
        "map_float_cast": (
            lambda ds: _slices(ds).map(ds.transforms.TypeCast(np.float32), input_columns="a"),
            1,
        ),
        "batch_3": (lambda ds: _slices(ds).batch(3), 1),
        "batch_3_drop": (lambda ds: _slices(ds).batch(3, drop_remainder=True), 1),
        "per_batch_map": (
            lambda ds: _slices(ds).batch(
                4,
                per_batch_map=lambda a, info: (
                    [x * 0 + info.get_batch_num() * 100 + info.get_epoch_num() for x in a],
                ),
                input_columns=["a"],
            ),
            2,
        ),
        "per_batch_map_new_columns": (
            lambda ds: _slices(ds).batch(
                4,
                per_batch_map=lambda a, b, info: (a, [x + y for x, y in zip(a, b)], b),
                input_columns=["a", "b"],
                output_columns=["a", "s", "b"],
            ),
            1,
        ),
        "padded_batch": (
            lambda ds: ds.GeneratorDataset(_gen_rows, ["v", "w"]).padded_batch(
                4, pad_info={"v": ([4], -1)}
            ),
            1,
        ),
        "padded_batch_longest": (
            lambda ds: ds.GeneratorDataset(_gen_rows, ["v", "w"]).padded_batch(4, pad_info={}),
            1,
        ),
        "generator_dtypes": (lambda ds: ds.GeneratorDataset(_gen_rows, ["v", "w"]), 1),
        "python_scalars": (
            lambda ds: ds.GeneratorDataset(
                [(1, 2.5, True), (3, 4.5, False)], ["i", "f", "b"], shuffle=False
            ),
            1,
        ),
        "slices_tuple": (
            lambda ds: ds.NumpySlicesDataset(
                (np.ones((3, 2), np.float32), [1, 2, 3]), shuffle=False
            ),
            1,
        ),
        "slices_list": (lambda ds: ds.NumpySlicesDataset([1.5, 2.5], shuffle=False), 1),
        "repeat_then_batch": (lambda ds: _slices(ds, n=5).repeat(2).batch(4), 1),
        "batch_then_repeat": (lambda ds: _slices(ds, n=5).batch(4).repeat(2), 1),
        "take_skip": (lambda ds: _slices(ds).skip(2).take(5), 1),
        "zip": (
            lambda ds: ds.zip(
                (_slices(ds, n=4).project("a"), _slices(ds, n=6).rename(["a", "b"], ["c", "d"]))
            ),
            1,
        ),
        "concat": (lambda ds: _slices(ds, n=3) + _slices(ds, n=2), 1),
        "project": (lambda ds: _slices(ds).project(["b", "a"]), 1),
        "rename": (lambda ds: _slices(ds).rename(["a"], ["A"]), 1),
        "filter": (
            lambda ds: _slices(ds).filter(lambda a: a % 3 == 0, input_columns=["a"]).batch(2),
            1,
        ),
        "split_first": (lambda ds: _slices(ds).split([0.7, 0.3], randomize=False)[0], 1),
        "split_second": (lambda ds: _slices(ds).split([4, 6], randomize=False)[1], 1),
        "onehot": (
            lambda ds: _slices(ds, n=4).map(ds.transforms.OneHot(5), input_columns="a"),
            1,
        ),
        "vision_chain": (
            lambda ds: ds.NumpySlicesDataset(
                {"img": np.arange(2 * 4 * 6 * 3, dtype=np.uint8).reshape(2, 4, 6, 3)},
                shuffle=False,
            ).map(
                [
                    ds.vision.CenterCrop((2, 4)),
                    ds.vision.HorizontalFlip(),
                    ds.vision.Rescale(1.0 / 255.0, -0.5),
                    ds.vision.Normalize([0.1, 0.2, 0.3], [0.5, 0.5, 0.5]),
                    ds.vision.HWC2CHW(),
                ],
                input_columns="img",
            ),
            1,
        ),
        "resize": (
            lambda ds: _images(ds).map(
                [ds.vision.Resize((12, 15)), ds.vision.Resize(5), ds.vision.Resize((4, 3))],
                input_columns="img",
            ),
            1,
        ),
        "resize_nearest": (
            lambda ds: _images(ds).map(
                ds.vision.Resize((5, 13), ds.vision.Inter.NEAREST), input_columns="img"
            ),
            1,
        ),
        "resize_float": (
            lambda ds: _images(ds).map(
                [ds.vision.Rescale(1.0 / 255.0, 0.0), ds.vision.Resize((4, 11))],
                input_columns="img",
            ),
            1,
        ),
        "pad_crop": (
            lambda ds: _images(ds).map(
                [
                    ds.vision.Pad((1, 2), fill_value=7),
                    ds.vision.Pad(2, padding_mode=ds.vision.Border.REFLECT),
                    ds.vision.CenterCrop(10),
                    ds.vision.Crop((1, 2), (4, 5)),
                    ds.vision.VerticalFlip(),
                ],
                input_columns="img",
            ),
            1,
        ),
        "to_tensor": (
            lambda ds: ds.NumpySlicesDataset(
                {"img": np.arange(2 * 2 * 3 * 3, dtype=np.uint8).reshape(2, 2, 3, 3) * 7},
                shuffle=False,
            ).map(ds.vision.ToTensor(), input_columns="img"),
            1,
        ),
    }
)


def run(dataset, epochs: int) -> dict:
    """Iterate ``epochs`` epochs through one iterator; return JSON-ready results."""
    iterator = dataset.create_tuple_iterator(num_epochs=epochs, output_numpy=True)
    out = {"columns": dataset.get_col_names(), "epochs": []}
    for _ in range(epochs):
        rows = []
        for row in iterator:
            rows.append([[np.asarray(v).tolist(), str(np.asarray(v).dtype)] for v in row])
        out["epochs"].append(rows)
    out["size"] = dataset.get_dataset_size()
    return out
