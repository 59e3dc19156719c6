"""Confusion-matrix metrics: ConfusionMatrix (counts, normalised) and ConfusionMatrixMetric
(sensitivity, specificity, F1, MCC, ... from binarised segmentation-style inputs)."""

from __future__ import annotations

import numpy as np

from ._metric_base import (
    Metric,
    _check_choice,
    _check_inputs,
    _check_type,
    _check_updated,
    _numpy,
    rearrange_inputs,
)

__all__ = ["ConfusionMatrix", "ConfusionMatrixMetric"]


class ConfusionMatrix(Metric):
    """Confusion matrix ``[true class, predicted class]`` summed over ``update(y_pred, y)`` calls.

    ``y_pred`` is class scores ``(N, C, ...)`` (the argmax over axis 1 is the prediction) or has
    the shape of ``y``: float values are thresholded, integer values are classes. See
    https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.ConfusionMatrix.html

    Args:
        num_classes (int): Number of classes.
        normalize (str): ``'no_norm'``, ``'target'`` (rows sum to 1), ``'prediction'`` (columns
            sum to 1) or ``'all'``. Default: ``'no_norm'``.
        threshold (float): Cut-off for float ``y_pred`` of ``y``'s shape. Default: ``0.5``.

    Raises:
        TypeError: If ``num_classes`` is not an int or ``threshold`` not a float.
        ValueError: If ``normalize`` is not one of the four.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> metric = nn.ConfusionMatrix(num_classes=2)
        >>> metric.update(np.array([1, 0, 1, 0]), np.array([1, 0, 0, 1]))
        >>> metric.eval()
        array([[1., 1.],
               [1., 1.]])
    """

    def __init__(
        self, num_classes: int, normalize: str = "no_norm", threshold: float = 0.5
    ) -> None:
        self.num_classes = _check_type("ConfusionMatrix", "num_classes", num_classes, (int,))
        if normalize not in ("target", "prediction", "all", "no_norm"):
            raise ValueError(
                f"For 'ConfusionMatrix', the argument 'normalize' must be in ['all', 'prediction', "
                f"'target', 'no_norm'], but got {normalize!r}."
            )
        self.normalize = normalize
        self.threshold = _check_type("ConfusionMatrix", "threshold", threshold, (float,))
        super().__init__()

    def clear(self) -> None:
        self.confusion_matrix = np.zeros((self.num_classes, self.num_classes))
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs) -> None:
        _check_inputs("ConfusionMatrix.update", inputs)
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        if y_pred.ndim == y.ndim + 1:
            y_pred = y_pred.argmax(axis=1)
        elif y_pred.ndim != y.ndim:
            raise ValueError(
                f"For 'ConfusionMatrix.update', y_pred must have the dimensions of y or one more, "
                f"but got y_pred ndim {y_pred.ndim} and y ndim {y.ndim}."
            )
        elif np.issubdtype(y_pred.dtype, np.floating):
            y_pred = (y_pred >= self.threshold).astype(int)
        cells = (y.reshape(-1) * self.num_classes + y_pred.reshape(-1)).astype(int)
        counts = np.bincount(cells, minlength=self.num_classes**2)
        self.confusion_matrix += counts.reshape(self.num_classes, self.num_classes)
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The ``(num_classes, num_classes)`` matrix, normalised as asked (0 where undefined)."""
        _check_updated("ConfusionMatrix", self._is_update)
        matrix = self.confusion_matrix.astype(float)
        if self.normalize == "no_norm":
            return matrix
        total = {
            "target": matrix.sum(axis=1, keepdims=True),
            "prediction": matrix.sum(axis=0, keepdims=True),
            "all": matrix.sum(),
        }[self.normalize]
        with np.errstate(divide="ignore", invalid="ignore"):
            matrix = matrix / total
        return np.nan_to_num(matrix, nan=0.0)


_METRIC_ALIASES = {
    "tpr": "sensitivity recall hit_rate true_positive_rate tpr",
    "tnr": "specificity selectivity true_negative_rate tnr",
    "ppv": "precision positive_predictive_value ppv",
    "npv": "negative_predictive_value npv",
    "fnr": "miss_rate false_negative_rate fnr",
    "fpr": "fall_out false_positive_rate fpr",
    "fdr": "false_discovery_rate fdr",
    "for": "false_omission_rate for",
    "pt": "prevalence_threshold pt",
    "ts": "threat_score critical_success_index ts csi",
    "acc": "accuracy acc",
    "ba": "balanced_accuracy ba",
    "f1": "f1_score f1",
    "mcc": "matthews_correlation_coefficient mcc",
    "fm": "fowlkes_mallows_index fm",
    "bm": "informedness bookmaker_informedness bm",
    "mk": "markedness deltap mk",
}
_METRIC_KEYS = {alias: key for key, names in _METRIC_ALIASES.items() for alias in names.split()}
_DECREASES = ("none", "mean", "sum", "mean_batch", "sum_batch", "mean_channel", "sum_channel")


def _metric_key(metric_name: str) -> str:
    key = _METRIC_KEYS.get(metric_name.replace(" ", "_").lower())
    if key is None:
        raise NotImplementedError(
            f"For 'ConfusionMatrixMetric', the metric {metric_name!r} is not implemented; known: "
            f"{sorted(_METRIC_KEYS)}."
        )
    return key


def _ratio(numerator, denominator):
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, numerator / denominator, np.nan)


def _fraction(key: str, tp, fp, tn, fn):
    """(numerator, denominator) of one metric from the four counts."""
    p, n = tp + fn, fp + tn
    if key in ("pt", "ba", "bm"):
        tpr, tnr = _ratio(tp, p), _ratio(tn, n)
        if key == "pt":
            return np.sqrt(tpr * (1.0 - tnr)) + tnr - 1.0, tpr + tnr - 1.0
        return (tpr + tnr, 2.0) if key == "ba" else (tpr + tnr - 1.0, 1.0)
    if key == "fm":
        return np.sqrt(_ratio(tp, tp + fp) * _ratio(tp, p)), 1.0
    if key == "mk":
        # MindSpore divides tn / (tn + fn) unguarded here (nan when both are 0).
        with np.errstate(divide="ignore", invalid="ignore"):
            return _ratio(tp, tp + fp) + tn / (tn + fn) - 1.0, 1.0
    if key == "mcc":
        return tp * tn - fp * fn, np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return {
        "tpr": (tp, p),
        "tnr": (tn, n),
        "ppv": (tp, tp + fp),
        "npv": (tn, tn + fn),
        "fnr": (fn, p),
        "fpr": (fp, n),
        "fdr": (fp, fp + tp),
        "for": (fn, fn + tn),
        "ts": (tp, tp + fn + fp),
        "acc": (tp + tn, p + n),
        "f1": (tp * 2.0, tp * 2.0 + fn + fp),
    }[key]


def _compute_metric(metric_name: str, counts: np.ndarray):
    key = _metric_key(metric_name)
    counts = counts[None] if counts.ndim == 1 else counts
    numerator, denominator = _fraction(key, *np.moveaxis(counts, -1, 0))
    if isinstance(denominator, np.ndarray):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(denominator != 0, numerator / denominator, np.nan)
    return numerator / denominator


def _counts(y_pred: np.ndarray, y: np.ndarray, skip_channel: bool) -> np.ndarray:
    """``(batch, channel, 4)`` counts ``[tp, fp, tn, fn]``."""
    if not skip_channel:
        y = y[:, 1:] if y.shape[1] > 1 else y
        y_pred = y_pred[:, 1:] if y_pred.shape[1] > 1 else y_pred
    if y.shape != y_pred.shape:
        raise ValueError(
            f"For 'ConfusionMatrixMetric.update', y_pred and y must have the same shape, but got "
            f"{y_pred.shape} and {y.shape}."
        )
    batch, channels = y_pred.shape[:2]
    y_pred = y_pred.astype(float).reshape(batch, channels, -1)
    y = y.astype(float).reshape(batch, channels, -1)
    tp = (y_pred + y == 2).sum(axis=2).astype(float)
    tn = (y_pred + y == 0).sum(axis=2).astype(float)
    positives = y.sum(axis=2)
    return np.stack([tp, y.shape[-1] - positives - tn, tn, positives - tp], axis=-1)


def _reduce(chart: np.ndarray, decrease: str):
    """(reduced chart, count of non-NaN entries) over batch (axis 0) and channel (axis 1)."""
    valid = (~np.isnan(chart)).astype(float)
    chart = np.where(np.isnan(chart), 0.0, chart)

    def mean(values, count, axis):
        count = count.sum(axis=axis)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(count > 0, values.sum(axis=axis) / count, 0.0), count

    if decrease == "mean":
        chart, count = mean(chart, valid, 1)
        return mean(chart, (count > 0).astype(float), 0)
    if decrease == "sum":
        return chart.sum(axis=(0, 1)), valid.sum(axis=(0, 1))
    axis = {"batch": 0, "channel": 1}.get(decrease.partition("_")[2])
    if axis is None:
        return chart, valid
    if decrease.startswith("mean"):
        return mean(chart, valid, axis)
    return chart.sum(axis=axis), valid.sum(axis=axis)


class ConfusionMatrixMetric(Metric):
    """A metric of the binary confusion matrix (``metric_name``: sensitivity, specificity,
    precision, F1, MCC, ...) of binarised ``update(y_pred, y)`` pairs of shape
    ``(N, C, ...)``. See
    https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.ConfusionMatrixMetric.html

    Args:
        skip_channel (bool): Count channel 0 too; ``False`` drops it. Default: ``True``.
        metric_name (str): Name of the metric (``'sensitivity'``, ``'specificity'``,
            ``'precision'``, ``'f1_score'``, ``'mcc'``, ...). Default: ``'sensitivity'``.
        calculation_method (bool): Compute the metric per sample and average (True), or on
            the counts of the whole data set (False). Default: ``False``.
        decrease (str): How per-sample values are reduced when ``calculation_method`` is True:
            ``'none'``, ``'mean'``, ``'sum'``, ``'mean_batch'``, ``'sum_batch'``,
            ``'mean_channel'``, ``'sum_channel'``. Default: ``'mean'``.

    Differences from MindSpore:
        With ``calculation_method=True``, ``(N, C)`` and ``(N, C, 1)`` inputs raise a
        ValueError saying so; MindSpore fails on them with an unrelated unpacking error.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> metric = nn.ConfusionMatrixMetric(metric_name="precision")
        >>> metric.update(np.array([[[0, 1, 1]]]), np.array([[[0, 1, 0]]]))
        >>> metric.eval()
        array([0.5])
    """

    def __init__(
        self,
        skip_channel: bool = True,
        metric_name: str = "sensitivity",
        calculation_method: bool = False,
        decrease: str = "mean",
    ) -> None:
        api = "ConfusionMatrixMetric"
        self.skip_channel = _check_type(api, "skip_channel", skip_channel, (bool,))
        self.calculation_method = _check_type(
            api, "calculation_method", calculation_method, (bool,)
        )
        self.metric_name = _check_type(api, "metric_name", metric_name, (str,))
        self.decrease = _check_choice(api, "decrease", decrease, _DECREASES)
        super().__init__()

    def clear(self) -> None:
        self._total_num = 0
        self._class_num = 0
        self._totals = np.zeros(4)

    @rearrange_inputs
    def update(self, *inputs) -> None:
        _check_inputs("ConfusionMatrixMetric.update", inputs)
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        if not np.all(y.astype(np.uint8) == y):
            raise ValueError("For 'ConfusionMatrixMetric.update', y must be binarised (0 or 1).")
        if y_pred.ndim < 2:
            raise ValueError(
                f"For 'ConfusionMatrixMetric.update', y_pred must have at least 2 dimensions, but "
                f"got {y_pred.ndim}."
            )
        counts = _counts(y_pred, y, self.skip_channel)
        per_sample = self.calculation_method and not (
            y_pred.ndim == 2 or (y_pred.ndim == 3 and y_pred.shape[-1] == 1)
        )
        if per_sample:
            score, valid = _reduce(_compute_metric(self.metric_name, counts), self.decrease)
            valid = int(np.asarray(valid).item())
            self._total_num += np.asarray(score).item() * valid
            self._class_num += valid
        elif self.calculation_method:
            raise ValueError(
                "For 'ConfusionMatrixMetric.update', calculation_method=True needs y_pred with "
                f"spatial dimensions (N, C, ...), but got shape {y_pred.shape}. Use "
                "calculation_method=False for (N, C) inputs."
            )
        else:
            self._totals = self._totals + counts.sum(axis=(0, 1))

    def eval(self):
        """The metric: an array of one value (whole-dataset counts), or the mean per-sample
        value when ``calculation_method`` is True."""
        if self.calculation_method:
            if self._class_num == 0:
                raise RuntimeError(
                    "For 'ConfusionMatrixMetric', eval() needs at least one update() with "
                    "defined values first."
                )
            return self._total_num / self._class_num
        return _compute_metric(self.metric_name, self._totals)
