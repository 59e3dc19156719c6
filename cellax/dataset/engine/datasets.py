"""``mindspore.dataset.engine.datasets``: the base dataset classes."""

from .._batch import BatchDataset
from .._dataset import Dataset
from .._nodes import MapDataset, RepeatDataset, ShuffleDataset
from .._sources import SourceDataset

__all__ = [
    "Dataset",
    "SourceDataset",
    "BatchDataset",
    "MapDataset",
    "RepeatDataset",
    "ShuffleDataset",
]
