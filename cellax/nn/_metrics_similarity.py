"""Overlap, similarity and language metrics: Dice, CosineSimilarity, Perplexity, BleuScore."""

from __future__ import annotations

import collections
import math

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

__all__ = ["Dice", "CosineSimilarity", "Perplexity", "BleuScore"]


class Dice(Metric):
    """Dice coefficient ``2 |X ∩ Y| / (|X| + |Y|)`` of ``update(y_pred, y)`` pairs.

    Each ``update`` adds the coefficient of the whole batch (flattened); ``eval`` divides the
    sum by the number of samples seen (the sum of the batch sizes), as MindSpore does. See
    https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.Dice.html

    Args:
        smooth (float): Added to the denominator; a positive float. Default: ``1e-5``.

    Raises:
        TypeError: If ``smooth`` is not a float.
        ValueError: If ``smooth`` is not positive.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> metric = nn.Dice(smooth=1e-5)
        >>> metric.update(np.array([[0.2, 0.5], [0.3, 0.1]]), np.array([[0, 1], [0, 1]]))
        >>> round(metric.eval(), 4)
        0.251
    """

    def __init__(self, smooth: float = 1e-5) -> None:
        _check_type("Dice", "smooth", smooth, (float,))
        if smooth <= 0:
            raise ValueError(
                f"For 'Dice', the argument 'smooth' must be positive, but got {smooth}."
            )
        self.smooth = smooth
        super().__init__()

    def clear(self) -> None:
        self._dice_coeff_sum = 0
        self._samples_num = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        _check_inputs("Dice.update", inputs)
        y_pred, y = _numpy(inputs[0]), _numpy(inputs[1])
        self._samples_num += y.shape[0]
        if y_pred.shape != y.shape:
            raise ValueError(
                f"For 'Dice.update', y_pred and y must have the same shape, but got {y_pred.shape} "
                f"and {y.shape}."
            )
        y_pred, y = y_pred.ravel(), y.ravel()
        intersection = float(np.dot(y_pred, y))
        union = float(np.dot(y_pred, y_pred) + np.dot(y, y))
        self._dice_coeff_sum += 2 * intersection / (union + self.smooth)

    def eval(self) -> float:
        """The summed coefficients over the number of samples."""
        if self._samples_num == 0:
            raise RuntimeError("For 'Dice', eval() needs at least one update() with samples first.")
        return self._dice_coeff_sum / float(self._samples_num)


class CosineSimilarity(Metric):
    """Pairwise similarity matrix of the rows of the last ``update(inputs)`` (``(N, D)``).
    See https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.CosineSimilarity.html

    Args:
        similarity (str): ``'cosine'`` or ``'dot'``. Default: ``'cosine'``.
        reduction (str): ``'none'`` (the ``(N, N)`` matrix), ``'sum'`` or ``'mean'`` (per row).
            Default: ``'none'``.
        zero_diagonal (bool): Set the diagonal to 0 first. Default: ``True``.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> metric = nn.CosineSimilarity()
        >>> metric.update(np.array([[1.0, 0.0], [1.0, 1.0]]))
        >>> metric.eval().round(4)
        array([[0.    , 0.7071],
               [0.7071, 0.    ]])
    """

    def __init__(
        self, similarity: str = "cosine", reduction: str = "none", zero_diagonal: bool = True
    ) -> None:
        api = "CosineSimilarity"
        self.similarity = _check_choice(api, "similarity", similarity, ("dot", "cosine"))
        self.reduction = _check_choice(api, "reduction", reduction, ("none", "sum", "mean"))
        self.zero_diagonal = _check_type(api, "zero_diagonal", zero_diagonal, (bool,))
        super().__init__()

    def clear(self) -> None:
        self.sqr_mtx_res = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, inputs) -> None:
        data = _numpy(inputs)
        if self.similarity == "cosine":
            data = data / np.linalg.norm(data, ord=2, axis=1)[:, None]
        self.sqr_mtx_res = data @ data.T
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The similarity matrix, or its row sums or means."""
        _check_updated("CosineSimilarity", self._is_update)
        result = np.array(self.sqr_mtx_res)
        if self.zero_diagonal:
            np.fill_diagonal(result, 0)
        if self.reduction == "mean":
            return result.mean(axis=-1)
        if self.reduction == "sum":
            return result.sum(axis=-1)
        return result


class Perplexity(Metric):
    """Perplexity ``exp(mean(-log p[label]))`` of ``update(preds, labels)`` pairs: ``preds``
    ``(N, C)`` probabilities and ``labels`` ``N`` class indices (any shape).
    See https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.Perplexity.html

    Args:
        ignore_label (int | None): Label whose positions are skipped. Default: ``None``.

    Raises:
        TypeError: If ``ignore_label`` is neither None nor an int.

    Examples:
        >>> import numpy as np
        >>> from cellax import nn
        >>> metric = nn.Perplexity(ignore_label=None)
        >>> metric.update(np.array([[0.6, 0.5, 0.1], [0.3, 0.6, 0.05]]), np.array([[0, 1]]))
        >>> round(metric.eval(), 4)
        1.6667
    """

    def __init__(self, ignore_label: int | None = None) -> None:
        if ignore_label is not None:
            _check_type("Perplexity", "ignore_label", ignore_label, (int,))
        self.ignore_label = ignore_label
        super().__init__()

    def clear(self) -> None:
        self._sum_metric = 0.0
        self._num_inst = 0

    @rearrange_inputs
    def update(self, *inputs) -> None:
        _check_inputs("Perplexity.update", inputs, "predicted value, label")
        pred, label = _numpy(inputs[0]), _numpy(inputs[1])
        if label.size != pred.size / pred.shape[-1]:
            raise RuntimeError(
                f"For 'Perplexity.update', preds must hold one row per label, but got preds shape "
                f"{pred.shape} and label shape {label.shape}."
            )
        label = label.reshape(label.size)
        picked = np.squeeze(pred[np.arange(label.size)[:, None], label.astype(int)[:, None]])
        count = picked.size
        if self.ignore_label is not None:
            ignore = (label == self.ignore_label).astype(picked.dtype)
            count -= np.sum(ignore)
            picked = picked * (1 - ignore) + ignore
        self._sum_metric -= np.sum(np.log(np.maximum(1e-10, picked)))
        self._num_inst += count

    def eval(self) -> float:
        """``exp`` of the mean negative log-probability of the labels."""
        if self._num_inst == 0:
            raise RuntimeError("For 'Perplexity', eval() needs at least one update() first.")
        return math.exp(self._sum_metric / self._num_inst)


def _ngrams(tokens, n_gram: int) -> collections.Counter:
    return collections.Counter(
        tuple(tokens[start : start + n])
        for n in range(1, n_gram + 1)
        for start in range(len(tokens) - n + 1)
    )


class BleuScore(Metric):
    """BLEU score of translated sentences against reference sentences, over all
    ``update(candidate_corpus, reference_corpus)`` calls (lists of token lists; each candidate
    has a list of references). See
    https://www.mindspore.cn/docs/en/r2.1/api_python/train/mindspore.train.BleuScore.html

    Args:
        n_gram (int): Largest n-gram, 1 to 4. Default: ``4``.
        smooth (bool): Add one to every n-gram count (Lin and Och smoothing). Default: ``False``.

    Raises:
        TypeError: If ``n_gram`` is not an int or ``smooth`` not a bool.
        ValueError: If ``n_gram`` is outside 1..4.

    Examples:
        >>> from cellax import nn
        >>> metric = nn.BleuScore()
        >>> candidates = [["i", "have", "a", "pen", "on", "my", "desk"]]
        >>> references = [[["i", "have", "a", "pen", "in", "my", "desk"],
        ...                ["there", "is", "a", "pen", "on", "the", "desk"]]]
        >>> metric.update(candidates, references)
        >>> round(float(metric.eval()), 4)
        0.5946
    """

    def __init__(self, n_gram: int = 4, smooth: bool = False) -> None:
        self.n_gram = _check_type("BleuScore", "n_gram", n_gram, (int,))
        if not 1 <= n_gram <= 4:
            raise ValueError(
                f"For 'BleuScore', the argument 'n_gram' should range from 1 to 4, but got {n_gram}."
            )
        self.smooth = _check_type("BleuScore", "smooth", smooth, (bool,))
        super().__init__()

    def clear(self) -> None:
        self._numerator = np.zeros(self.n_gram)
        self._denominator = np.zeros(self.n_gram)
        self._candidate_length = 0.0
        self._reference_length = 0.0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs) -> None:
        _check_inputs("BleuScore.update", inputs, "candidate_corpus, reference_corpus")
        candidates, references = inputs
        if len(candidates) != len(references):
            raise ValueError(
                f"For 'BleuScore.update', the candidate corpus (inputs[0]) and the reference "
                f"corpus (inputs[1]) must be equally long, but got {len(candidates)} and "
                f"{len(references)}."
            )
        for candidate, refs in zip(candidates, references):
            self._candidate_length += len(candidate)
            lengths = [len(ref) for ref in refs]
            gaps = [abs(len(candidate) - length) for length in lengths]
            self._reference_length += lengths[gaps.index(min(gaps))]
            counts = _ngrams(candidate, self.n_gram)
            best = collections.Counter()
            for ref in refs:
                best |= _ngrams(ref, self.n_gram)
            for gram, count in (counts & best).items():
                self._numerator[len(gram) - 1] += count
            for gram, count in counts.items():
                self._denominator[len(gram) - 1] += count
        self._is_update = True

    def eval(self) -> np.ndarray:
        """The BLEU score (a 0-d array); 0 when some n-gram order has no match."""
        _check_updated("BleuScore", self._is_update)
        if min(self._numerator) == 0.0:
            return np.array(0.0)
        if self.smooth:
            precisions = (self._numerator + 1) / (self._denominator + 1)
        else:
            precisions = self._numerator / self._denominator
        geometric_mean = np.exp(np.sum(np.log(precisions) / self.n_gram))
        if self._candidate_length > self._reference_length:
            brevity_penalty = np.array(1.0)
        else:
            brevity_penalty = np.exp(1 - np.array(self._reference_length / self._candidate_length))
        return brevity_penalty * geometric_mean
