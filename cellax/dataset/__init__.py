"""``cellax.dataset``: MindSpore's data pipelines (``mindspore.dataset``) on Google's grain.

Sources read rows by index through ``grain.MapDataset`` (grain's index shuffle orders them,
grain's ``mp_prefetch`` runs ``map`` operations in worker processes); pipeline operations
(``map``, ``batch``, ``shuffle``, ``repeat``, ...) follow MindSpore 2.10's semantics: column
order, dtypes, epoch-by-epoch iteration and sizes.

Examples:
    >>> import numpy as np
    >>> from cellax import dataset as ds
    >>> data = ds.NumpySlicesDataset({"x": np.arange(6.0), "y": np.arange(6)}, shuffle=False)
    >>> data = data.map(lambda x: x * 2, input_columns="x").batch(4)
    >>> [batch[0].tolist() for batch in data.create_tuple_iterator(output_numpy=True)]
    [[0.0, 2.0, 4.0, 6.0], [8.0, 10.0]]
"""

from . import _grain  # noqa: F401  (first: grain's import must not configure logging)
from . import config
from . import text
from . import transforms
from . import vision
from ._dataset import BatchInfo, Dataset
from ._batch import BatchDataset
from ._nodes import MapDataset
from ._mindrecord import MindDataset
from ._readers import Cifar10Dataset, Cifar100Dataset, ImageFolderDataset, MnistDataset
from ._samplers import (
    DistributedSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
)
from ._sources import GeneratorDataset, NumpySlicesDataset, SourceDataset
from .config import get_seed, set_seed
from . import engine as engine
from . import samplers as samplers
from ._samplers import Shuffle as Shuffle

__all__ = [
    "config",
    "text",
    "transforms",
    "vision",
    "Dataset",
    "BatchInfo",
    "BatchDataset",
    "MapDataset",
    "SourceDataset",
    "GeneratorDataset",
    "NumpySlicesDataset",
    "MnistDataset",
    "Cifar10Dataset",
    "Cifar100Dataset",
    "ImageFolderDataset",
    "MindDataset",
    "Sampler",
    "SequentialSampler",
    "RandomSampler",
    "DistributedSampler",
    "SubsetRandomSampler",
    "SubsetSampler",
    "zip",
    "Shuffle",
    "samplers",
    "engine",
    "set_seed",
    "get_seed",
]


def zip(datasets):  # noqa: A001 - MindSpore's name
    """Join the columns of ``datasets`` row by row (the shortest length).

    Args:
        datasets (tuple[Dataset]): The datasets.

    Returns:
        Dataset, the zipped dataset.

    Examples:
        >>> import numpy as np
        >>> from cellax import dataset as ds
        >>> a = ds.NumpySlicesDataset({"a": np.arange(2)})
        >>> b = ds.NumpySlicesDataset({"b": np.arange(2)})
        >>> ds.zip((a, b)).get_col_names()
        ['a', 'b']
    """
    from ._nodes import ZipDataset

    if not isinstance(datasets, tuple):
        raise TypeError(
            f"For 'zip', 'datasets' must be a tuple, but got {type(datasets).__name__}."
        )
    return ZipDataset(datasets)
