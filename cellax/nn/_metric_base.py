"""The metric protocol: :class:`Metric` (``clear``/``update``/``eval``, ``set_indexes``,
calling a metric) and :func:`rearrange_inputs`; the metrics themselves live in ``_metrics*.py``."""

from __future__ import annotations

import functools

import numpy as np

from .._tensor import Tensor

__all__ = ["Metric", "rearrange_inputs"]


def _numpy(x) -> np.ndarray:
    return x.asnumpy() if isinstance(x, Tensor) else np.asarray(x)


class Metric:
    """Base class: ``clear()``, ``update(*inputs)``, ``eval()``."""

    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        raise NotImplementedError

    def update(self, *inputs) -> None:
        raise NotImplementedError

    def eval(self):
        raise NotImplementedError

    @property
    def indexes(self):
        """The positions of ``update``'s inputs this metric reads (see :meth:`set_indexes`)."""
        return getattr(self, "_indexes", None)

    def set_indexes(self, indexes):
        """Make ``update`` (when decorated with :func:`rearrange_inputs`) read its inputs at
        ``indexes`` (e.g. ``[0, 2]``); returns this metric.

        Raises:
            ValueError: If ``indexes`` is not a list of ints.
        """
        if not isinstance(indexes, list) or not all(isinstance(i, int) for i in indexes):
            raise ValueError(
                f"For 'set_indexes', the argument 'indexes' must be a list of int, but got "
                f"{indexes!r}."
            )
        self._indexes = indexes
        return self

    def __call__(self, *inputs):
        """``clear()``, ``update(*inputs)``, then return ``eval()``: the metric of one batch."""
        self.clear()
        self.update(*inputs)
        return self.eval()

    def _check_count(self, name: str, count: int) -> None:
        if count == 0:
            raise RuntimeError(f"For '{name}', eval() needs at least one update() first.")


def _check_inputs(api: str, inputs, what: str = "predicted value, true value") -> None:
    if len(inputs) != 2:
        raise ValueError(f"For '{api}', it needs 2 inputs ({what}), but got {len(inputs)}.")


def _check_type(api: str, name: str, value, types: tuple):
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        expected = " or ".join(t.__name__ for t in types)
        raise TypeError(
            f"For '{api}', the argument '{name}' must be {expected}, but got "
            f"{type(value).__name__} {value!r}."
        )
    return value


def _check_choice(api: str, name: str, value, choices: tuple):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(
            f"For '{api}', the argument '{name}' must be one of {list(choices)}, but got {value!r}."
        )
    return value


def _check_updated(api: str, updated: bool) -> None:
    if not updated:
        raise RuntimeError(f"For '{api}', call the 'update' method before calling 'eval'.")


def _is_onehot(data: np.ndarray) -> bool:
    if data.ndim < 2 or not np.all(data * data == data):
        return False
    return bool(np.all(data.sum(axis=1) == 1))


def rearrange_inputs(func):
    """Decorate a Metric's ``update`` so that it reads its inputs at ``self.indexes``.

    Examples:
        >>> from cellax.train import Metric, rearrange_inputs
        >>> class First(Metric):
        ...     def clear(self):
        ...         self.value = None
        ...     @rearrange_inputs
        ...     def update(self, *inputs):
        ...         self.value = inputs[0]
        ...     def eval(self):
        ...         return self.value
        >>> metric = First().set_indexes([1])
        >>> metric.update("a", "b")
        >>> metric.eval()
        'b'
    """

    @functools.wraps(func)
    def wrapper(self, *inputs):
        indexes = self.indexes
        inputs = inputs if not indexes else [inputs[i] for i in indexes]
        return func(self, *inputs)

    return wrapper
