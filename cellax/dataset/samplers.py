"""``mindspore.dataset.samplers``: the sampler classes (the same as ``dataset``'s)."""

from ._samplers import (
    DistributedSampler,
    RandomSampler,
    Sampler,
    SequentialSampler,
    SubsetRandomSampler,
    SubsetSampler,
)

__all__ = [
    "Sampler",
    "SequentialSampler",
    "RandomSampler",
    "DistributedSampler",
    "SubsetRandomSampler",
    "SubsetSampler",
]
