"""Classification metrics: Precision, Recall, Fbeta/F1 (per class), ROC curves and ``auc``."""

from __future__ import annotations

import sys

import numpy as np

from ._metric_base import (
    Metric,
    _check_inputs,
    _check_type,
    _check_updated,
    _is_onehot,
    _numpy,
    rearrange_inputs,
)

__all__ = ["Precision", "Recall", "Fbeta", "F1", "ROC", "auc"]

# MindSpore's guard against 0/0: the smallest normal float, so an empty class scores 0.
_EPS = sys.float_info.min


def _one_hot_argmax(api: str, y_pred: np.ndarray, y: np.ndarray, class_num: int):
    if y.max() + 1 > class_num:
        raise ValueError(
            f"For '{api}', the true value (inputs[1]) has {y.max() + 1} classes, but the "
            f"predicted value (inputs[0]) has {class_num}. Give y_pred one column per class."
        )
    eye = np.eye(class_num)
    return eye[y_pred.argmax(axis=1).reshape(-1)], eye[y.reshape(-1)]


class _PerClassRate(Metric):
    """Shared by Precision and Recall: ``true positives / (denominator + eps)`` per class."""

    _api = ""

    def __init__(self, eval_type: str = "classification") -> None:
        if eval_type not in ("classification", "multilabel"):
            raise TypeError(
                f"For '{self._api}', the argument 'eval_type' must be 'classification' or "
                f"'multilabel', but got {eval_type!r}."
            )
        self._type = eval_type
        self.eps = _EPS
        super().__init__()

    def clear(self) -> None:
        self._class_num = 0
        multilabel = self._type == "multilabel"
        self._true_positives = np.empty(0) if multilabel else 0
        self._denominator = np.empty(0) if multilabel else 0
        self._rate_sum = 0.0
        self._rate_count = 0

    def _check(self, y_pred: np.ndarray, y: np.ndarray) -> None:
        if self._type == "classification":
            if y_pred.ndim != y.ndim + 1 or y.shape != (y_pred.shape[0],) + y_pred.shape[2:]:
                raise ValueError(
                    f"For '{self._api}.update', in the classification case y must have y_pred's "
                    f"shape without axis 1, but got y_pred shape {y_pred.shape} and y shape "
                    f"{y.shape}."
                )
            return
        if y_pred.shape != y.shape:
            raise ValueError(
                f"For '{self._api}.update', in the multilabel case y_pred and y must have the "
                f"same shape, but got {y_pred.shape} and {y.shape}."
            )
        if not (np.all(y_pred * y_pred == y_pred) and np.all(y * y == y)):
            raise ValueError(
                f"For '{self._api}.update', in the multilabel case every element of y_pred and y "
                "must be 0 or 1."
            )

    @rearrange_inputs
    def update(self, *inputs) -> None:
        _check_inputs(f"{self._api}.update", inputs)
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        if self._type == "classification" and y_pred.ndim == y.ndim and _is_onehot(y):
            y = y.argmax(axis=1)
        self._check(y_pred, y)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(
                f"For '{self._api}.update', earlier predictions had {self._class_num} classes, "
                f"but these have {y_pred.shape[1]}."
            )
        if self._type == "classification":
            y_pred, y = _one_hot_argmax(f"{self._api}.update", y_pred, y, self._class_num)
        else:
            # MindSpore sums over the class axis here: multilabel rates are per sample.
            y_pred = y_pred.swapaxes(1, 0).reshape(self._class_num, -1)
            y = y.swapaxes(1, 0).reshape(self._class_num, -1)
        true_positives = (y * y_pred).sum(axis=0)
        denominator = self._pick_denominator(y_pred, y).sum(axis=0)
        if self._type == "multilabel":
            self._rate_sum += float(np.sum(true_positives / (denominator + self.eps)))
            self._rate_count += len(denominator)
            self._true_positives = np.concatenate((self._true_positives, true_positives))
            self._denominator = np.concatenate((self._denominator, denominator))
        else:
            self._true_positives = self._true_positives + true_positives
            self._denominator = self._denominator + denominator

    def _pick_denominator(self, y_pred: np.ndarray, y: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def eval(self, average: bool = False):
        if self._class_num == 0:
            raise RuntimeError(
                f"For '{self._api}', eval() needs at least one update() with samples first."
            )
        _check_type(self._api, "average", average, (bool,))
        result = self._true_positives / (self._denominator + self.eps)
        if not average:
            return result
        if self._type == "multilabel":
            return np.float64(self._rate_sum / (self._rate_count + self.eps))
        return result.mean()


class Precision(_PerClassRate):
    """Precision per class, ``TP / (TP + FP)``, over all ``update(y_pred, y)`` calls.

    ``y_pred`` is ``(N, C)`` scores (the argmax is the prediction) and ``y`` class indices
    ``(N,)`` or one-hot ``(N, C)``; with ``eval_type='multilabel'`` both are ``(N, C)`` of 0/1
    and the rates are per sample, as in MindSpore. See
    https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.Precision.html

    Args:
        eval_type (str): ``'classification'`` or ``'multilabel'``. Default: ``'classification'``.

    Raises:
        TypeError: If ``eval_type`` is neither.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> metric = nn.Precision()
        >>> metric.update(np.array([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7]]), np.array([1, 0, 0]))
        >>> metric.eval()
        array([1. , 0.5])
        >>> float(metric.eval(average=True))
        0.75
    """

    _api = "Precision"

    def _pick_denominator(self, y_pred, y):
        return y_pred

    def eval(self, average: bool = False):
        """The per-class precision (an array), or its mean when ``average`` is True."""
        return super().eval(average)


class Recall(_PerClassRate):
    """Recall per class, ``TP / (TP + FN)``, over all ``update(y_pred, y)`` calls (inputs as
    :class:`Precision`). See
    https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.Recall.html

    Args:
        eval_type (str): ``'classification'`` or ``'multilabel'``. Default: ``'classification'``.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> metric = nn.Recall()
        >>> metric.update(np.array([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7]]), np.array([1, 0, 0]))
        >>> metric.eval()
        array([0.5, 1. ])
    """

    _api = "Recall"

    def _pick_denominator(self, y_pred, y):
        return y

    def eval(self, average: bool = False):
        """The per-class recall (an array), or its mean when ``average`` is True."""
        return super().eval(average)


class Fbeta(Metric):
    """F-beta score per class, ``(1 + beta^2) TP / (beta^2 (TP + FN) + TP + FP)``, over all
    ``update(y_pred, y)`` calls (``y_pred`` ``(N, C)`` scores, ``y`` indices or one-hot). See
    https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.Fbeta.html

    Args:
        beta (float): Weight of recall relative to precision; must be positive.

    Raises:
        ValueError: If ``beta`` is not positive.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> metric = nn.Fbeta(1)
        >>> metric.update(np.array([[0.2, 0.8], [0.6, 0.4], [0.3, 0.7]]), np.array([1, 0, 0]))
        >>> metric.eval().round(4)
        array([0.6667, 0.6667])
    """

    def __init__(self, beta: float) -> None:
        if not beta > 0:
            raise ValueError(
                f"For 'Fbeta', the argument 'beta' must be greater than 0, but got {beta}."
            )
        self.beta = beta
        self.eps = _EPS
        super().__init__()

    def clear(self) -> None:
        self._true_positives = 0
        self._actual_positives = 0
        self._positives = 0
        self._class_num = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        _check_inputs("Fbeta.update", inputs)
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        if y_pred.ndim == y.ndim and _is_onehot(y):
            y = y.argmax(axis=1)
        if self._class_num == 0:
            self._class_num = y_pred.shape[1]
        elif y_pred.shape[1] != self._class_num:
            raise ValueError(
                f"For 'Fbeta.update', earlier predictions had {self._class_num} classes, but "
                f"these have {y_pred.shape[1]}."
            )
        y_pred, y = _one_hot_argmax("Fbeta.update", y_pred, y, self._class_num)
        self._true_positives = self._true_positives + (y * y_pred).sum(axis=0)
        self._positives = self._positives + y_pred.sum(axis=0)
        self._actual_positives = self._actual_positives + y.sum(axis=0)

    def eval(self, average: bool = False):
        """The per-class score (an array), or its mean when ``average`` is True."""
        _check_type("Fbeta", "average", average, (bool,))
        if self._class_num == 0:
            raise RuntimeError(
                "For 'Fbeta', eval() needs at least one update() with samples first."
            )
        beta2 = self.beta**2
        score = (
            (1.0 + beta2)
            * self._true_positives
            / (beta2 * self._actual_positives + self._positives + self.eps)
        )
        return score.mean() if average else score


class F1(Fbeta):
    """:class:`Fbeta` with ``beta=1``: the harmonic mean of precision and recall per class.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> nn.F1()(np.array([[0.2, 0.8], [0.6, 0.4]]), np.array([1, 0]))
        array([1., 1.])
    """

    def __init__(self) -> None:
        super().__init__(1.0)


def _binary_curve(scores: np.ndarray, target: np.ndarray, pos_label: int):
    if scores.ndim > target.ndim:
        scores = scores[:, 0]
    order = np.argsort(-scores)
    scores, target = scores[order], target[order]
    last_of_each = np.flatnonzero(np.diff(scores) != 0)
    ends = np.append(last_of_each, target.shape[0] - 1)
    true_positives = np.cumsum(target == pos_label)[ends]
    false_positives = 1 + ends - true_positives
    return false_positives, true_positives, scores[ends]


def _roc_inputs(y_pred: np.ndarray, y: np.ndarray, class_num, pos_label):
    if y_pred.ndim == y.ndim:
        if class_num is not None and class_num != 1:
            raise ValueError(
                f"For 'ROC', when y_pred and y have the same dimensions, 'class_num' must be 1, "
                f"but got {class_num}."
            )
        return y_pred.flatten(), y.flatten(), 1, 1 if pos_label is None else pos_label
    if y_pred.ndim != y.ndim + 1:
        raise ValueError(
            f"For 'ROC', y_pred must have the dimensions of y or one more, but got y_pred ndim "
            f"{y_pred.ndim} and y ndim {y.ndim}."
        )
    if pos_label is not None:
        raise ValueError(
            f"For 'ROC', when y_pred has one more dimension than y, 'pos_label' must be None, "
            f"but got {pos_label}."
        )
    if class_num != y_pred.shape[1]:
        raise ValueError(
            f"For 'ROC', the 'class_num' must equal the number of classes of y_pred, but got "
            f"'class_num' {class_num} and {y_pred.shape[1]} classes."
        )
    # MindSpore reshapes (N, C) to (C, N) without transposing: kept for identical curves.
    return y_pred.reshape(class_num, -1), y.flatten(), class_num, pos_label


class ROC(Metric):
    """Receiver operating characteristic of the last ``update(y_pred, y)``: ``eval()`` returns
    ``(fpr, tpr, thresholds)``, lists of one array per class when ``y_pred`` has a class axis.
    See https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.ROC.html

    Args:
        class_num (int | None): Number of classes; required for ``(N, C)`` scores. Default: ``None``.
        pos_label (int | None): Label counted as positive for binary scores. Default: ``None``
            (meaning 1).

    Differences from MindSpore:
        Multi-class curves read ``y_pred`` reshaped (not transposed) to ``(C, N)``, as MindSpore
        2.10 does; they are per class only when ``N == C``.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> fpr, tpr, thresholds = nn.ROC(pos_label=1)(np.array([0.1, 0.8, 0.4]), np.array([0, 1, 1]))
        >>> fpr, tpr
        (array([0., 0., 0., 1.]), array([0. , 0.5, 1. , 1. ]))
    """

    def __init__(self, class_num: int | None = None, pos_label: int | None = None) -> None:
        self.class_num = (
            None if class_num is None else _check_type("ROC", "class_num", class_num, (int,))
        )
        self.pos_label = (
            None if pos_label is None else _check_type("ROC", "pos_label", pos_label, (int,))
        )
        super().__init__()

    def clear(self) -> None:
        self.y_pred = 0
        self.y = 0
        self.sample_weights = None
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs) -> None:
        _check_inputs("ROC.update", inputs)
        self.y_pred, self.y, self.class_num, self.pos_label = _roc_inputs(
            _numpy(inputs[0]), _numpy(inputs[1]), self.class_num, self.pos_label
        )
        self._is_update = True

    def _curve(self, y_pred, y, class_num, pos_label):
        if class_num != 1:
            curves = [self._curve(*_roc_inputs(y_pred[:, c], y, 1, c)) for c in range(class_num)]
            return tuple(list(parts) for parts in zip(*curves))
        false_positives, true_positives, thresholds = _binary_curve(y_pred, y, pos_label)
        false_positives = np.concatenate([[0], false_positives])
        true_positives = np.concatenate([[0], true_positives])
        thresholds = np.concatenate([thresholds[:1] + 1, thresholds])
        if false_positives[-1] <= 0:
            raise ValueError(
                "For 'ROC.eval', y has no negative samples: the false positive rate is undefined."
            )
        if true_positives[-1] <= 0:
            raise ValueError(
                "For 'ROC.eval', y has no positive samples: the true positive rate is undefined."
            )
        return (
            false_positives / false_positives[-1],
            true_positives / true_positives[-1],
            thresholds,
        )

    def eval(self):
        """``(fpr, tpr, thresholds)`` of the last update."""
        _check_updated("ROC", self._is_update)
        return self._curve(
            np.squeeze(self.y_pred), np.squeeze(self.y), self.class_num, self.pos_label
        )


def _as_1d(name: str, value: np.ndarray) -> np.ndarray:
    if value.ndim == 1 or (value.ndim == 2 and value.shape[1] == 1):
        return value.ravel()
    raise ValueError(
        f"For 'auc', the argument '{name}' must be 1-D or of shape (N, 1), but got shape "
        f"{value.shape}."
    )


def auc(x: np.ndarray, y: np.ndarray, reorder: bool = False):
    """Area under the curve ``y(x)`` by the trapezoidal rule (e.g. of :class:`ROC`'s
    ``fpr, tpr``). See
    https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.auc.html

    Args:
        x (numpy.ndarray): Increasing or decreasing x coordinates (1-D or ``(N, 1)``).
        y (numpy.ndarray): y coordinates, as many as ``x``.
        reorder (bool): Sort the points by ``x`` (then ``y``) first. Default: ``False``.

    Returns:
        numpy.float64, the area.

    Raises:
        TypeError: If ``x`` or ``y`` is not a NumPy array.
        ValueError: If ``x`` is not monotonic (without ``reorder``) or has fewer than 2 points.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> float(nn.auc(np.array([0.0, 0.5, 1.0]), np.array([0.0, 1.0, 1.0])))
        0.75
    """
    if not isinstance(x, np.ndarray) or not isinstance(y, np.ndarray):
        raise TypeError(
            f"For 'auc', the arguments 'x' and 'y' must both be np.ndarray, but got "
            f"{type(x).__name__} and {type(y).__name__}."
        )
    if x.ndim == 0 or y.ndim == 0 or x.shape[0] != y.shape[0]:
        raise ValueError(
            f"For 'auc', 'x' and 'y' must hold as many points, but got shapes {x.shape} and {y.shape}."
        )
    x, y = _as_1d("x", x), _as_1d("y", y)
    if x.shape[0] < 2:
        raise ValueError(f"For 'auc', 'x' needs at least 2 points, but got {x.shape[0]}.")
    direction = 1
    if reorder:
        order = np.lexsort((y, x))
        x, y = x[order], y[order]
    else:
        steps = np.diff(x)
        if np.any(steps < 0):
            if not np.all(steps <= 0):
                raise ValueError(
                    f"For 'auc', when 'reorder' is False 'x' must be increasing or decreasing, "
                    f"but got {x}. Pass reorder=True to sort the points."
                )
            direction = -1
    return direction * np.sum(np.diff(x) * (y[1:] + y[:-1]) / 2.0)
