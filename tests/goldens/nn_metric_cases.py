"""nn.metrics golden cases, run under MindSpore 2.10 (recording) and cellax alike.

Each case is a function of the metrics namespace (``mindspore.train`` or ``cellax.nn.metrics``)
that builds a metric, feeds it NumPy batches and returns what ``eval`` gives (as JSON via
:func:`to_json`). :func:`run` turns an exception into ``{"error": type name, "message": ...}``.
"""

import numpy as np

_RNG = np.random.default_rng(0)
LOGITS = [_RNG.random((8, 3)), _RNG.random((6, 3))]
LABELS = [_RNG.integers(0, 3, 8), _RNG.integers(0, 3, 6)]
ONEHOT = np.eye(3)[LABELS[1]]
MULTI_PRED = [_RNG.integers(0, 2, (6, 3)), _RNG.integers(0, 2, (4, 3))]
MULTI_TRUE = [_RNG.integers(0, 2, (6, 3)), _RNG.integers(0, 2, (4, 3))]
SEG_PRED = _RNG.integers(0, 2, (4, 3, 5)).astype(np.float64)
SEG_TRUE = _RNG.integers(0, 2, (4, 3, 5)).astype(np.float64)
PROBS = _RNG.random((6, 4))
PROBS = PROBS / PROBS.sum(-1, keepdims=True)
WORDS = _RNG.integers(0, 4, 6)
EMBED = _RNG.random((4, 5)) - 0.3
SCORES = np.array([0.1, 0.4, 0.35, 0.8, 0.7, 0.2, 0.9, 0.4])
TARGETS = np.array([0, 0, 1, 1, 1, 0, 1, 0])
CANDIDATES = [["i", "have", "a", "pen", "on", "my", "desk"], ["the", "cat", "sat", "down"]]
REFERENCES = [
    [
        ["i", "have", "a", "pen", "in", "my", "desk"],
        ["there", "is", "a", "pen", "on", "the", "desk"],
    ],
    [["the", "cat", "sat", "on", "the", "mat"]],
]


def to_json(value):
    if isinstance(value, (list, tuple)):
        return [to_json(item) for item in value]
    array = np.asarray(value, dtype=np.float64)
    if array.dtype == object:
        raise TypeError(type(value))
    array = np.where(np.isnan(array), -999.0, array)  # JSON has no NaN
    return array.tolist()


def _feed(metric, batches, evals=({},)):
    for batch in batches:
        metric.update(*batch)
    return [to_json(metric.eval(**kwargs)) for kwargs in evals]


def _classification(cls, eval_type):
    def case(m):
        metric = getattr(m, cls)(eval_type)
        if eval_type == "multilabel":
            batches = list(zip(MULTI_PRED, MULTI_TRUE))
        else:
            batches = [(LOGITS[0], LABELS[0]), (LOGITS[1], ONEHOT)]
        out = _feed(metric, batches, ({}, {"average": True}))
        metric.clear()
        return out + _feed(metric, batches[:1], ({"average": True},))

    return case


def _fbeta(m):
    batches = [(LOGITS[0], LABELS[0]), (LOGITS[1], ONEHOT)]
    return _feed(m.Fbeta(0.5), batches, ({}, {"average": True})) + _feed(
        m.F1(), batches, ({}, {"average": True})
    )


def _confusion(normalize):
    def case(m):
        return _feed(
            m.ConfusionMatrix(3, normalize),
            [(LOGITS[0], LABELS[0]), (LOGITS[1], LABELS[1]), (LABELS[1][::-1].copy(), LABELS[1])],
        )

    return case


def _confusion_binary(m):
    return _feed(m.ConfusionMatrix(num_classes=2, threshold=0.4), [(SCORES, TARGETS)]) + _feed(
        m.ConfusionMatrix(2, "all", 0.7), [(SCORES, TARGETS)]
    )


_METRIC_NAMES = (
    "sensitivity specificity precision npv miss_rate fall_out fdr for prevalence_threshold "
    "threat_score accuracy balanced_accuracy f1_score mcc fowlkes_mallows_index informedness "
    "markedness"
).split()


def _confusion_metric(calculation_method, decrease, skip_channel):
    def case(m):
        out = []
        for name in _METRIC_NAMES:
            metric = m.ConfusionMatrixMetric(skip_channel, name, calculation_method, decrease)
            out += _feed(metric, [(SEG_PRED, SEG_TRUE), (SEG_PRED[:2], SEG_TRUE[2:])])
        return out

    return case


def _dice(m):
    return _feed(m.Dice(), [(SEG_PRED, SEG_TRUE), (SEG_PRED[0], SEG_TRUE[1])]) + _feed(
        m.Dice(smooth=0.5), [(SEG_PRED[:1], SEG_PRED[:1])]
    )


def _perplexity(ignore_label):
    def case(m):
        return _feed(m.Perplexity(ignore_label), [(PROBS, WORDS), (PROBS[3:], WORDS[3:, None])])

    return case


def _cosine(similarity, reduction, zero_diagonal):
    def case(m):
        metric = m.CosineSimilarity(similarity, reduction, zero_diagonal)
        metric.update(EMBED)
        return to_json(metric.eval())

    return case


def _roc_binary(m):
    out = _feed(m.ROC(), [(SCORES, TARGETS)])
    out += _feed(m.ROC(pos_label=0), [(SCORES, TARGETS)])
    fpr, tpr, _ = m.ROC()(SCORES, TARGETS)
    return out + [to_json(m.auc(fpr, tpr)), to_json(m.auc(fpr[::-1], tpr[::-1]))]


def _roc_multiclass(rows):
    def case(m):
        scores = np.abs(np.sin(np.arange(rows * 4.0))).reshape(rows, 4)
        return _feed(m.ROC(class_num=4), [(scores, np.arange(rows) % 4)])

    return case


def _auc(m):
    x = np.array([0.0, 0.5, 0.2, 1.0])
    y = np.array([0.1, 0.6, 0.3, 0.9])
    return [to_json(m.auc(x, y, reorder=True)), to_json(m.auc(np.sort(x)[:, None], y))]


def _bleu(n_gram, smooth):
    def case(m):
        metric = m.BleuScore(n_gram, smooth)
        out = _feed(metric, [(CANDIDATES[:1], REFERENCES[:1])])
        return out + _feed(metric, [(CANDIDATES[1:], REFERENCES[1:])])

    return case


def _call(m):
    return [to_json(m.Precision()(LOGITS[0], LABELS[0])), to_json(m.Dice()(SEG_PRED, SEG_TRUE))]


def _by_name(m):
    return [
        type(m.get_metric_fn(name)).__name__
        for name in ("precision", "recall", "F1", "dice", "bleu_score", "perplexity", "roc")
    ] + [type(m.get_metric_fn("confusion_matrix", 2)).__name__]


def _error(expr):
    def case(m):
        return to_json(eval(expr, {"m": m, "np": np, "LOGITS": LOGITS, "LABELS": LABELS}))

    return case


CASES = {
    "precision_classification": _classification("Precision", "classification"),
    "precision_multilabel": _classification("Precision", "multilabel"),
    "recall_classification": _classification("Recall", "classification"),
    "recall_multilabel": _classification("Recall", "multilabel"),
    "fbeta_f1": _fbeta,
    "confusion_no_norm": _confusion("no_norm"),
    "confusion_target": _confusion("target"),
    "confusion_prediction": _confusion("prediction"),
    "confusion_all": _confusion("all"),
    "confusion_binary": _confusion_binary,
    "confusion_metric_sum": _confusion_metric(False, "mean", True),
    "confusion_metric_skip_first": _confusion_metric(False, "mean", False),
    "confusion_metric_mean": _confusion_metric(True, "mean", True),
    "confusion_metric_total": _confusion_metric(True, "sum", True),
    "dice": _dice,
    "perplexity": _perplexity(None),
    "perplexity_ignore": _perplexity(1),
    "cosine": _cosine("cosine", "none", True),
    "cosine_dot_sum": _cosine("dot", "sum", False),
    "cosine_mean": _cosine("cosine", "mean", False),
    "roc_binary": _roc_binary,
    "roc_multiclass_square": _roc_multiclass(4),
    "roc_multiclass_rows": _roc_multiclass(8),
    "auc": _auc,
    "bleu": _bleu(4, False),
    "bleu_smooth": _bleu(2, True),
    "bleu_zero": _bleu(4, True),
    "call": _call,
    "by_name": _by_name,
    "error_precision_empty": _error("m.Precision().eval()"),
    "error_precision_inputs": _error("m.Precision().update(LOGITS[0])"),
    "error_precision_type": _error("m.Precision('binary')"),
    "error_fbeta_beta": _error("m.Fbeta(0)"),
    "error_f1_empty": _error("m.F1().eval()"),
    "error_confusion_normalize": _error("m.ConfusionMatrix(3, 'label')"),
    "error_confusion_empty": _error("m.ConfusionMatrix(3).eval()"),
    "error_confusion_metric_name": _error(
        "m.ConfusionMatrixMetric(metric_name='nope')(np.ones((2, 2)), np.ones((2, 2)))"
    ),
    "error_confusion_metric_decrease": _error("m.ConfusionMatrixMetric(decrease='max')"),
    "error_dice_empty": _error("m.Dice().eval()"),
    "error_dice_smooth": _error("m.Dice(0)"),
    "error_dice_shape": _error("m.Dice().update(np.ones((2, 3)), np.ones((3, 2)))"),
    "error_perplexity_label": _error("m.Perplexity(1.5)"),
    "error_perplexity_empty": _error("m.Perplexity().eval()"),
    "error_cosine_reduction": _error("m.CosineSimilarity(reduction='max')"),
    "error_cosine_empty": _error("m.CosineSimilarity().eval()"),
    "error_roc_empty": _error("m.ROC().eval()"),
    "error_roc_class_num": _error("m.ROC(class_num=2)(LOGITS[0], LABELS[0])"),
    "error_auc_type": _error("m.auc([0, 1], [0, 1])"),
    "error_auc_order": _error("m.auc(np.array([0.0, 1.0, 0.5]), np.zeros(3))"),
    "error_bleu_ngram": _error("m.BleuScore(5)"),
    "error_bleu_empty": _error("m.BleuScore().eval()"),
    "error_bleu_lengths": _error("m.BleuScore().update([['a']], [])"),
}


def run(m, case):
    try:
        return {"value": CASES[case](m)}
    except Exception as exc:  # noqa: BLE001 - the error is the golden
        return {"error": type(exc).__name__, "message": str(exc).strip()[:200]}
