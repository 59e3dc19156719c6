"""General transforms for ``Dataset.map``: TypeCast, Compose, OneHot, Fill, RandomApply,
RandomChoice, Duplicate, PadEnd."""

from __future__ import annotations

import sys

import numpy as np

from .. import config

__all__ = [
    "TypeCast",
    "Compose",
    "OneHot",
    "Fill",
    "RandomApply",
    "RandomChoice",
    "Duplicate",
    "PadEnd",
]


def np_dtype(api: str, data_type):
    """A cellax dtype (``cellax.int32``) or a NumPy dtype -> NumPy dtype."""
    from ... import _dtype

    if isinstance(data_type, _dtype.Type):
        return np.dtype(_dtype.dtype_to_nptype(data_type))
    try:
        return np.dtype(data_type)
    except TypeError as error:
        raise TypeError(
            f"For '{api}', 'data_type' must be a cellax or NumPy dtype, but got {data_type!r}."
        ) from error


class TypeCast:
    """Cast to ``data_type``.

    Args:
        data_type (Union[cellax.dtype, numpy.dtype]): The target type.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.dataset import transforms
        >>> transforms.TypeCast(ms.int32)(np.array([1.7])).dtype
        dtype('int32')
    """

    def __init__(self, data_type):
        self.data_type = np_dtype("TypeCast", data_type)

    def __call__(self, data):
        return np.asarray(data).astype(self.data_type)


class Compose:
    """Apply ``transforms`` one after the other (multiple outputs feed the next as arguments).

    Called on one PIL image, or holding a transform that makes PIL images (``vision.ToPIL``,
    ``vision.Decode(to_pil=True)``), it returns a tuple of the outputs, as MindSpore's Python
    path does (``augmentations(image)[0]`` is the first output); otherwise one output is
    returned as it is and several as a tuple.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import transforms, vision
        >>> op = transforms.Compose([vision.Rescale(2.0, 0.0), transforms.TypeCast(np.int8)])
        >>> op(np.array([3])).tolist()
        [6]
        >>> to_chw = transforms.Compose([vision.ToPIL(), vision.ToTensor()])
        >>> out = to_chw(np.zeros((4, 5, 3), np.uint8))
        >>> type(out).__name__, out[0].shape
        ('tuple', (3, 4, 5))
    """

    def __init__(self, transforms):
        if not isinstance(transforms, (list, tuple)) or not transforms:
            raise ValueError("For 'Compose', 'transforms' must be a non-empty list.")
        self.transforms = list(transforms)

    def __call__(self, *args):
        as_tuple = (len(args) == 1 and _is_pil(args[0])) or any(
            getattr(op, "_makes_pil", False) for op in self.transforms
        )
        for op in self.transforms:
            out = op(*args)
            args = out if isinstance(out, tuple) else (out,)
        return args if as_tuple or len(args) > 1 else args[0]


def _is_pil(value) -> bool:
    # PIL is optional: an input can only be a PIL image once PIL is imported
    image = sys.modules.get("PIL.Image")
    return image is not None and isinstance(value, image.Image)


class OneHot:
    """One-hot encode integer labels into ``num_classes`` columns (with label smoothing).

    Args:
        num_classes (int): Number of classes.
        smoothing_rate (float): Label smoothing in ``[0, 1]``. Default: ``0.0``.

    Raises:
        RuntimeError: If a label is outside ``[0, num_classes)``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import transforms
        >>> transforms.OneHot(3)(np.array(1)).tolist()
        [0, 1, 0]
    """

    def __init__(self, num_classes, smoothing_rate=0.0):
        if isinstance(num_classes, bool) or not isinstance(num_classes, int) or num_classes <= 0:
            raise ValueError(f"For 'OneHot', 'num_classes' must be positive, got {num_classes!r}.")
        if not 0.0 <= smoothing_rate <= 1.0:
            raise ValueError(
                f"For 'OneHot', 'smoothing_rate' must be in [0, 1], got {smoothing_rate}."
            )
        self.num_classes, self.smoothing_rate = num_classes, float(smoothing_rate)

    def __call__(self, label):
        label = np.asarray(label)
        if label.dtype.kind not in "iu":
            raise RuntimeError(f"For 'OneHot', the input must be integers, but got {label.dtype}.")
        if np.any(label < 0) or np.any(label >= self.num_classes):
            raise RuntimeError(
                f"For 'OneHot', every label must be in [0, {self.num_classes}), but got "
                f"{label.tolist()}."
            )
        out = np.eye(self.num_classes, dtype=label.dtype)[label]
        if self.smoothing_rate:
            rate = self.smoothing_rate
            out = out.astype(np.float32) * (1 - rate) + rate / self.num_classes
        return out


class Fill:
    """Fill the input with ``fill_value`` (same shape and dtype).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import transforms
        >>> transforms.Fill(7)(np.zeros(3, np.int32)).tolist()
        [7, 7, 7]
    """

    def __init__(self, fill_value):
        self.fill_value = fill_value

    def __call__(self, data):
        data = np.asarray(data)
        return np.full_like(data, self.fill_value)


class RandomApply:
    """Apply ``transforms`` (in order) with probability ``prob``.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import transforms
        >>> transforms.RandomApply([transforms.Fill(0)], prob=1.0)(np.ones(2)).tolist()
        [0.0, 0.0]
    """

    def __init__(self, transforms, prob=0.5):
        self.compose, self.prob = Compose(transforms), float(prob)

    def __call__(self, *args):
        if config.op_rng().random() < self.prob:
            return self.compose(*args)
        return args[0] if len(args) == 1 else args


class RandomChoice:
    """Apply one of ``transforms`` chosen at random.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import transforms
        >>> transforms.RandomChoice([transforms.Fill(5)])(np.ones(2)).tolist()
        [5.0, 5.0]
    """

    def __init__(self, transforms):
        if not isinstance(transforms, (list, tuple)) or not transforms:
            raise ValueError("For 'RandomChoice', 'transforms' must be a non-empty list.")
        self.transforms = list(transforms)

    def __call__(self, *args):
        return self.transforms[int(config.op_rng().integers(len(self.transforms)))](*args)


class Duplicate:
    """Return the input and a copy of it (map it to two ``output_columns``).

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import transforms
        >>> a, b = transforms.Duplicate()(np.array([1, 2]))
        >>> a.tolist(), b.tolist(), a is b
        ([1, 2], [1, 2], False)
    """

    def __call__(self, data):
        data = np.asarray(data)
        return data, data.copy()


class PadEnd:
    """Pad (or cut) each dimension of the input at its end to ``pad_shape``.

    Args:
        pad_shape (list[int]): The output shape, one entry per input dimension; ``None``
            keeps that dimension, a smaller size cuts it.
        pad_value (Union[str, bytes, int, float, bool], optional): The padding value, cast to
            the input's type (numbers wrap as in C). Default: ``None`` (``0`` for numbers,
            an empty string for strings).

    Raises:
        TypeError: If `pad_shape` is not a list of int, or `pad_value` has the wrong type.
        ValueError: If a size in `pad_shape` is not positive.
        RuntimeError: If the input's rank differs from ``len(pad_shape)``, or a string pads
            numbers (or a number strings).

    Differences from MindSpore: a ``None`` size keeps the dimension as documented (MindSpore
    2.10 fails with "tensor shape is unknown").

    See https://www.mindspore.cn/docs/en/r2.10/api_python/dataset_transforms/mindspore.dataset.transforms.PadEnd.html

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset import transforms
        >>> transforms.PadEnd([4], pad_value=10)(np.array([1, 2, 3])).tolist()
        [1, 2, 3, 10]
        >>> transforms.PadEnd([2, 3])(np.array([["a", "b"]])).tolist()
        [['a', 'b', ''], ['', '', '']]
    """

    def __init__(self, pad_shape, pad_value=None):
        if not isinstance(pad_shape, list):
            raise TypeError(
                f"For 'PadEnd', 'pad_shape' must be a list, but got {type(pad_shape).__name__}."
            )
        for size in pad_shape:
            if size is None:
                continue
            if isinstance(size, bool) or not isinstance(size, int):
                raise TypeError(
                    f"For 'PadEnd', each size in 'pad_shape' must be an int or None, but got "
                    f"{size!r}."
                )
            if size <= 0:
                raise ValueError(
                    f"For 'PadEnd', each size in 'pad_shape' must be positive, but got {size}."
                )
        if pad_value is not None and not isinstance(pad_value, (str, bytes, int, float)):
            raise TypeError(
                f"For 'PadEnd', 'pad_value' must be a str, bytes, int, float or bool, but got "
                f"{type(pad_value).__name__}."
            )
        self.pad_shape, self.pad_value = list(pad_shape), pad_value

    def _fill(self, data: np.ndarray):
        value = self.pad_value
        is_text = data.dtype.kind in "SU"
        if value is None:
            return "" if is_text else 0
        if is_text != isinstance(value, (str, bytes)):
            kinds = ("string", "number") if is_text else ("number", "string")
            raise RuntimeError(
                f"For 'PadEnd', can not pad {kinds[0]} data with a {kinds[1]} 'pad_value' "
                f"{value!r}."
            )
        if is_text:
            return value
        # C-style conversion: 1.5 -> 1 for ints, 300 -> 44 for uint8
        return (
            np.array(value)
            .astype(np.float64 if isinstance(value, float) else np.int64)
            .astype(data.dtype)
        )

    def __call__(self, data):
        data = np.asarray(data)
        if data.ndim == 0:
            return data
        if data.ndim != len(self.pad_shape):
            raise RuntimeError(
                f"For 'PadEnd', the input has rank {data.ndim}, but 'pad_shape' "
                f"{self.pad_shape} has {len(self.pad_shape)} sizes."
            )
        shape = [d if s is None else s for d, s in zip(data.shape, self.pad_shape)]
        fill = self._fill(data)
        dtype = data.dtype
        if dtype.kind in "SU":
            dtype = np.result_type(dtype, np.asarray(fill).dtype)
        out = np.full(shape, fill, dtype)
        kept = tuple(slice(0, min(d, s)) for d, s in zip(data.shape, shape))
        out[kept] = data[kept]
        return out
