"""Iterators, epochs, seeds, sizes and errors of cellax.dataset pipelines (behaviour settled
with MindSpore 2.10; see tests/goldens/record_dataset.py for the recorded pipelines)."""

import os
import subprocess
import sys

import numpy as np
import pytest

import cellax as ms
from cellax import dataset as ds


def _slices(n=10, **kw):
    kw.setdefault("shuffle", False)
    return ds.NumpySlicesDataset({"a": np.arange(n), "b": np.arange(n) * 10.0}, **kw)


def test_tuple_iterator_yields_tensors_with_dtypes():
    row = next(_slices().create_tuple_iterator())
    assert isinstance(row, list) and all(isinstance(v, ms.Tensor) for v in row)
    assert row[0].dtype == ms.int64 and row[1].dtype == ms.float64
    batch = next(_slices().batch(4).create_tuple_iterator())
    assert batch[0].shape == (4,)
    np.testing.assert_array_equal(batch[1].asnumpy(), [0.0, 10.0, 20.0, 30.0])


def test_dict_iterator_and_columns_argument():
    rows = list(_slices(3).create_dict_iterator(output_numpy=True))
    assert list(rows[0]) == ["a", "b"] and [int(r["a"]) for r in rows] == [0, 1, 2]
    picked = next(_slices().create_tuple_iterator(columns=["b"], output_numpy=True))
    assert len(picked) == 1 and float(picked[0]) == 0.0
    with pytest.raises(RuntimeError, match="'zz'"):
        _slices().create_tuple_iterator(columns=["zz"])


def test_epochs_and_num_epochs_limit():
    iterator = _slices(3).create_tuple_iterator(num_epochs=2, output_numpy=True)
    assert [[int(r[0]) for r in iterator] for _ in range(2)] == [[0, 1, 2]] * 2
    with pytest.raises(RuntimeError, match="num_epochs"):
        next(iterator)
    endless = _slices(2).create_tuple_iterator(output_numpy=True)
    assert sum(len(list(endless)) for _ in range(5)) == 10
    assert [int(r[0]) for r in _slices(3)] == [0, 1, 2]  # iterating the dataset itself


def test_global_seed_sets_dataset_seed():
    ms.set_seed(3)  # as in MindSpore, mindspore.set_seed also sets the dataset seed
    assert ds.config.get_seed() == 3
    order = [int(r[0]) for r in _slices(6, shuffle=True).create_tuple_iterator(output_numpy=True)]
    assert order == [3, 1, 0, 5, 2, 4]  # MindSpore 2.10's order for seed 3
    ds.config.set_seed(3)
    again = [int(r[0]) for r in _slices(6, shuffle=True).create_tuple_iterator(output_numpy=True)]
    assert again == order
    with pytest.raises(ValueError):
        ds.config.set_seed(-1)


def test_distributed_sampler_same_order_for_every_iterator():
    ds.config.set_seed(0)
    data = ds.NumpySlicesDataset(np.arange(10), shuffle=True, num_shards=2, shard_id=0)
    orders = [[int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)] for _ in range(2)]
    assert orders == [[9, 2, 7, 6, 1]] * 2  # MindSpore 2.10


def test_sizes_shapes_types():
    data = _slices().batch(4)
    assert data.get_dataset_size() == 3 and data.get_batch_size() == 4
    assert data.output_shapes() == [[4], [4]]
    assert data.output_types() == [np.dtype("int64"), np.dtype("float64")]
    assert _slices().filter(lambda a: a < 4, ["a"]).get_dataset_size() == 4
    gen = ds.GeneratorDataset(lambda: iter([(np.ones(2),)] * 5), ["x"])
    assert gen.get_dataset_size() == 5


def test_len_is_dataset_size():
    # MindSpore 2.10: len(dataset) is get_dataset_size() (mindone's training scripts size their
    # learning-rate schedules with len(train_dataloader)); 10 rows batched by 4 -> 3, or 2
    # dropping the remainder, repeated 3 times -> 9, take(7) -> 7
    assert len(_slices()) == 10 and len(_slices().batch(4)) == 3
    assert len(_slices().batch(4, drop_remainder=True)) == 2
    assert len(_slices().batch(4).repeat(3)) == 9 and len(_slices().take(7)) == 7
    assert len(_slices().filter(lambda a: a < 4, ["a"])) == 4
    gen = ds.GeneratorDataset(lambda: iter([(np.ones(2),)] * 3), ["x"])
    assert len(gen) == 3 and bool(gen)


def test_dataset_size_attribute():
    # MindSpore 2.10: None until get_dataset_size() is asked, then its value (mindyolo's trainer
    # reads loader.dataset_size); a value assigned to it is what get_dataset_size() returns
    data = _slices().batch(3)
    repeated = data.repeat(2)
    assert data.dataset_size is None and repeated.dataset_size is None
    assert data.get_dataset_size() == 4 and data.dataset_size == 4
    assert repeated.dataset_size is None
    assert repeated.get_dataset_size() == 8 and repeated.dataset_size == 8
    data.dataset_size = 7
    assert data.get_dataset_size() == 7
    counted = _slices().filter(lambda a: a < 4, ["a"])
    assert counted.dataset_size is None and counted.get_dataset_size() == 4 == counted.dataset_size


def test_random_access_generator_source_with_sampler_and_shards():
    class Source:
        def __getitem__(self, i):
            return np.array([i, -i]), np.array(i * 1.5, np.float32)

        def __len__(self):
            return 6

    data = ds.GeneratorDataset(Source(), ["x", "y"], sampler=ds.SequentialSampler(1, 3))
    assert [r[0].tolist() for r in data.create_tuple_iterator(output_numpy=True)] == [
        [1, -1],
        [2, -2],
        [3, -3],
    ]
    shard = ds.GeneratorDataset(Source(), ["x", "y"], shuffle=False, num_shards=4, shard_id=1)
    assert [int(r[0][0]) for r in shard.create_tuple_iterator(output_numpy=True)] == [1, 5]


def test_errors_name_the_operation():
    with pytest.raises(RuntimeError, match="'map'.*'zz'"):
        list(_slices().map(lambda x: x, input_columns=["zz"]))
    with pytest.raises(RuntimeError, match="'map'.*ZeroDivisionError"):
        list(_slices().map(lambda a: 1 // 0, input_columns="a"))
    with pytest.raises(RuntimeError, match="'project'"):
        _slices().project(["zz"]).get_col_names()
    with pytest.raises(RuntimeError, match="'batch'.*different shapes"):
        list(ds.GeneratorDataset([(np.arange(1),), (np.arange(2),)], ["v"]).batch(2))
    with pytest.raises(TypeError, match="pad_info"):
        _slices().batch(2, pad_info={})
    with pytest.raises(ValueError, match="batch_size"):
        _slices().batch(0)
    with pytest.raises(ValueError, match="shard_id"):
        _slices(num_shards=2, shard_id=2)
    with pytest.raises(ValueError, match="together"):
        _slices(num_shards=2)
    with pytest.raises(RuntimeError, match="'map'.*2 columns"):
        list(_slices().map(lambda a: (a, a), input_columns="a"))

    def broken():
        yield (np.array(1),)
        raise ValueError("boom")

    with pytest.raises(RuntimeError, match="GeneratorDataset.*ValueError: boom"):
        list(ds.GeneratorDataset(broken, ["x"]))
    with pytest.raises(ValueError, match="random-access"):
        ds.GeneratorDataset(broken, ["x"], shuffle=True)
    with pytest.raises(ValueError, match="'shuffle'"):
        _slices().shuffle(1)
    with pytest.raises(ValueError, match="'zip'"):
        ds.zip((_slices(), _slices())).get_col_names()


def test_split_randomized_covers_all_rows_once():
    first, second = _slices().split([0.6, 0.4])
    a = [int(r[0]) for r in first.create_tuple_iterator(output_numpy=True)]
    b = [int(r[0]) for r in second.create_tuple_iterator(output_numpy=True)]
    assert len(a) == 6 and len(b) == 4 and sorted(a + b) == list(range(10))
    # MindSpore 2.10's types: RuntimeError for int sizes not adding up to the dataset size or a
    # fraction too small for a row, ValueError for a non-positive size or fractions not summing
    # to 1, TypeError for mixed sizes.
    with pytest.raises(RuntimeError, match="'split'.*add up to the dataset size 10"):
        _slices().split([3, 3])
    with pytest.raises(RuntimeError, match="'split'.*too small"):
        _slices().split([0.04, 0.96])
    with pytest.raises(ValueError, match="'split'"):
        _slices().split([0, 10])
    with pytest.raises(ValueError, match="'split'"):
        _slices().split([0.5, 0.6])
    with pytest.raises(TypeError, match="'split'"):
        _slices().split([5, 0.5])


def test_randomized_split_draws_its_order_with_the_seed_when_read():
    ms.dataset.config.set_seed(3)
    first, _ = _slices().split([0.8, 0.2])
    ms.dataset.config.set_seed(5)  # MindSpore 2.10 reads with the seed set last: 5
    got = [int(r[0]) for r in first.create_tuple_iterator(output_numpy=True)]
    whole = [int(r[0]) for r in _slices(shuffle=True).create_tuple_iterator(output_numpy=True)]
    assert got == whole[:8] == [3, 8, 5, 2, 4, 6, 7, 1]  # MindSpore 2.10's order for seed 5


def test_repeat_reshuffles_and_take_on_shuffled_source():
    ds.config.set_seed(5)
    data = ds.NumpySlicesDataset(np.arange(10), shuffle=True).repeat(2)
    rows = [int(r[0]) for r in data.create_tuple_iterator(output_numpy=True)]
    # a repeat runs the source's next epoch: MindSpore's epoch 0 and epoch 1 orders for seed 5
    assert rows == [3, 8, 5, 2, 4, 6, 7, 1, 9, 0, 3, 7, 5, 0, 8, 2, 4, 9, 6, 1]


def test_repeat_count_num_classes_and_apply_as_mindspore(tmp_path):
    # values printed by MindSpore 2.10 for the same pipelines
    from PIL import Image

    def make():
        return ds.NumpySlicesDataset({"a": np.arange(6)}, shuffle=False)

    counts = [
        make().get_repeat_count(),
        make().repeat(3).get_repeat_count(),
        make().repeat(3).batch(2).get_repeat_count(),
        make().repeat(2).repeat(3).get_repeat_count(),
        make().repeat(-1).get_repeat_count(),
        make().repeat(2).map(lambda x: x).get_repeat_count(),
    ]
    assert counts == [1, 3, 3, 3, -1, 2]
    assert make().num_classes() is None
    for name in "ab":
        os.makedirs(tmp_path / name)
        Image.new("RGB", (4, 4)).save(tmp_path / name / "0.png")
    folder = ds.ImageFolderDataset(str(tmp_path))
    assert folder.num_classes() == 2 and folder.batch(1).num_classes() == 2
    assert make().apply(lambda d: d.batch(2)).get_dataset_size() == 3
    with pytest.raises(TypeError):
        make().apply(lambda d: 3)


class _EpochSampler:
    """A stateful user sampler (as mindcv's RepeatAugSampler): each iter() is the next epoch."""

    def __init__(self):
        self.epoch = 0

    def __iter__(self):
        self.epoch += 1
        return iter([self.epoch % 5, (self.epoch + 2) % 5])

    def __len__(self):
        return 2


def test_user_defined_sampler_is_read_once_per_epoch():
    sampler = _EpochSampler()
    data = ds.NumpySlicesDataset({"x": np.arange(5) * 10}, sampler=sampler)
    data = data.map(lambda x: x + 1, "x", num_parallel_workers=2)
    assert data.get_dataset_size() == 2
    it = data.create_tuple_iterator(num_epochs=3, output_numpy=True)
    epochs = [[int(r[0]) for r in it] for _ in range(3)]
    assert epochs == [[11, 31], [21, 41], [31, 1]]
    assert sampler.epoch == 3
    with pytest.raises(TypeError):
        ds.NumpySlicesDataset(np.arange(3), sampler=3)


def test_distributed_sampler_checks_types_at_creation_and_range_when_read():
    # MindSpore 2.10 accepts an out-of-range shard_id when the sampler is created and raises
    # RuntimeError when the pipeline is sized or iterated; a non-int is a TypeError at once.
    with pytest.raises(TypeError, match="DistributedSampler.*'shard_id'"):
        ds.DistributedSampler(2, 1.0)
    with pytest.raises(TypeError, match="DistributedSampler.*'num_shards'"):
        ds.DistributedSampler("a", 0)
    for num_shards, shard_id in ((2, 2), (2, -1), (0, 0)):
        sampler = ds.DistributedSampler(num_shards, shard_id)
        data = ds.NumpySlicesDataset({"a": np.arange(6)}, sampler=sampler)
        with pytest.raises(RuntimeError, match="DistributedSampler"):
            data.get_dataset_size()
        with pytest.raises(RuntimeError, match="DistributedSampler"):
            list(data.create_tuple_iterator(output_numpy=True))


def test_per_batch_map_must_return_one_value_per_row():
    # MindSpore 2.10: RuntimeError "column: a expects: 2 rows returned from 'per_batch_map'".
    def batched(fn):
        data = _slices(5).batch(2, per_batch_map=fn, input_columns=["a", "b"])
        return list(data.create_tuple_iterator(output_numpy=True))

    with pytest.raises(RuntimeError, match="'batch'.*'a' expects 2 rows.*got 3"):
        batched(lambda a, b, info: (a + a[:1], b))
    with pytest.raises(RuntimeError, match="'batch'.*'b' expects 2 rows.*got 0"):
        batched(lambda a, b, info: (a, []))
    with pytest.raises(RuntimeError, match="'batch'.*'per_batch_map' must return"):
        batched(lambda a, b, info: (5, b))
    rows = batched(lambda a, b, info: (np.stack(a) * 2, b))  # an array of rows is accepted
    assert [r[0].tolist() for r in rows] == [[0, 2], [4, 6], [8]]


def test_engine_switches_of_config_are_checked_and_kept():
    # Scripts set MindSpore's engine switches before building pipelines; cellax checks them as
    # MindSpore 2.10 does (types and ranges), keeps them for the getters, and runs unchanged.
    config = ds.config
    assert config.get_enable_shared_mem() is True and config.get_numa_enable() is False
    config.set_enable_shared_mem(False)
    config.set_multiprocessing_timeout_interval(30)
    try:
        assert config.get_enable_shared_mem() is False
        assert config.get_multiprocessing_timeout_interval() == 30
    finally:
        config.set_enable_shared_mem(True)
        config.set_multiprocessing_timeout_interval(300)
    with pytest.raises(TypeError, match="set_enable_shared_mem"):
        config.set_enable_shared_mem(1)
    with pytest.raises(ValueError, match="set_callback_timeout"):
        config.set_callback_timeout(0)
    with pytest.raises(TypeError, match="set_callback_timeout"):
        config.set_callback_timeout(True)
    with pytest.raises(ValueError, match="set_monitor_sampling_interval"):
        config.set_monitor_sampling_interval(0)
    with pytest.raises(ValueError, match="set_multiprocessing_start_method"):
        config.set_multiprocessing_start_method("forkserver")
    with pytest.raises(RuntimeError, match="spawned"):
        config.set_multiprocessing_start_method("fork")
    config.set_multiprocessing_start_method("spawn")
    assert config.get_multiprocessing_start_method() == "spawn"


def test_import_leaves_the_root_logger_alone():
    # grain's import logs through absl, which would give the root logger a handler; then a
    # script's logging.basicConfig(level=logging.INFO) would do nothing and its INFO lines
    # would vanish (MindSpore's mindspore.dataset does not touch the root logger)
    code = (
        "import logging, cellax.dataset\n"
        "assert logging.getLogger().handlers == [], logging.getLogger().handlers\n"
        "logging.basicConfig(level=logging.INFO, format='%(message)s')\n"
        "logging.getLogger('script').info('shown')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr.splitlines()[-1] == "shown", done.stderr
