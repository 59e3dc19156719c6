"""Metrics for Model.eval (``nn.metrics``, ``train.metrics``): Accuracy, Loss, MAE, MSE, Top-k
here, the rest from the ``_metrics_*`` modules, and the by-name registry (``get_metric_fn``)."""

from __future__ import annotations

import numpy as np

from ._metric_base import Metric, _numpy, rearrange_inputs
from ._metrics_classification import F1, ROC, Fbeta, Precision, Recall, auc
from ._metrics_confusion import ConfusionMatrix, ConfusionMatrixMetric
from ._metrics_distance import (
    HausdorffDistance,
    MeanSurfaceDistance,
    OcclusionSensitivity,
    RootMeanSquareDistance,
)
from ._metrics_similarity import BleuScore, CosineSimilarity, Dice, Perplexity

__all__ = [
    "Metric",
    "Accuracy",
    "Loss",
    "MAE",
    "MSE",
    "TopKCategoricalAccuracy",
    "Top1CategoricalAccuracy",
    "Top5CategoricalAccuracy",
    "Precision",
    "Recall",
    "Fbeta",
    "F1",
    "ROC",
    "auc",
    "ConfusionMatrix",
    "ConfusionMatrixMetric",
    "Dice",
    "CosineSimilarity",
    "Perplexity",
    "BleuScore",
    "HausdorffDistance",
    "MeanSurfaceDistance",
    "RootMeanSquareDistance",
    "OcclusionSensitivity",
    "get_metric_fn",
    "get_metrics",
    "names",
    "rearrange_inputs",
]


class Accuracy(Metric):
    """Fraction of correct predictions: ``update(logits, labels)`` (labels as indices or
    one-hot).

    Examples:
        >>> import numpy as np
        >>> from cellax.train import Accuracy
        >>> metric = Accuracy()
        >>> metric.update(np.array([[0.2, 0.8], [0.9, 0.1]]), np.array([1, 1]))
        >>> metric.eval()
        0.5
    """

    def __init__(self, eval_type: str = "classification") -> None:
        if eval_type not in ("classification", "multilabel"):
            raise ValueError(
                f"For 'Accuracy', 'eval_type' must be 'classification' or 'multilabel', but got "
                f"{eval_type!r}."
            )
        self.eval_type = eval_type
        super().__init__()

    def clear(self) -> None:
        self._correct = 0
        self._total = 0

    def update(self, *inputs) -> None:
        if len(inputs) != 2:
            raise ValueError(
                f"For 'Accuracy.update', expected (y_pred, y), got {len(inputs)} inputs."
            )
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        if self.eval_type == "multilabel":
            correct = np.all(np.round(y_pred) == y, axis=-1)
        else:
            labels = y.argmax(-1) if y.ndim == y_pred.ndim else y
            correct = y_pred.argmax(-1) == labels.reshape(y_pred.shape[:-1])
        self._correct += int(correct.sum())
        self._total += int(correct.size)

    def eval(self) -> float:
        self._check_count("Accuracy", self._total)
        return self._correct / self._total


class Loss(Metric):
    """Mean of the loss values given to ``update(loss)``."""

    def clear(self) -> None:
        self._sum = 0.0
        self._count = 0

    def update(self, *inputs) -> None:
        value = _numpy(inputs[0])
        if value.size != 1:
            raise ValueError(
                f"For 'Loss.update', the loss must be a scalar, got shape {value.shape}."
            )
        self._sum += float(value)
        self._count += 1

    def eval(self) -> float:
        self._check_count("Loss", self._count)
        return self._sum / self._count


class MAE(Metric):
    """Mean absolute error over all ``update(y_pred, y)`` calls."""

    def clear(self) -> None:
        self._sum = 0.0
        self._count = 0

    def update(self, *inputs) -> None:
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        error = np.abs(y_pred.reshape(y.shape) - y)
        self._sum += float(error.reshape(error.shape[0], -1).mean(-1).sum())
        self._count += error.shape[0]

    def eval(self) -> float:
        self._check_count("MAE", self._count)
        return self._sum / self._count


class MSE(MAE):
    """Mean squared error over all ``update(y_pred, y)`` calls."""

    def update(self, *inputs) -> None:
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        error = (y_pred.reshape(y.shape) - y) ** 2
        self._sum += float(error.reshape(error.shape[0], -1).mean(-1).sum())
        self._count += error.shape[0]

    def eval(self) -> float:
        self._check_count("MSE", self._count)
        return self._sum / self._count


class TopKCategoricalAccuracy(Metric):
    """Fraction of samples whose label is among the ``k`` highest scores."""

    def __init__(self, k: int) -> None:
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise ValueError(
                f"For 'TopKCategoricalAccuracy', 'k' must be a positive int, got {k!r}."
            )
        self.k = k
        super().__init__()

    def clear(self) -> None:
        self._correct = 0
        self._total = 0

    def update(self, *inputs) -> None:
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        labels = y.argmax(-1) if y.ndim == y_pred.ndim else y
        top = np.argsort(-y_pred, axis=-1)[..., : self.k]
        self._correct += int((top == labels[..., None]).any(-1).sum())
        self._total += labels.size

    def eval(self) -> float:
        self._check_count("TopKCategoricalAccuracy", self._total)
        return self._correct / self._total


class Top1CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-1 accuracy."""

    def __init__(self) -> None:
        super().__init__(1)


class Top5CategoricalAccuracy(TopKCategoricalAccuracy):
    """Top-5 accuracy."""

    def __init__(self) -> None:
        super().__init__(5)


_BY_NAME = {
    "accuracy": Accuracy,
    "acc": Accuracy,
    "loss": Loss,
    "mae": MAE,
    "mse": MSE,
    "top_1_accuracy": Top1CategoricalAccuracy,
    "top_5_accuracy": Top5CategoricalAccuracy,
    "topk": TopKCategoricalAccuracy,
    "precision": Precision,
    "recall": Recall,
    "F1": F1,
    "roc": ROC,
    "auc": auc,
    "confusion_matrix": ConfusionMatrix,
    "confusion_matrix_metric": ConfusionMatrixMetric,
    "dice": Dice,
    "cosine_similarity": CosineSimilarity,
    "perplexity": Perplexity,
    "bleu_score": BleuScore,
    "hausdorff_distance": HausdorffDistance,
    "mean_surface_distance": MeanSurfaceDistance,
    "root_mean_square_distance": RootMeanSquareDistance,
    "occlusion_sensitivity": OcclusionSensitivity,
}


def get_metric_fn(name: str, *args, **kwargs) -> Metric:
    """A metric by name ('accuracy', 'loss', 'mae', 'mse', 'top_1_accuracy', ...).

    Raises:
        KeyError: If the name is unknown.
    """
    if name not in _BY_NAME:
        raise KeyError(f"For 'get_metric_fn', unknown metric {name!r}; known: {sorted(_BY_NAME)}.")
    return _BY_NAME[name](*args, **kwargs)


def names() -> list:
    """The sorted names ``get_metric_fn`` knows.

    Examples:
        >>> from cellax.train import names
        >>> "top_1_accuracy" in names()
        True
    """
    return sorted(_BY_NAME)


def get_metrics(metrics):
    """``{name: Metric}`` for a set of names or a dict of names or Metrics (None stays None).

    Raises:
        TypeError: If ``metrics`` is not None, a dict or a set.

    Examples:
        >>> from cellax.train import get_metrics
        >>> sorted(get_metrics({"acc", "loss"}))
        ['acc', 'loss']
    """
    if metrics is None:
        return metrics
    if isinstance(metrics, dict):
        return {
            name: get_metric_fn(metric) if isinstance(metric, str) else metric
            for name, metric in metrics.items()
        }
    if isinstance(metrics, set):
        return {name: get_metric_fn(name) for name in metrics}
    raise TypeError(
        f"For 'get_metrics', the argument 'metrics' should be None, dict or set, but got "
        f"{type(metrics).__name__}."
    )
