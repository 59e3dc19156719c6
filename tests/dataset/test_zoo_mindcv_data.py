"""mindcv 0.3.0's data pipeline (create_dataset / create_transforms / create_loader) on an
ImageFolder tree, through alias_mindspore. Runs only where mindcv is importable (installs
nothing: e.g. ``pip install --no-deps --target DIR mindcv==0.3.0``, DIR on PYTHONPATH)."""

import importlib
import importlib.util
import os
import sys

import numpy as np
import pytest

import cellax

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("mindcv") is None, reason="mindcv is not installed"
)


@pytest.fixture(scope="module")
def mindcv_data():
    handle = cellax.alias_mindspore()
    saved = {k: v for k, v in sys.modules.items() if k == "mindcv" or k.startswith("mindcv.")}
    for name in saved:
        del sys.modules[name]
    try:
        try:
            yield importlib.import_module("mindcv.data")
        except ModuleNotFoundError as exc:
            pytest.skip(f"a module mindcv needs is missing: {exc}")
    finally:
        for name in [n for n in sys.modules if n == "mindcv" or n.startswith("mindcv.")]:
            del sys.modules[name]
        sys.modules.update(saved)
        handle.remove()


@pytest.fixture(scope="module")
def image_root(tmp_path_factory):
    from PIL import Image

    root = tmp_path_factory.mktemp("imagefolder")
    rng = np.random.default_rng(0)
    for split in ("train", "val"):
        for label in ("ant", "bee"):
            os.makedirs(root / split / label)
            for i in range(3):
                pixels = rng.integers(0, 256, (24, 28, 3), dtype=np.uint8)
                Image.fromarray(pixels).save(root / split / label / f"{i}.jpg")
    return str(root)


def _batches(loader):
    return [(x.asnumpy(), y.asnumpy()) for x, y in loader.create_tuple_iterator()]


def test_eval_pipeline_reads_the_folder_in_order(mindcv_data, image_root):
    from mindspore.dataset import vision

    data = mindcv_data.create_dataset("", root=image_root, split="val", shuffle=False)
    assert data.get_dataset_size() == 6 and data.get_col_names() == ["image", "label"]
    transform = mindcv_data.create_transforms("", image_resize=16, is_training=False)
    loader = mindcv_data.create_loader(data, batch_size=3, transform=transform)
    batches = _batches(loader)
    assert [b[1].tolist() for b in batches] == [[0, 0, 0], [1, 1, 1]]
    assert batches[0][0].shape == (3, 3, 16, 16) and batches[0][0].dtype == np.float32
    assert batches[0][1].dtype == np.int32
    # the same transforms applied by hand to the files, in the folder's sorted order
    with open(os.path.join(image_root, "val", "bee", "2.jpg"), "rb") as f:
        x = np.frombuffer(f.read(), np.uint8)
    for op in transform:
        x = op(x)
    np.testing.assert_allclose(batches[1][0][2], x, rtol=1e-6, atol=1e-6)
    assert isinstance(transform[0], vision.Decode)


def test_train_pipeline_with_augmentation_mixup_and_shards(mindcv_data, image_root):
    from mindspore import dataset as ds

    ds.config.set_seed(1)
    data = mindcv_data.create_dataset("", root=image_root, split="train", num_parallel_workers=2)
    transform = mindcv_data.create_transforms(
        "",
        image_resize=16,
        is_training=True,
        auto_augment="randaug-m9-mstd0.5-inc1",
        re_prob=0.5,
    )
    loader = mindcv_data.create_loader(
        data,
        batch_size=2,
        drop_remainder=True,
        is_training=True,
        mixup=0.8,
        num_classes=2,
        transform=transform,
        num_parallel_workers=2,
    )
    epochs = []
    iterator = loader.create_tuple_iterator(num_epochs=2, output_numpy=True)
    for _ in range(2):
        batches = list(iterator)
        assert len(batches) == 3
        for x, y in batches:
            assert x.shape == (2, 3, 16, 16) and np.isfinite(x).all()
            assert y.shape == (2, 2) and y.dtype == np.float32
            np.testing.assert_allclose(y.sum(axis=1), 1.0, rtol=1e-6)
        epochs.append(np.concatenate([x for x, _ in batches]))
    assert not np.array_equal(epochs[0], epochs[1])  # new crops and a new order
    shard = mindcv_data.create_dataset(
        "", root=image_root, split="train", num_shards=2, shard_id=1, shuffle=False
    )
    assert shard.get_dataset_size() == 3
    labels = [int(r["label"]) for r in shard.create_dict_iterator(output_numpy=True)]
    assert labels == [0, 1, 1]
    # repeated augmentation: mindcv's own (stateful, iterable) sampler
    repeated = mindcv_data.create_dataset(
        "", root=image_root, split="train", num_aug_repeats=3, num_shards=2, shard_id=0
    )
    rows = [int(r["label"]) for r in repeated.create_dict_iterator(output_numpy=True)]
    assert repeated.get_dataset_size() == 3 and len(rows) == 3
