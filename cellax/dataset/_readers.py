"""Readers of the standard on-disk image data sets: MNIST, CIFAR-10/100 and image folders.

Everything is read from a local directory; nothing is downloaded.
"""

from __future__ import annotations

import os

import numpy as np

from ._sources import SourceDataset, build_sampler

__all__ = ["MnistDataset", "Cifar10Dataset", "Cifar100Dataset", "ImageFolderDataset"]


def _check_dir(api: str, dataset_dir) -> str:
    if not isinstance(dataset_dir, (str, os.PathLike)) or not os.path.isdir(dataset_dir):
        raise ValueError(
            f"For '{api}', the folder {dataset_dir} does not exist or is not a directory or "
            "permission denied!"
        )
    return os.fspath(dataset_dir)


def _check_usage(api: str, usage, allowed) -> str:
    usage = "all" if usage is None else usage
    if usage not in allowed:
        raise ValueError(f"For '{api}', 'usage' must be one of {allowed}, but got {usage!r}.")
    return usage


class _ArraysReader:
    """Rows ``(images[i], labels[i], ...)`` of in-memory arrays."""

    def __init__(self, *arrays):
        self.arrays = arrays

    def __len__(self):
        return len(self.arrays[0])

    def __getitem__(self, i):
        return tuple(a[i] for a in self.arrays)


def _read_idx(api: str, path: str, magic: int, item_shape: tuple) -> np.ndarray:
    raw = np.fromfile(path, np.uint8)
    header = raw[: 4 * (1 + 1 + len(item_shape))].view(">u4")
    if len(raw) < 8 or int(header[0]) != magic:
        raise RuntimeError(
            f"For '{api}', invalid file {path}: the MNIST magic number must be {magic}, but got "
            f"{int(header[0]) if len(raw) >= 4 else 'nothing'}."
        )
    count = int(header[1])
    shape = tuple(int(d) for d in header[2:])
    if shape != item_shape or len(raw) != len(header) * 4 + count * int(np.prod(shape)):
        raise RuntimeError(f"For '{api}', invalid file {path}: its size does not match its header.")
    return raw[len(header) * 4 :].reshape((count, *shape))


class MnistDataset(SourceDataset):
    """The MNIST digits from the idx files in ``dataset_dir``.

    Columns ``image`` (uint8, ``(28, 28, 1)``) and ``label`` (uint32). Files:
    ``train-images-idx3-ubyte``, ``train-labels-idx1-ubyte``, ``t10k-images-idx3-ubyte`` and
    ``t10k-labels-idx1-ubyte``; ``usage='all'`` reads the test files first, as MindSpore does.

    Args:
        dataset_dir (str): The directory.
        usage (str): ``'train'``, ``'test'`` or ``'all'``. Default: ``None`` (``'all'``).
        num_samples (int): The most rows read. Default: ``None``.
        num_parallel_workers (int): Reader workers. Default: ``None``.
        shuffle (bool): Shuffle. Default: ``None`` (True).
        sampler (Sampler): A sampler. Default: ``None``.
        num_shards (int): Number of shards. Default: ``None``.
        shard_id (int): This shard. Default: ``None``.
        cache: Not supported (must be ``None``).

    Raises:
        ValueError: If `dataset_dir` is not a directory or arguments are wrong.
        RuntimeError: If a file is missing or not an idx file.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> folder = tempfile.mkdtemp()
        >>> header = np.array([2051, 2, 28, 28], ">u4").tobytes()
        >>> with open(os.path.join(folder, "train-images-idx3-ubyte"), "wb") as f:
        ...     _ = f.write(header + bytes(2 * 28 * 28))
        >>> with open(os.path.join(folder, "train-labels-idx1-ubyte"), "wb") as f:
        ...     _ = f.write(np.array([2049, 2], ">u4").tobytes() + bytes([3, 4]))
        >>> data = ds.MnistDataset(folder, usage="train", shuffle=False)
        >>> image, label = next(data.create_tuple_iterator(output_numpy=True))
        >>> image.shape, image.dtype, label.dtype, int(label)
        ((28, 28, 1), dtype('uint8'), dtype('uint32'), 3)
    """

    def __init__(
        self,
        dataset_dir,
        usage=None,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
    ):
        api = "MnistDataset"
        folder = _check_dir(api, dataset_dir)
        usage = _check_usage(api, usage, ("train", "test", "all"))
        prefixes = {"train": ["train"], "test": ["t10k"], "all": ["t10k", "train"]}[usage]
        images, labels = [], []
        for prefix in prefixes:
            image_path = os.path.join(folder, f"{prefix}-images-idx3-ubyte")
            label_path = os.path.join(folder, f"{prefix}-labels-idx1-ubyte")
            if usage == "all" and not os.path.exists(image_path):
                continue
            for path in (image_path, label_path):
                if not os.path.exists(path):
                    raise RuntimeError(f"For '{api}', the file {path} does not exist.")
            image = _read_idx(api, image_path, 2051, (28, 28))
            label = _read_idx(api, label_path, 2049, ())
            if len(image) != len(label):
                raise RuntimeError(
                    f"For '{api}', {image_path} has {len(image)} images but {label_path} has "
                    f"{len(label)} labels."
                )
            images.append(image[..., None])
            labels.append(label.astype(np.uint32))
        if not images:
            raise RuntimeError(f"For '{api}', no MNIST files were found in {folder}.")
        reader = _ArraysReader(np.concatenate(images), np.concatenate(labels))
        sampler = build_sampler(api, num_samples, shuffle, sampler, num_shards, shard_id, True)
        super().__init__(reader, ["image", "label"], sampler, num_parallel_workers, False)


def _read_cifar(api: str, paths: list, label_bytes: int):
    records = []
    size = label_bytes + 3072
    for path in paths:
        raw = np.fromfile(path, np.uint8)
        if len(raw) == 0 or len(raw) % size:
            raise RuntimeError(
                f"For '{api}', invalid file {path}: its size {len(raw)} is not a multiple of "
                f"the record size {size}."
            )
        records.append(raw.reshape(-1, size))
    if not records:
        raise RuntimeError(f"For '{api}', no CIFAR binary files were found.")
    data = np.concatenate(records)
    images = data[:, label_bytes:].reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)
    return np.ascontiguousarray(images), data[:, :label_bytes].astype(np.uint32)


class Cifar10Dataset(SourceDataset):
    """CIFAR-10 from its binary version in ``dataset_dir`` (``data_batch_1.bin`` ...
    ``data_batch_5.bin`` and ``test_batch.bin``: records of 1 label byte and a 3x32x32 image).

    Columns ``image`` (uint8, ``(32, 32, 3)``, HWC) and ``label`` (uint32).

    Args:
        dataset_dir (str): The directory.
        usage (str): ``'train'``, ``'test'`` or ``'all'`` (train first). Default: ``None``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache:
            as for :class:`MnistDataset`.

    Raises:
        ValueError: If `dataset_dir` is not a directory or arguments are wrong.
        RuntimeError: If no file is found or a file is not a whole number of records.

    Differences from MindSpore: files may hold any whole number of records (MindSpore expects
    10000 per file).

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> folder = tempfile.mkdtemp()
        >>> np.zeros((2, 3073), np.uint8).tofile(os.path.join(folder, "test_batch.bin"))
        >>> data = ds.Cifar10Dataset(folder, usage="test")
        >>> data.get_col_names(), data.output_shapes()
        (['image', 'label'], [[32, 32, 3], []])
    """

    _label_bytes = 1
    _columns = ["image", "label"]

    def __init__(
        self,
        dataset_dir,
        usage=None,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        num_shards=None,
        shard_id=None,
        cache=None,
    ):
        api = type(self).__name__
        folder = _check_dir(api, dataset_dir)
        usage = _check_usage(api, usage, ("train", "test", "all"))
        names = []
        if usage in ("train", "all"):
            names += self._train_files()
        if usage in ("test", "all"):
            names += self._test_files()
        paths = [os.path.join(folder, n) for n in names if os.path.exists(os.path.join(folder, n))]
        if not paths:
            raise RuntimeError(f"For '{api}', no {names} files were found in {folder}.")
        images, labels = _read_cifar(api, paths, self._label_bytes)
        reader = _ArraysReader(images, *self._label_columns(labels))
        sampler = build_sampler(api, num_samples, shuffle, sampler, num_shards, shard_id, True)
        super().__init__(reader, self._columns, sampler, num_parallel_workers, False)

    @staticmethod
    def _train_files():
        return [f"data_batch_{i}.bin" for i in range(1, 6)]

    @staticmethod
    def _test_files():
        return ["test_batch.bin"]

    @staticmethod
    def _label_columns(labels):
        return (labels[:, 0],)


class Cifar100Dataset(Cifar10Dataset):
    """CIFAR-100 from its binary version in ``dataset_dir`` (``train.bin`` and ``test.bin``:
    records of a coarse label byte, a fine label byte and a 3x32x32 image).

    Columns ``image`` (uint8, ``(32, 32, 3)``), ``fine_label`` and ``coarse_label`` (uint32).

    Args:
        dataset_dir (str): The directory.
        usage (str): ``'train'``, ``'test'`` or ``'all'``. Default: ``None``.
        num_samples, num_parallel_workers, shuffle, sampler, num_shards, shard_id, cache:
            as for :class:`MnistDataset`.

    Raises:
        ValueError: If `dataset_dir` is not a directory or arguments are wrong.
        RuntimeError: If no file is found or a file is not a whole number of records.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> folder = tempfile.mkdtemp()
        >>> np.zeros((2, 3074), np.uint8).tofile(os.path.join(folder, "train.bin"))
        >>> ds.Cifar100Dataset(folder, usage="train").get_col_names()
        ['image', 'fine_label', 'coarse_label']
    """

    _label_bytes = 2
    _columns = ["image", "fine_label", "coarse_label"]

    @staticmethod
    def _train_files():
        return ["train.bin"]

    @staticmethod
    def _test_files():
        return ["test.bin"]

    @staticmethod
    def _label_columns(labels):
        return labels[:, 1], labels[:, 0]


class _FolderReader:
    """Rows ``(image, label)`` of image files (raw bytes, or decoded to RGB HWC uint8)."""

    def __init__(self, files, labels, decode):
        self.files, self.labels, self.decode = files, labels, decode

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        path = self.files[i]
        raw = np.fromfile(path, np.uint8)
        label = np.asarray(self.labels[i], np.int32)
        if not self.decode:
            return raw, label
        from .vision._transforms import decode_image

        try:
            return decode_image(raw), label
        except Exception as error:
            raise RuntimeError(
                f"For 'ImageFolderDataset', invalid image, {path} decode failed, the image is "
                f"broken or permission denied: {error}"
            ) from error


class ImageFolderDataset(SourceDataset):
    """Images in one sub-directory per class: ``dataset_dir/<class>/<file>``.

    Columns ``image`` (the file's bytes as uint8, or RGB HWC uint8 with ``decode=True``) and
    ``label`` (int32: the class's index in the sorted class names, or ``class_indexing``).

    Args:
        dataset_dir (str): The directory.
        num_samples (int): The most rows read. Default: ``None``.
        num_parallel_workers (int): Reader workers. Default: ``None``.
        shuffle (bool): Shuffle. Default: ``None`` (True).
        sampler (Sampler): A sampler. Default: ``None``.
        extensions (list[str]): File extensions to keep (e.g. ``['.JPEG', '.png']``).
            Default: ``None`` (every file).
        class_indexing (dict): ``{class name: label}``. Default: ``None``.
        decode (bool): Decode the images. Default: ``False``.
        num_shards (int): Number of shards. Default: ``None``.
        shard_id (int): This shard. Default: ``None``.
        cache, decrypt: Not supported (must be ``None``).

    Raises:
        ValueError: If `dataset_dir` is not a directory or arguments are wrong.
        RuntimeError: At iteration with ``decode=True``, if an image cannot be decoded.

    Examples:
        >>> import os, tempfile
        >>> import numpy as np
        >>> from PIL import Image
        >>> from cellax import dataset as ds
        >>> folder = tempfile.mkdtemp()
        >>> for name in ("cat", "dog"):
        ...     os.makedirs(os.path.join(folder, name))
        ...     Image.new("RGB", (4, 3)).save(os.path.join(folder, name, "0.png"))
        >>> data = ds.ImageFolderDataset(folder, shuffle=False, decode=True)
        >>> [(r[0].shape, int(r[1])) for r in data.create_tuple_iterator(output_numpy=True)]
        [((3, 4, 3), 0), ((3, 4, 3), 1)]
    """

    def __init__(
        self,
        dataset_dir,
        num_samples=None,
        num_parallel_workers=None,
        shuffle=None,
        sampler=None,
        extensions=None,
        class_indexing=None,
        decode=False,
        num_shards=None,
        shard_id=None,
        cache=None,
        decrypt=None,
    ):
        api = "ImageFolderDataset"
        folder = _check_dir(api, dataset_dir)
        classes = sorted(e.name for e in os.scandir(folder) if e.is_dir())
        if class_indexing is not None:
            if not isinstance(class_indexing, dict):
                raise TypeError(f"For '{api}', 'class_indexing' must be a dict.")
            classes = [c for c in classes if c in class_indexing]
            labels_of = dict(class_indexing)
        else:
            labels_of = {c: i for i, c in enumerate(classes)}
        keep = None if extensions is None else tuple(extensions)
        files, labels = [], []
        for name in classes:
            for entry in sorted(os.scandir(os.path.join(folder, name)), key=lambda e: e.name):
                if entry.is_file() and (keep is None or entry.name.endswith(keep)):
                    files.append(entry.path)
                    labels.append(labels_of[name])
        self._class_indexing = labels_of
        sampler = build_sampler(api, num_samples, shuffle, sampler, num_shards, shard_id, True)
        reader = _FolderReader(files, labels, bool(decode))
        super().__init__(reader, ["image", "label"], sampler, num_parallel_workers, False)

    def get_class_indexing(self) -> dict:
        """Return ``{class name: label}``.

        Examples:
            >>> import os, tempfile
            >>> from cellax import dataset as ds
            >>> folder = tempfile.mkdtemp()
            >>> os.makedirs(os.path.join(folder, "a"))
            >>> ds.ImageFolderDataset(folder).get_class_indexing()
            {'a': 0}
        """
        return dict(self._class_indexing)
