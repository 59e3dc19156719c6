"""``mindspore.boost``: training accelerations. cellax provides gradient accumulation
(:class:`GradientAccumulation`)."""

from .grad_accumulation import GradientAccumulation as GradientAccumulation

__all__ = ["GradientAccumulation"]
