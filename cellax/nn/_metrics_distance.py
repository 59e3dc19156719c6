"""Segmentation surface metrics (HausdorffDistance, MeanSurfaceDistance, RootMeanSquareDistance)
and OcclusionSensitivity, on the host with NumPy as MindSpore runs them.

The surface of a binary mask is the set of its cells that a one-step erosion (face neighbours,
outside the array counts as background) removes. Distances from one surface to the other come
from an exact distance transform to the nearest surface cell, computed one axis at a time: the
squared Euclidean distance and the taxicab distance are sums over axes and the chessboard
distance a maximum, so each axis needs only a one-dimensional minimum over that axis.
"""

from __future__ import annotations

import numpy as np

from .._tensor import Tensor
from ._metric_base import Metric, _check_choice, _check_type, rearrange_inputs

__all__ = [
    "HausdorffDistance",
    "MeanSurfaceDistance",
    "RootMeanSquareDistance",
    "OcclusionSensitivity",
]

_DISTANCES = ("euclidean", "chessboard", "taxicab")
_CHUNK = 1 << 22  # elements of one (rows, n, n) block of the per-axis minimum


def _as_array(api: str, data) -> np.ndarray:
    if isinstance(data, Tensor):
        return data.asnumpy()
    if isinstance(data, list):
        return np.array(data)
    if isinstance(data, np.ndarray):
        return data
    raise TypeError(
        f"For '{api}', the input data must be a Tensor, list or numpy.ndarray, but got "
        f"{type(data).__name__}."
    )


def _erode(mask: np.ndarray) -> np.ndarray:
    """Cells of ``mask`` whose face neighbours (in every axis, both ways) are all in ``mask``."""
    out = mask.copy()
    for axis in range(mask.ndim):
        if mask.shape[axis] < 3:
            return np.zeros_like(mask)
        inner = [slice(None)] * mask.ndim
        inner[axis] = slice(1, -1)
        keep = np.zeros_like(mask)
        before, after = list(inner), list(inner)
        before[axis], after[axis] = slice(None, -2), slice(2, None)
        keep[tuple(inner)] = mask[tuple(before)] & mask[tuple(after)]
        out &= keep
    return out


def _surface(mask: np.ndarray) -> np.ndarray:
    return mask & ~_erode(mask)


def _distance_to(target: np.ndarray, metric: str) -> np.ndarray:
    """For every cell, the distance to the nearest True cell of ``target`` (inf if none)."""
    dist = np.where(target, 0.0, np.inf)
    for axis in range(target.ndim):
        n = target.shape[axis]
        gap = np.abs(np.arange(n)[:, None] - np.arange(n)[None, :]).astype(np.float64)
        lines = np.moveaxis(dist, axis, -1)
        flat = lines.reshape(-1, n)
        out = np.empty_like(flat)
        rows = max(1, _CHUNK // (n * n))
        for start in range(0, flat.shape[0], rows):
            block = flat[start : start + rows, None, :]  # (rows, 1, n): source along the axis
            if metric == "chessboard":
                out[start : start + rows] = np.maximum(block, gap).min(-1)
            else:
                step = gap * gap if metric == "euclidean" else gap
                out[start : start + rows] = (block + step).min(-1)
        dist = np.moveaxis(out.reshape(lines.shape), -1, axis)
    return np.sqrt(dist) if metric == "euclidean" else dist


def _surface_distances(from_edges, to_edges, metric: str) -> np.ndarray:
    """Distances from each cell of ``from_edges`` to the nearest cell of ``to_edges``."""
    if not np.any(from_edges):
        return np.array([])
    if not np.any(to_edges):
        return np.full(int(np.count_nonzero(from_edges)), np.inf)
    return _distance_to(to_edges, metric)[from_edges]


def _check_update(api: str, inputs):
    """(y_pred, y, label_idx) of a surface metric's ``update``, checked as MindSpore does."""
    if len(inputs) != 3:
        raise ValueError(
            f"For '{api}.update', it needs 3 inputs (predicted value, true value, label index), "
            f"but got {len(inputs)}."
        )
    y_pred, y = _as_array(f"{api}.update", inputs[0]), _as_array(f"{api}.update", inputs[1])
    label_idx = inputs[2]
    if not isinstance(label_idx, (int, float)):
        error = TypeError if api == "RootMeanSquareDistance" else ValueError
        raise error(
            f"For '{api}.update', the label index (input[2]) must be int or float, but got "
            f"{type(label_idx).__name__}."
        )
    if not (np.any(y_pred == label_idx) or np.any(y == label_idx)):
        raise ValueError(
            f"For '{api}.update', the label index (input[2]) must be in predicted value "
            f"(input[0]) or true value (input[1]), but {label_idx} is not."
        )
    if y_pred.size == 0 or y_pred.shape != y.shape:
        raise ValueError(
            f"For '{api}.update', the predicted value (input[0]) and true value (input[1]) must "
            f"be non-empty and of the same shape, but got shapes {y_pred.shape} and {y.shape}."
        )
    return y_pred, y, label_idx


class _SurfaceMetric(Metric):
    def clear(self) -> None:
        """Forget the last ``update``."""
        self._y_pred_edges = 0
        self._y_edges = 0
        self._is_update = False

    def _check_updated(self) -> None:
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")


class HausdorffDistance(_SurfaceMetric):
    r"""Hausdorff distance between the surfaces of the predicted and true masks of one label:
    :math:`\max(h(A, B), h(B, A))` with :math:`h(A, B) = \max_{a \in A} \min_{b \in B} d(a, b)`
    over the surface cells of the two masks.
    See https://www.mindspore.cn/docs/en/r2.10/api_python/train/mindspore.train.HausdorffDistance.html

    ``update(y_pred, y, label_idx)`` replaces the state (the masks are ``y_pred == label_idx``
    and ``y == label_idx``); ``eval()`` returns the distance, ``inf`` when a surface is empty.

    Args:
        distance_metric (str): ``'euclidean'``, ``'chessboard'`` or ``'taxicab'``.
            Default: ``'euclidean'``.
        percentile (float): If given (and not 0), the percentile in [0, 100] of the surface
            distances instead of their maximum. Default: ``None``.
        directed (bool): Only :math:`h(y\_pred, y)`. Default: ``False``.
        crop (bool): Crop both masks to the bounding box of their union first (and drop the
            axes of length 1 that leaves, as MindSpore does). Default: ``True``.

    Raises:
        TypeError: If ``distance_metric`` is not a str, ``percentile`` not a float, or
            ``directed``/``crop`` not a bool.
        ValueError: If ``distance_metric`` is not one of the three; ``update`` without three
            inputs, a label in neither input, or inputs of different shapes; ``eval`` with a
            ``percentile`` outside [0, 100].
        RuntimeError: If ``eval`` is called before ``update``.

    Differences from MindSpore: the distance is always a float64 (MindSpore returns an int32
    for the chessboard and taxicab maxima); no SciPy is needed.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> x = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
        >>> y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])
        >>> metric = nn.HausdorffDistance()
        >>> metric.update(x, y, 0)
        >>> float(metric.eval())
        1.4142135623730951
    """

    def __init__(
        self,
        distance_metric: str = "euclidean",
        percentile: float | None = None,
        directed: bool = False,
        crop: bool = True,
    ) -> None:
        api = "HausdorffDistance"
        _check_type(api, "distance_metric", distance_metric, (str,))
        self.distance_metric = _check_choice(api, "distance_metric", distance_metric, _DISTANCES)
        if percentile is not None:
            _check_type(api, "percentile", percentile, (float,))
        self.percentile = percentile
        self.directed = (
            directed if directed is None else _check_type(api, "directed", directed, (bool,))
        )
        self.crop = crop if crop is None else _check_type(api, "crop", crop, (bool,))
        super().__init__()

    @rearrange_inputs
    def update(self, *inputs) -> None:
        """Take the surfaces of ``y_pred == label_idx`` and ``y == label_idx``."""
        self._is_update = True
        y_pred, y, label_idx = _check_update("HausdorffDistance", inputs)
        # MindSpore compares with the label whatever the dtype (bool masks included).
        y_pred, y = y_pred == label_idx, y == label_idx
        if self.crop:
            union = y_pred | y
            if not union.any():
                self._y_pred_edges, self._y_edges = np.zeros_like(y_pred), np.zeros_like(y)
                return
            box = tuple(slice(int(idx.min()), int(idx.max()) + 1) for idx in np.nonzero(union))
            y_pred, y = np.squeeze(y_pred[box]), np.squeeze(y[box])
        self._y_pred_edges, self._y_edges = _surface(y_pred), _surface(y)

    def _directed(self, from_edges, to_edges):
        distances = _surface_distances(from_edges, to_edges, self.distance_metric)
        if distances.size == 0:
            return np.inf
        if not self.percentile:
            return distances.max()
        if 0 <= self.percentile <= 100:
            return np.percentile(distances, self.percentile)
        raise ValueError(
            f"For 'HausdorffDistance', the argument 'percentile' must be in [0, 100], but got "
            f"{self.percentile}."
        )

    def eval(self):
        """The (directed) Hausdorff distance of the last ``update``."""
        self._check_updated()
        forward = self._directed(self._y_pred_edges, self._y_edges)
        if self.directed:
            return forward
        return max(forward, self._directed(self._y_edges, self._y_pred_edges))


class MeanSurfaceDistance(_SurfaceMetric):
    r"""Mean distance from the surface cells of the predicted mask of one label to the true
    mask's surface (with ``symmetric``, the mean of that and the reverse direction).
    See https://www.mindspore.cn/docs/en/r2.10/api_python/train/mindspore.train.MeanSurfaceDistance.html

    ``update(y_pred, y, label_idx)`` replaces the state (bool inputs are used as the masks,
    others compared with ``label_idx``); ``eval()`` returns ``inf`` when a surface is empty.

    Args:
        symmetric (bool): Average both directions. Default: ``False``.
        distance_metric (str): ``'euclidean'``, ``'chessboard'`` or ``'taxicab'``.
            Default: ``'euclidean'``.

    Raises:
        TypeError: If ``symmetric`` is not a bool or ``distance_metric`` not a str.
        ValueError: If ``distance_metric`` is not one of the three; ``update`` without three
            inputs, a label in neither input, or inputs of different shapes.
        RuntimeError: If ``eval`` is called before ``update``.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> x = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
        >>> y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])
        >>> metric = nn.MeanSurfaceDistance(symmetric=False, distance_metric="euclidean")
        >>> metric.update(x, y, 0)
        >>> round(float(metric.eval()), 6)
        0.804738
    """

    _api = "MeanSurfaceDistance"

    def __init__(self, symmetric: bool = False, distance_metric: str = "euclidean") -> None:
        _check_type(self._api, "distance_metric", distance_metric, (str,))
        self.distance_metric = _check_choice(
            self._api, "distance_metric", distance_metric, _DISTANCES
        )
        self.symmetric = _check_type(self._api, "symmetric", symmetric, (bool,))
        super().__init__()

    @rearrange_inputs
    def update(self, *inputs) -> None:
        """Take the surfaces of the masks of ``label_idx`` in ``y_pred`` and ``y``."""
        y_pred, y, label_idx = _check_update(self._api, inputs)
        if y_pred.dtype != bool:
            y_pred = y_pred == label_idx
        if y.dtype != bool:
            y = y == label_idx
        self._y_pred_edges, self._y_edges = _surface(y_pred), _surface(y)
        self._is_update = True

    def _reduce(self, distances):
        return distances.mean()

    def _combine(self, forward, backward):
        return np.mean((forward, backward))

    def eval(self):
        """The surface distance of the last ``update``."""
        self._check_updated()
        forward = _surface_distances(self._y_pred_edges, self._y_edges, self.distance_metric)
        if forward.size == 0:
            return np.inf
        forward = self._reduce(forward)
        if not self.symmetric:
            return forward
        backward = _surface_distances(self._y_edges, self._y_pred_edges, self.distance_metric)
        if backward.size == 0:
            return np.inf
        return self._combine(forward, self._reduce(backward))


class RootMeanSquareDistance(MeanSurfaceDistance):
    r"""Root mean square surface distance: with ``symmetric``, the square root of the mean of
    the two directions' mean squared distances from one mask's surface to the other's.
    See https://www.mindspore.cn/docs/en/r2.10/api_python/train/mindspore.train.RootMeanSquareDistance.html

    As in MindSpore, without ``symmetric`` ``eval()`` returns the mean *squared* distance from
    the predicted surface to the true one (no square root).

    Args:
        symmetric (bool): Combine both directions. Default: ``False``.
        distance_metric (str): ``'euclidean'``, ``'chessboard'`` or ``'taxicab'``.
            Default: ``'euclidean'``.

    Raises:
        TypeError: If ``symmetric`` is not a bool, ``distance_metric`` not a str, or the label
            index given to ``update`` not an int or float.
        ValueError: If ``distance_metric`` is not one of the three; ``update`` without three
            inputs, a label in neither input, or inputs of different shapes.
        RuntimeError: If ``eval`` is called before ``update``.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> x = np.array([[3, 0, 1], [1, 3, 0], [1, 0, 2]])
        >>> y = np.array([[0, 2, 1], [1, 2, 1], [0, 0, 1]])
        >>> metric = nn.RootMeanSquareDistance(symmetric=True)
        >>> metric.update(x, y, 0)
        >>> round(float(metric.eval()), 6)
        0.912871
    """

    _api = "RootMeanSquareDistance"

    def _reduce(self, distances):
        return (distances**2).mean()

    def _combine(self, forward, backward):
        return np.sqrt(np.mean((forward, backward)))


class OcclusionSensitivity(Metric):
    """How much a classifier's score for a label drops when each part of an image is occluded.
    See https://www.mindspore.cn/docs/en/r2.10/api_python/train/mindspore.train.OcclusionSensitivity.html

    ``update(model, y_pred, label)`` takes a batch of one image ``y_pred`` (shape ``(1, ...)``)
    and, for every position of its non-batch axes (all of them, channels included; or of the
    bounding box ``b_box``), sets the window ``[i - margin, i + margin)`` along every axis to
    ``pad_val`` and runs ``model`` on the occluded images, ``n_batch`` at a time. ``eval()``
    returns the model's score of ``label`` on the whole image minus its score on each occluded
    image, with the shape of the image (or box) and axes of length 1 dropped.

    Args:
        pad_val (float): Value of the occluded cells. Default: ``0.0``.
        margin (int): Half width of the occluded window. Default: ``2``.
        n_batch (int): Occluded images per model call. Default: ``128``.
        b_box (list): ``[min1, max1, min2, max2, ...]`` (inclusive; negative max means the
            last index) over the non-batch axes. Default: ``None`` (the whole image).

    Raises:
        TypeError: If an argument has the wrong type, or ``update``'s model is not a Cell.
        ValueError: If ``update`` does not get three inputs, or ``b_box`` does not fit the image.
        RuntimeError: If the batch holds more than one image, the label count differs from the
            batch, or ``eval`` is called before ``update``.

    Differences from MindSpore: a label of shape ``(1,)`` is scored like the scalar label
    (MindSpore 2.10 mis-indexes the scores and fails with a ValueError unless there is only
    one position); a list ``margin``, accepted by both constructors, fails in ``update`` with
    a TypeError naming it (in MindSpore, with a TypeError from inside the loop).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Tensor(np.array([[0.1, 0.8, 0.1, 0.1], [1, 1, 1, 1]], np.float32))
        >>> b = ms.Tensor(np.array([0.3, 0.6], np.float32))
        >>> model = nn.Dense(4, 2, weight_init=w, bias_init=b)
        >>> metric = nn.OcclusionSensitivity()
        >>> metric.update(model, np.array([[0.1, 0.2, 0.3, 0.4]], np.float32),
        ...               np.array(1, np.int32))
        >>> np.round(metric.eval(), 4)
        array([0.3, 0.6, 1. , 0.9], dtype=float32)
    """

    def __init__(
        self, pad_val: float = 0.0, margin: int = 2, n_batch: int = 128, b_box: list | None = None
    ) -> None:
        api = "OcclusionSensitivity"
        self.pad_val = _check_type(api, "pad_val", pad_val, (float,))
        self.margin = _check_type(api, "margin", margin, (int, list))
        self.n_batch = _check_type(api, "n_batch", n_batch, (int,))
        self.b_box = b_box if b_box is None else _check_type(api, "b_box", b_box, (list,))
        super().__init__()

    def clear(self) -> None:
        """Forget the last ``update``."""
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    def _box(self, shape: np.ndarray):
        if self.b_box is None:
            return np.zeros_like(shape), shape - 1
        if len(self.b_box) != 2 * len(shape):
            raise ValueError(
                f"For 'OcclusionSensitivity', 'b_box' must hold a minimum and a maximum for every "
                f"non-batch axis of the predicted value ({len(shape)} axes), but got "
                f"{len(self.b_box)} values."
            )
        low, high = np.array(self.b_box[::2]), np.array(self.b_box[1::2])
        low[low < 0] = 0
        high[high < 0] = shape[high < 0] - 1
        if np.any(high >= shape):
            raise ValueError(
                "For 'OcclusionSensitivity', maximum bounding box must be smaller than image "
                "size for all values."
            )
        if np.any(low > high):
            raise ValueError(
                "For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum "
                "bounding box for all values."
            )
        return low, high

    @rearrange_inputs
    def update(self, *inputs) -> None:
        """Score every occluded copy of the image (see the class description)."""
        from ._cell import Cell

        api = "OcclusionSensitivity.update"
        if len(inputs) != 3:
            raise ValueError(
                f"For '{api}', it needs 3 inputs (classification model, predicted value, label), "
                f"but got {len(inputs)}."
            )
        model, image, label = inputs[0], _as_array(api, inputs[1]), _as_array(api, inputs[2])
        _check_type(api, "model", model, (Cell,))
        if image.shape[0] > 1:
            raise RuntimeError(
                f"For '{api}', the shape at index 0 of the predicted value (input[1]) must be 1, "
                f"but got {image.shape[0]}."
            )
        if label.size != image.shape[0]:
            raise RuntimeError(
                f"For '{api}', the number of the label (input[2]) must be same as the batches, "
                f"but got the label number {label.size}, and batches {image.shape[0]}."
            )
        if not isinstance(self.margin, int):
            raise TypeError(f"For '{api}', a list 'margin' is not supported, use an int.")
        shape = np.array(image.shape[1:])
        low, high = self._box(shape)
        label = int(label.reshape(-1)[0])
        self._baseline = model(Tensor(image)).asnumpy()[0, label].item()
        positions = np.stack(
            np.meshgrid(*[np.arange(a, b + 1) for a, b in zip(low, high)], indexing="ij"), -1
        ).reshape(-1, len(shape))
        scores = []
        for start in range(0, len(positions), self.n_batch):
            batch = []
            for index in positions[start : start + self.n_batch]:
                occluded = image.copy()
                window = tuple(
                    slice(max(0, int(i) - self.margin), min(int(n), int(i) + self.margin))
                    for i, n in zip(index, shape)
                )
                occluded[(slice(None), *window)] = self.pad_val
                batch.append(occluded)
            scores.append(model(Tensor(np.concatenate(batch))).asnumpy()[:, label])
        self._sensitivity_im = np.concatenate(scores).reshape(tuple(high - low + 1))
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The baseline score minus each occluded score, shaped like the image (or box)."""
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)
