"""MNIST, CIFAR-10/100 and ImageFolder readers on tiny files written in the real formats."""

import os

import numpy as np
import pytest
from PIL import Image

from cellax import dataset as ds


def _write_idx(path, array, magic):
    header = np.array([magic, *array.shape], ">u4").tobytes()
    with open(path, "wb") as f:
        f.write(header + array.astype(np.uint8).tobytes())


@pytest.fixture
def mnist_dir(tmp_path):
    rng = np.random.default_rng(0)
    parts = {"train": (rng.integers(0, 256, (3, 28, 28)), [1, 2, 3])}
    parts["t10k"] = (rng.integers(0, 256, (2, 28, 28)), [7, 8])
    for prefix, (images, labels) in parts.items():
        _write_idx(tmp_path / f"{prefix}-images-idx3-ubyte", images, 2051)
        _write_idx(tmp_path / f"{prefix}-labels-idx1-ubyte", np.array(labels), 2049)
    return tmp_path, parts


def _rows(data):
    return list(data.create_tuple_iterator(output_numpy=True))


def test_mnist_columns_dtypes_and_order(mnist_dir):
    folder, parts = mnist_dir
    data = ds.MnistDataset(str(folder), shuffle=False)
    rows = _rows(data)
    assert data.get_col_names() == ["image", "label"]
    assert data.get_dataset_size() == 5
    image, label = rows[0]
    assert image.shape == (28, 28, 1) and image.dtype == np.uint8 and label.dtype == np.uint32
    # MindSpore 2.10 reads the test files first for usage='all' (checked with the oracle)
    assert [int(r[1]) for r in rows] == [7, 8, 1, 2, 3]
    np.testing.assert_array_equal(rows[2][0][..., 0], parts["train"][0][0])
    train = _rows(ds.MnistDataset(str(folder), usage="train", shuffle=False))
    assert [int(r[1]) for r in train] == [1, 2, 3]


def test_mnist_tensors_and_errors(mnist_dir, tmp_path_factory):
    import cellax as ms

    folder, _ = mnist_dir
    image, label = next(ds.MnistDataset(str(folder), usage="test").create_tuple_iterator())
    assert image.dtype == ms.uint8 and label.dtype == ms.uint32
    with pytest.raises(ValueError, match="MnistDataset"):
        ds.MnistDataset(str(folder / "missing"))
    with pytest.raises(ValueError, match="usage"):
        ds.MnistDataset(str(folder), usage="valid")
    bad = tmp_path_factory.mktemp("bad")
    _write_idx(bad / "train-images-idx3-ubyte", np.zeros((1, 28, 28)), 1234)
    _write_idx(bad / "train-labels-idx1-ubyte", np.zeros(1), 2049)
    with pytest.raises(RuntimeError, match="magic"):
        ds.MnistDataset(str(bad), usage="train")


def _write_cifar(path, labels, images):
    records = [
        np.concatenate([np.atleast_1d(lab).astype(np.uint8), img.ravel()])
        for lab, img in zip(labels, images)
    ]
    np.stack(records).astype(np.uint8).tofile(path)


def test_cifar10_hwc_images_and_file_order(tmp_path):
    rng = np.random.default_rng(1)
    chw = rng.integers(0, 256, (4, 3, 32, 32), dtype=np.uint8)
    _write_cifar(tmp_path / "data_batch_1.bin", [3, 5], chw[:2])
    _write_cifar(tmp_path / "data_batch_2.bin", [7], chw[2:3])
    _write_cifar(tmp_path / "test_batch.bin", [9], chw[3:])
    data = ds.Cifar10Dataset(str(tmp_path), shuffle=False)
    rows = _rows(data)
    assert data.get_col_names() == ["image", "label"]
    assert [int(r[1]) for r in rows] == [3, 5, 7, 9]  # train files first, as MindSpore
    for row, image in zip(rows, chw):
        assert row[0].dtype == np.uint8 and row[1].dtype == np.uint32
        np.testing.assert_array_equal(row[0], image.transpose(1, 2, 0))
    assert ds.Cifar10Dataset(str(tmp_path), usage="test").get_dataset_size() == 1
    (tmp_path / "data_batch_3.bin").write_bytes(b"\0" * 100)
    with pytest.raises(RuntimeError, match="record size"):
        ds.Cifar10Dataset(str(tmp_path), usage="train")


def test_cifar100_labels(tmp_path):
    images = np.zeros((2, 3, 32, 32), np.uint8)
    _write_cifar(tmp_path / "train.bin", [[1, 11], [2, 22]], images)
    data = ds.Cifar100Dataset(str(tmp_path), usage="train", shuffle=False)
    assert data.get_col_names() == ["image", "fine_label", "coarse_label"]
    assert [(int(r[1]), int(r[2])) for r in _rows(data)] == [(11, 1), (22, 2)]


@pytest.fixture
def folder(tmp_path):
    rng = np.random.default_rng(2)
    arrays = {}
    for name in ("dog", "cat"):
        os.makedirs(tmp_path / name)
        for i in range(2):
            arrays[name, i] = rng.integers(0, 256, (5, 4, 3), dtype=np.uint8)
            Image.fromarray(arrays[name, i]).save(tmp_path / name / f"{i}.png")
    return tmp_path, arrays


def test_image_folder_labels_decode_and_raw_bytes(folder):
    root, arrays = folder
    data = ds.ImageFolderDataset(str(root), shuffle=False, decode=True)
    rows = _rows(data)
    assert [int(r[1]) for r in rows] == [0, 0, 1, 1]  # sorted class names: cat=0, dog=1
    assert rows[0][1].dtype == np.int32
    np.testing.assert_array_equal(rows[0][0], arrays["cat", 0])
    raw = _rows(ds.ImageFolderDataset(str(root), shuffle=False))
    assert raw[0][0].dtype == np.uint8 and raw[0][0].ndim == 1
    np.testing.assert_array_equal(ds.vision.Decode()(raw[3][0]), arrays["dog", 1])
    custom = ds.ImageFolderDataset(str(root), shuffle=False, class_indexing={"dog": 0, "cat": 7})
    assert sorted(int(r[1]) for r in _rows(custom)) == [0, 0, 7, 7]
    assert custom.get_class_indexing() == {"dog": 0, "cat": 7}


def test_image_folder_corrupt_image_and_extensions(folder):
    root, _ = folder
    (root / "cat" / "broken.jpg").write_bytes(b"not an image")
    assert ds.ImageFolderDataset(str(root), extensions=[".png"]).get_dataset_size() == 4
    data = ds.ImageFolderDataset(str(root), shuffle=False, decode=True)
    with pytest.raises(RuntimeError, match="ImageFolderDataset.*broken.jpg"):
        _rows(data)
    mapped = ds.ImageFolderDataset(str(root), shuffle=False).map(ds.vision.Decode(), "image")
    with pytest.raises(RuntimeError, match="map.*Decode"):
        _rows(mapped)


def test_readers_shard(mnist_dir):
    folder, _ = mnist_dir
    shards = [
        [
            int(r[1])
            for r in _rows(ds.MnistDataset(str(folder), num_shards=2, shard_id=k, shuffle=False))
        ]
        for k in range(2)
    ]
    assert shards == [[7, 1, 3], [8, 2, 7]]  # ceil(5 / 2) rows each, wrapped around
    with pytest.raises(ValueError, match="shard_id"):
        ds.MnistDataset(str(folder), num_shards=2, shard_id=2)
