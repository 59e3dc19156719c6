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


# Label maps for the surface metrics (labels 0..2), 2-D and 3-D, and a pair whose foreground
# bounding box is one row high (HausdorffDistance's crop then drops that axis).
LABEL_PRED = _RNG.integers(0, 3, (7, 9))
LABEL_TRUE = np.clip(LABEL_PRED + (_RNG.random((7, 9)) < 0.3) * _RNG.integers(-1, 2, (7, 9)), 0, 2)
VOLUME_PRED = (_RNG.random((5, 6, 7)) < 0.6).astype(np.int64)
VOLUME_TRUE = np.roll(VOLUME_PRED, 1, axis=1) * (_RNG.random((5, 6, 7)) < 0.9)
ROW_PRED = np.zeros((5, 8), np.int64)
ROW_PRED[2, 1:6] = 1
ROW_TRUE = np.zeros((5, 8), np.int64)
ROW_TRUE[2, 3:8] = 1
BLOCK_PRED = np.zeros((8, 8), np.int64)
BLOCK_PRED[1:6, 2:7] = 1
BLOCK_TRUE = np.zeros((8, 8), np.int64)
BLOCK_TRUE[2:8, 0:4] = 1
PIXEL = np.zeros((4, 4), np.int64)
PIXEL[1, 2] = 1
COLUMN_PRED = np.zeros((1, 5, 1), np.int64)
COLUMN_PRED[0, 1:4, 0] = 1
COLUMN_TRUE = np.zeros((1, 5, 1), np.int64)
COLUMN_TRUE[0, 2, 0] = 1
# OcclusionSensitivity: a (1, 2, 3, 4) image scored by Flatten + Dense(24, 3).
IMAGE = _RNG.random((1, 2, 3, 4)).astype(np.float32)
DENSE_W = (_RNG.random((3, 24)) - 0.5).astype(np.float32)
DENSE_B = np.array([0.1, -0.2, 0.3], np.float32)


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


def _surface(cls, kwargs, batches):
    def case(m):
        metric = getattr(m, cls)(**kwargs)
        out = []
        for batch in batches:
            metric.update(*batch)
            out.append(to_json(metric.eval()))
        return out

    return case


_LABEL_BATCHES = [(LABEL_PRED, LABEL_TRUE, label) for label in (0, 1, 2)] + [
    (LABEL_PRED.tolist(), LABEL_TRUE.tolist(), 1.0),
    (VOLUME_PRED, VOLUME_TRUE, 1),
    (VOLUME_PRED, VOLUME_TRUE, 0),
    (BLOCK_PRED, BLOCK_TRUE, 1),
    (BLOCK_PRED, BLOCK_TRUE, 0),
    (ROW_PRED, ROW_TRUE, 1),
    (BLOCK_PRED, np.zeros_like(BLOCK_TRUE), 1),
    (np.zeros_like(BLOCK_PRED), BLOCK_TRUE, 1),
    (BLOCK_PRED == 1, BLOCK_TRUE == 1, 1),
    (BLOCK_PRED == 1, BLOCK_TRUE == 1, 0),
    (PIXEL, PIXEL, 1),
    (COLUMN_PRED, COLUMN_TRUE, 1),
]


def _surface_cases():
    cases = {}
    for metric in ("euclidean", "chessboard", "taxicab"):
        cases[f"hausdorff_{metric}"] = _surface(
            "HausdorffDistance", dict(distance_metric=metric), _LABEL_BATCHES
        )
        for symmetric in (False, True):
            suffix = f"{metric}_{'symmetric' if symmetric else 'directed'}"
            kwargs = dict(distance_metric=metric, symmetric=symmetric)
            cases[f"mean_surface_{suffix}"] = _surface(
                "MeanSurfaceDistance", kwargs, _LABEL_BATCHES
            )
            cases[f"rms_surface_{suffix}"] = _surface(
                "RootMeanSquareDistance", kwargs, _LABEL_BATCHES
            )
    for name, kwargs in {
        "directed": dict(directed=True),
        "no_crop": dict(crop=False),
        "no_crop_directed_taxicab": dict(crop=False, directed=True, distance_metric="taxicab"),
        "percentile": dict(percentile=90.0),
        "percentile_zero": dict(percentile=0.0),
        "percentile_chessboard": dict(percentile=37.5, distance_metric="chessboard"),
    }.items():
        cases[f"hausdorff_{name}"] = _surface("HausdorffDistance", kwargs, _LABEL_BATCHES)
    return cases


def _clear_surface(cls):
    def case(m):
        metric = getattr(m, cls)()
        metric.update(BLOCK_PRED, BLOCK_TRUE, 1)
        metric.clear()
        return to_json(metric.eval())

    return case


def _occlusion(kwargs, label):
    def run(ms):
        model = ms.nn.SequentialCell(
            [
                ms.nn.Flatten(),
                ms.nn.Dense(24, 3, weight_init=ms.Tensor(DENSE_W), bias_init=ms.Tensor(DENSE_B)),
            ]
        )
        metric = ms.train.OcclusionSensitivity(**kwargs)
        metric.update(model, IMAGE, label)
        first = metric.eval()
        metric.update(model, ms.Tensor(IMAGE * 2), label)
        return [to_json(first), list(np.shape(first)), to_json(metric.eval())]

    return run


OCCLUSION_CASES = {
    "occlusion_default": _occlusion({}, np.array(1, np.int32)),
    "occlusion_margin1_batch5": _occlusion(dict(margin=1, n_batch=5), np.array(2)),
    "occlusion_pad_bbox": _occlusion(
        dict(pad_val=0.5, margin=1, b_box=[1, 1, 0, -1, 1, 2]), np.array(0, np.int64)
    ),
    "occlusion_bbox_full": _occlusion(dict(margin=3, b_box=[0, -1, 0, 1, -5, 3]), np.array(1)),
    # MindSpore 2.10 mis-indexes the scores of a label of shape (1,) (a ValueError when
    # reshaping them); cellax gives the result of the same label as a scalar.
    "occlusion_label_vector": _occlusion(dict(margin=1, n_batch=4), [1]),
    "error_occlusion_model": lambda ms: ms.train.OcclusionSensitivity().update(
        "net", IMAGE, np.array(1)
    ),
    "error_occlusion_inputs": lambda ms: ms.train.OcclusionSensitivity().update(IMAGE, [1]),
    "error_occlusion_batch": lambda ms: ms.train.OcclusionSensitivity().update(
        ms.nn.Flatten(), np.ones((2, 3)), np.array([1, 1])
    ),
    "error_occlusion_labels": lambda ms: ms.train.OcclusionSensitivity().update(
        ms.nn.Flatten(), np.ones((1, 3)), np.array([1, 1])
    ),
    "error_occlusion_bbox_length": lambda ms: ms.train.OcclusionSensitivity(b_box=[0, 1]).update(
        ms.nn.Flatten(), np.ones((1, 3, 2)), np.array([1])
    ),
    "error_occlusion_bbox_max": lambda ms: ms.train.OcclusionSensitivity(b_box=[0, 3]).update(
        ms.nn.Flatten(), np.ones((1, 3)), np.array([1])
    ),
    "error_occlusion_bbox_order": lambda ms: ms.train.OcclusionSensitivity(b_box=[2, 1]).update(
        ms.nn.Flatten(), np.ones((1, 3)), np.array([1])
    ),
    "error_occlusion_data": lambda ms: ms.train.OcclusionSensitivity().update(
        ms.nn.Flatten(), (1.0, 2.0), np.array([1])
    ),
    "error_occlusion_empty": lambda ms: ms.train.OcclusionSensitivity().eval(),
    "error_occlusion_pad": lambda ms: ms.train.OcclusionSensitivity(pad_val=0),
    "error_occlusion_margin": lambda ms: ms.train.OcclusionSensitivity(margin=1.0),
    "error_occlusion_n_batch": lambda ms: ms.train.OcclusionSensitivity(n_batch=True),
    "error_occlusion_b_box": lambda ms: ms.train.OcclusionSensitivity(b_box=(0, 1)),
}


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
    **_surface_cases(),
    "hausdorff_by_name": lambda m: type(m.get_metric_fn("hausdorff_distance")).__name__,
    "error_hausdorff_empty": _clear_surface("HausdorffDistance"),
    "error_mean_surface_empty": _clear_surface("MeanSurfaceDistance"),
    "error_rms_empty": _clear_surface("RootMeanSquareDistance"),
    "error_hausdorff_metric": _error("m.HausdorffDistance('cosine')"),
    "error_hausdorff_metric_type": _error("m.HausdorffDistance(1)"),
    "error_hausdorff_percentile_type": _error("m.HausdorffDistance(percentile=50)"),
    "error_hausdorff_directed": _error("m.HausdorffDistance(directed=1)"),
    "error_hausdorff_crop": _error("m.HausdorffDistance(crop='yes')"),
    "error_hausdorff_percentile_range": _error(
        "m.HausdorffDistance(percentile=150.0)(np.eye(4), np.eye(4)[::-1], 1)"
    ),
    "error_hausdorff_inputs": _error("m.HausdorffDistance().update(np.eye(3), np.eye(3))"),
    "error_hausdorff_label_type": _error("m.HausdorffDistance().update(np.eye(3), np.eye(3), '1')"),
    "error_hausdorff_label_absent": _error("m.HausdorffDistance().update(np.eye(3), np.eye(3), 5)"),
    "error_hausdorff_shape": _error("m.HausdorffDistance().update(np.eye(3), np.eye(4), 1)"),
    "error_hausdorff_data": _error("m.HausdorffDistance().update((1, 0), np.eye(2), 1)"),
    "error_mean_surface_metric": _error("m.MeanSurfaceDistance(distance_metric='l2')"),
    "error_mean_surface_symmetric": _error("m.MeanSurfaceDistance(symmetric=None)"),
    "error_mean_surface_inputs": _error("m.MeanSurfaceDistance().update(np.eye(3))"),
    "error_mean_surface_label_type": _error(
        "m.MeanSurfaceDistance().update(np.eye(3), np.eye(3), None)"
    ),
    "error_mean_surface_shape": _error(
        "m.MeanSurfaceDistance().update(np.eye(3), np.ones((3, 1)), 1)"
    ),
    "error_mean_surface_empty_input": _error(
        "m.MeanSurfaceDistance().update(np.zeros((0, 2)), np.zeros((0, 2)), 1)"
    ),
    "error_rms_metric": _error("m.RootMeanSquareDistance(distance_metric=2)"),
    "error_rms_label_type": _error("m.RootMeanSquareDistance().update(np.eye(3), np.eye(3), [1])"),
    "error_rms_label_absent": _error("m.RootMeanSquareDistance().update(np.eye(3), np.eye(3), 2)"),
}


def run(m, case, ms=None):
    """Run ``case`` against the metrics namespace ``m``; the OcclusionSensitivity cases take the
    framework's top-level module ``ms`` instead (they need a Cell and Tensor)."""
    try:
        if case in OCCLUSION_CASES:
            return {"value": to_json(OCCLUSION_CASES[case](ms))}
        return {"value": CASES[case](m)}
    except Exception as exc:  # noqa: BLE001 - the error is the golden
        return {"error": type(exc).__name__, "message": str(exc).strip()[:200]}
