"""The converters from image datasets to MindRecord: ``Cifar10ToMR`` and ``Cifar100ToMR`` (the
CIFAR Python-pickle batches), ``MnistToMR`` (the gzipped idx files) and ``ImageNetToMR`` (a map
file and a folder of JPEG folders)."""

from __future__ import annotations

import gzip
import importlib
import io
import os
import pickle

import numpy as np

from .. import log as logger
from ._writer import FileWriter

__all__ = ["Cifar10ToMR", "Cifar100ToMR", "MnistToMR", "ImageNetToMR", "check_path"]

SUCCESS = 0
_FORBIDDEN = set("\\/:*?\"<>|`&';")
_BATCH = 256


def check_path(api: str, name: str, path) -> str:
    """A source or destination path as MindSpore's converters accept it."""
    if not path:
        raise ValueError(f"For '{api}', '{name}' must be a non-empty path, but got {path!r}.")
    if not isinstance(path, str):
        raise ValueError(f"For '{api}', '{name}' must be a str, but got {type(path).__name__}.")
    if path.endswith("/"):
        raise ValueError(f"For '{api}', '{name}' must not end with '/', but got {path!r}.")
    base = os.path.basename(path)
    if set(base) & _FORBIDDEN or base != base.strip(" "):
        raise ValueError(
            f"For '{api}', the file name in '{name}' must not contain any of \\/:*?\"<>|`&;' "
            f"or start or end with a space, but got {base!r}."
        )
    return path


def check_partitions(api: str, partition_number) -> int:
    if isinstance(partition_number, bool) or not isinstance(partition_number, int):
        raise ValueError(
            f"For '{api}', 'partition_number' must be an int, but got {partition_number!r}."
        )
    return partition_number


def _check_fields(api: str, fields) -> None:
    if fields and not isinstance(fields, list):
        raise ValueError(
            f"For '{api}.transform', 'fields' must be None or a list of index fields, but got "
            f"{fields!r}."
        )


def write_batches(writer: FileWriter, rows, batch_size: int = _BATCH) -> None:
    """Write ``rows`` in calls of ``batch_size`` rows (the shards get rows per call), then
    commit."""
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == batch_size:
            writer.write_raw_data(batch)
            batch = []
    if batch:
        writer.write_raw_data(batch)
    writer.commit()


def _jpeg(api: str, image: np.ndarray) -> bytes:
    """``image`` (H x W x 3 RGB or H x W x 1) as JPEG bytes, quality 95 with 4:2:0 chroma:
    the bytes OpenCV's ``imencode`` gives, which MindSpore's converters call."""
    try:
        from PIL import Image
    except ImportError as error:
        raise ImportError(
            f"For '{api}', encoding the images as JPEG needs the 'Pillow' package. Install it "
            "with: pip install Pillow (or cellax[dataset])."
        ) from error
    pixels = np.clip(np.rint(image), 0, 255).astype(np.uint8)
    if pixels.ndim == 3 and pixels.shape[2] == 1:
        pixels = pixels[:, :, 0]
    buffer = io.BytesIO()
    Image.fromarray(pixels).save(buffer, "JPEG", quality=95)
    return buffer.getvalue()


class _NumpyOnlyUnpickler(pickle.Unpickler):
    """Unpickles the CIFAR batches: dicts, lists and NumPy arrays, nothing that runs code."""

    def find_class(self, module, name):
        if module in ("numpy.core.multiarray", "numpy._core.multiarray") and name in (
            "_reconstruct",
            "scalar",
        ):
            core = "numpy._core.multiarray" if hasattr(np, "_core") else "numpy.core.multiarray"
            return getattr(importlib.import_module(core), name)
        if module in ("numpy.core.numeric", "numpy._core.numeric") and name == "_frombuffer":
            # pickle protocol 5 rebuilds arrays from their buffer
            core = "numpy._core.numeric" if hasattr(np, "_core") else "numpy.core.numeric"
            return getattr(importlib.import_module(core), name)
        if module == "numpy" and name in ("ndarray", "dtype"):
            return getattr(np, name)
        raise pickle.UnpicklingError(f"global '{module}.{name}' is forbidden")


def _load_batch(api: str, path: str) -> dict:
    with open(path, "rb") as file:
        try:
            return _NumpyOnlyUnpickler(file, encoding="bytes").load()
        except (pickle.UnpicklingError, UnicodeDecodeError, EOFError) as error:
            raise RuntimeError(
                f"For '{api}', {path} is not a CIFAR Python batch file: {error}."
            ) from error


def _images(batch: dict) -> np.ndarray:
    """A batch's images as N x 32 x 32 x 3 (the pickles hold N x 3072, channels first)."""
    return np.asarray(batch[b"data"]).reshape(-1, 3, 32, 32).transpose(0, 2, 3, 1)


class _Cifar:
    """What Cifar10ToMR and Cifar100ToMR share: check the folder, load, encode, write."""

    _API = ""
    _LABELS: tuple = ()

    def __init__(self, source, destination) -> None:
        check_path(self._API, "source", source)
        if not os.path.isdir(source):
            raise ValueError(f"For '{self._API}', the folder {source} does not exist.")
        names = os.listdir(source)
        for wanted in self._required():
            if not any(self._matches(name, wanted) for name in names):
                raise ValueError(f"For '{self._API}', {source} has no '{wanted}' file.")
        self.source = source
        self.destination = check_path(self._API, "destination", destination)

    def _rows(self, images, labels):
        for i, image in enumerate(images):
            row = {"id": i, "data": _jpeg(self._API, image)}
            for name, values in zip(self._LABELS, labels):
                row[name] = int(values[i])
            yield row

    def _write(self, file_name, rows, fields, desc) -> None:
        schema = {"id": {"type": "int64"}, "data": {"type": "bytes"}}
        schema.update({name: {"type": "int64"} for name in self._LABELS})
        writer = FileWriter(file_name, 1)
        writer.add_schema(schema, desc)
        if fields and isinstance(fields, list):
            writer.add_index(fields)
        writer.write_raw_data(list(rows))
        writer.commit()

    def run(self, fields=None) -> int:
        """Convert, and return ``SUCCESS`` (0); see ``transform``."""
        _check_fields(self._API, fields)
        (train_images, train_labels), (test_images, test_labels) = self._load()
        logger.info(f"{self._API}: {len(train_images)} train and {len(test_images)} test images")
        self._write(self.destination, self._rows(train_images, train_labels), fields, "img_train")
        test_file = self.destination + "_test"
        self._write(test_file, self._rows(test_images, test_labels), fields, "img_test")
        return SUCCESS

    def transform(self, fields=None) -> None:
        """Write the training images to ``destination`` and the test images to
        ``destination + "_test"`` (each with its index file). The batches are Python pickles:
        only dicts, lists and NumPy arrays are unpickled.

        Args:
            fields (list[str], optional): Index fields (see ``FileWriter.add_index``).
                Default: ``None``.

        Raises:
            ValueError: If `fields` is not a list.
            RuntimeError: If a batch file is not a CIFAR pickle or the files exist.
        """
        self.run(fields)


class Cifar10ToMR(_Cifar):
    """Convert the CIFAR-10 Python batches (``data_batch_*`` and ``test_batch``, from
    ``cifar-10-python.tar.gz``) to MindRecord files with the fields ``id`` (int64), ``label``
    (int64) and ``data`` (the image as JPEG bytes).

    Args:
        source (str): The folder with the batch files.
        destination (str): The MindRecord file to write; the test images go to
            ``destination + "_test"``.

    Raises:
        ValueError: If `source` or `destination` is invalid or a batch file is missing.

    Differences from MindSpore: the images are encoded with Pillow (the same JPEG bytes OpenCV
    writes) and the ``data_batch_*`` files are read in sorted order (MindSpore takes the
    folder's listing order).

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindrecord/mindspore.mindrecord.Cifar10ToMR.html

    Examples:
        >>> import os, pickle, tempfile
        >>> import numpy as np
        >>> from cellax.mindrecord import Cifar10ToMR, FileReader
        >>> folder = tempfile.mkdtemp()
        >>> for name, n in (("data_batch_1", 3), ("test_batch", 2)):
        ...     batch = {b"data": np.zeros((n, 3072), np.uint8), b"labels": list(range(n))}
        ...     with open(os.path.join(folder, name), "wb") as f:
        ...         pickle.dump(batch, f)
        >>> Cifar10ToMR(folder, os.path.join(folder, "cifar10.mindrecord")).transform(["label"])
        >>> [row["label"] for row in FileReader(os.path.join(folder, "cifar10.mindrecord")).get_next()]
        [0, 1, 2]
    """

    _API = "Cifar10ToMR"
    _LABELS = ("label",)

    @staticmethod
    def _required():
        return ("data_batch_", "test_batch")

    @staticmethod
    def _matches(name, wanted):
        return name.startswith(wanted)

    def _load(self):
        names = os.listdir(self.source)
        train = [
            _load_batch(self._API, os.path.join(self.source, n))
            for n in sorted(names)
            if n.startswith("data_batch_")
        ]
        test_name = next(n for n in sorted(names) if n.startswith("test_batch"))
        test = _load_batch(self._API, os.path.join(self.source, test_name))
        images = np.concatenate([_images(b) for b in train])
        labels = np.concatenate([np.asarray(b[b"labels"]).reshape(-1) for b in train])
        return (images, [labels]), (_images(test), [np.asarray(test[b"labels"]).reshape(-1)])


class Cifar100ToMR(_Cifar):
    """Convert the CIFAR-100 Python batches (``train`` and ``test``, from
    ``cifar-100-python.tar.gz``) to MindRecord files with the fields ``id``, ``fine_label``,
    ``coarse_label`` (int64) and ``data`` (the image as JPEG bytes).

    Args:
        source (str): The folder with the ``train`` and ``test`` files.
        destination (str): The MindRecord file to write; the test images go to
            ``destination + "_test"``.

    Raises:
        ValueError: If `source` or `destination` is invalid or a batch file is missing.

    Differences from MindSpore: the images are encoded with Pillow (the same JPEG bytes OpenCV
    writes).

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindrecord/mindspore.mindrecord.Cifar100ToMR.html

    Examples:
        >>> import os, pickle, tempfile
        >>> import numpy as np
        >>> from cellax.mindrecord import Cifar100ToMR, FileReader
        >>> folder = tempfile.mkdtemp()
        >>> for name in ("train", "test"):
        ...     batch = {b"data": np.zeros((2, 3072), np.uint8), b"fine_labels": [7, 8],
        ...              b"coarse_labels": [1, 2]}
        ...     with open(os.path.join(folder, name), "wb") as f:
        ...         pickle.dump(batch, f)
        >>> Cifar100ToMR(folder, os.path.join(folder, "c100.mindrecord")).transform()
        >>> rows = FileReader(os.path.join(folder, "c100.mindrecord_test")).get_next()
        >>> [(row["fine_label"], row["coarse_label"]) for row in rows]
        [(7, 1), (8, 2)]
    """

    _API = "Cifar100ToMR"
    _LABELS = ("fine_label", "coarse_label")

    @staticmethod
    def _required():
        return ("train", "test")

    @staticmethod
    def _matches(name, wanted):
        return name == wanted

    def _load(self):
        out = []
        for name in ("train", "test"):
            batch = _load_batch(self._API, os.path.join(self.source, name))
            labels = [np.asarray(batch[k]).reshape(-1) for k in (b"fine_labels", b"coarse_labels")]
            out.append((_images(batch), labels))
        return out


class MnistToMR:
    """Convert MNIST (``train-images-idx3-ubyte.gz``, ``train-labels-idx1-ubyte.gz``,
    ``t10k-images-idx3-ubyte.gz``, ``t10k-labels-idx1-ubyte.gz``) to the MindRecord files
    ``destination + "_train.mindrecord"`` and ``destination + "_test.mindrecord"``, with the
    fields ``label`` (int64, indexed) and ``data`` (the image as JPEG bytes).

    Args:
        source (str): The folder with the four files.
        destination (str): The prefix of the MindRecord files.
        partition_number (int, optional): Shard files per split. Default: ``1``.

    Raises:
        ValueError: If `source`, `destination` or `partition_number` is invalid.

    Differences from MindSpore: the images are encoded with Pillow (the same JPEG bytes OpenCV
    writes); with several shards, see ``FileWriter`` for how rows are spread.

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindrecord/mindspore.mindrecord.MnistToMR.html

    Examples:
        >>> import gzip, os, tempfile
        >>> import numpy as np
        >>> from cellax.mindrecord import MnistToMR, FileReader
        >>> folder = tempfile.mkdtemp()
        >>> for split, n in (("train", 3), ("t10k", 2)):
        ...     with gzip.open(os.path.join(folder, f"{split}-images-idx3-ubyte.gz"), "wb") as f:
        ...         _ = f.write(bytes(16) + bytes(n * 28 * 28))
        ...     with gzip.open(os.path.join(folder, f"{split}-labels-idx1-ubyte.gz"), "wb") as f:
        ...         _ = f.write(bytes(8) + bytes(range(n)))
        >>> MnistToMR(folder, os.path.join(folder, "mnist")).transform()
        >>> [row["label"] for row in FileReader(os.path.join(folder, "mnist_train.mindrecord")).get_next()]
        [0, 1, 2]
    """

    _API = "MnistToMR"
    _FILES = {
        "train": ("train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"),
        "test": ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"),
    }

    def __init__(self, source, destination, partition_number=1) -> None:
        check_path(self._API, "source", source)
        self.source = source
        self.destination = check_path(self._API, "destination", destination)
        self.partition_number = check_partitions(self._API, partition_number)
        self._writers = {
            split: FileWriter(f"{destination}_{split}.mindrecord", partition_number)
            for split in self._FILES
        }

    def _rows(self, split):
        images_file, labels_file = (os.path.join(self.source, n) for n in self._FILES[split])
        with gzip.open(os.path.realpath(images_file), "rb") as file:
            images = np.frombuffer(file.read()[16:], np.uint8).reshape(-1, 28, 28, 1)
        with gzip.open(os.path.realpath(labels_file), "rb") as file:
            labels = np.frombuffer(file.read()[8:], np.uint8)
        for image, label in zip(images, labels):
            yield {"label": int(label), "data": _jpeg(self._API, image)}

    def run(self) -> int:
        """Convert, and return ``SUCCESS`` (0); see ``transform``."""
        for split, writer in self._writers.items():
            writer.set_header_size(1 << 24)
            writer.set_page_size(1 << 26)
            writer.add_schema(
                {"label": {"type": "int64"}, "data": {"type": "bytes"}}, "mnist_schema"
            )
            writer.add_index(["label"])
            write_batches(writer, self._rows(split))
        return SUCCESS

    def transform(self) -> None:
        """Write the training and the test MindRecord files.

        Raises:
            RuntimeError: If the files exist.
            FileNotFoundError: If an MNIST file is missing.
        """
        self.run()


class ImageNetToMR:
    """Convert an ImageNet-style folder to MindRecord: for each line ``<folder> <label>`` of
    the map file, every ``*.JPEG``/``*.jpg`` file in ``image_dir/<folder>`` becomes a row with the
    fields ``label`` (int32), ``file_name`` (string, the path) and ``image`` (the file's bytes);
    ``label`` and ``file_name`` are indexed.

    Args:
        map_file (str): The map file, one ``<folder> <label>`` per line.
        image_dir (str): The folder that holds the class folders.
        destination (str): The MindRecord file to write.
        partition_number (int, optional): Shard files. Default: ``1``.

    Raises:
        ValueError: If a path or `partition_number` is invalid.

    Differences from MindSpore: the images of a class folder are read in sorted order
    (MindSpore takes the folder's listing order).

    See https://www.mindspore.cn/docs/en/r2.10/api_python/mindrecord/mindspore.mindrecord.ImageNetToMR.html

    Examples:
        >>> import os, tempfile
        >>> from cellax.mindrecord import ImageNetToMR, FileReader
        >>> folder = tempfile.mkdtemp()
        >>> os.makedirs(os.path.join(folder, "images", "n01"))
        >>> with open(os.path.join(folder, "images", "n01", "a.JPEG"), "wb") as f:
        ...     _ = f.write(b"not really a jpeg")
        >>> with open(os.path.join(folder, "map.txt"), "w") as f:
        ...     _ = f.write("n01 0\\n")
        >>> ImageNetToMR(os.path.join(folder, "map.txt"), os.path.join(folder, "images"),
        ...              os.path.join(folder, "imagenet.mindrecord")).transform()
        >>> row = next(FileReader(os.path.join(folder, "imagenet.mindrecord")).get_next())
        >>> row["label"], row["image"]
        (0, b'not really a jpeg')
    """

    _API = "ImageNetToMR"

    def __init__(self, map_file, image_dir, destination, partition_number=1) -> None:
        self.map_file = check_path(self._API, "map_file", map_file)
        self.image_dir = check_path(self._API, "image_dir", image_dir)
        self.destination = check_path(self._API, "destination", destination)
        self.partition_number = check_partitions(self._API, partition_number)
        self.writer = FileWriter(destination, partition_number)

    def _rows(self):
        path = os.path.realpath(self.map_file)
        if not os.path.exists(path):
            raise OSError(f"For '{self._API}', the map file {self.map_file} does not exist.")
        folders = {}
        with open(path) as file:
            for line in file:
                parts = line.split(" ")
                if len(parts) < 2:
                    raise ValueError(
                        f"For '{self._API}', each line of the map file must be '<folder> "
                        f"<label>', but got {line!r}."
                    )
                folders[parts[1]] = parts[0]
        folder_of = {}
        for label, name in folders.items():
            folder = os.path.join(self.image_dir, name)
            if not os.path.isdir(folder):
                logger.warning(f"{folder} dir is not exist")
                continue
            folder_of[label] = folder
        if not folder_of:
            raise ValueError(
                f"For '{self._API}', no folder of the map file is in {self.image_dir}."
            )
        for label, folder in folder_of.items():
            for item in sorted(os.listdir(folder)):
                file_name = os.path.join(folder, item)
                if not item.endswith(("JPEG", "jpg")):
                    logger.warning(f"{file_name} file is not suffix with JPEG/jpg, skip it.")
                    continue
                with open(os.path.realpath(file_name), "rb") as file:
                    image = file.read()
                if not image:
                    logger.warning(f"The image file: {file_name} is invalid.")
                    continue
                yield {"file_name": file_name, "label": int(label), "image": image}

    def run(self) -> int:
        """Convert, and return ``SUCCESS`` (0); see ``transform``."""
        schema = {
            "label": {"type": "int32"},
            "image": {"type": "bytes"},
            "file_name": {"type": "string"},
        }
        # MindSpore's ImageNetToMR asks for 64 MB pages, and its parallel writer keeps the
        # default 32 MB in the files it writes: so does cellax.
        self.writer.add_schema(schema, "imagenet_schema")
        self.writer.add_index(["label", "file_name"])
        write_batches(self.writer, self._rows())
        return SUCCESS

    def transform(self) -> None:
        """Write the MindRecord files.

        Raises:
            OSError: If the map file does not exist.
            ValueError: If no folder of the map file is in ``image_dir``.
            RuntimeError: If the files exist.
        """
        self.run()
