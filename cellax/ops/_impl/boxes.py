"""Detection helpers of MindSpore 2.10's ``mindspore.ops`` list: ``iou``,
``bounding_box_encode``/``bounding_box_decode``, ``check_valid``, ``intopk`` and ``ROIAlign``.

Boxes are ``(x1, y1, x2, y2)`` in pixel units where a box covers ``x2 - x1 + 1`` pixels, as in
MindSpore's kernels.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from .primitive import primitive
from .utils import arr, wrap

__all__ = [
    "iou",
    "bounding_box_encode",
    "bounding_box_decode",
    "check_valid",
    "intopk",
    "ROIAlign",
]


def _boxes(api, x, name):
    data = arr(x, api, name)
    if data.ndim != 2 or data.shape[-1] != 4:
        raise ValueError(f"For '{api}', '{name}' must have shape (N, 4), got {tuple(data.shape)}.")
    return data


def iou(anchor_boxes, gt_boxes, mode="iou"):
    """The overlap of every ground-truth box with every anchor: intersection over union
    (``'iou'``) or over the ground-truth box's area (``'iof'``), shape ``(M_gt, N_anchor)``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a = ms.Tensor(np.array([[0, 0, 1, 1]], np.float32))
        >>> g = ms.Tensor(np.array([[0, 0, 1, 1], [1, 1, 2, 2]], np.float32))
        >>> print(ms.ops.iou(a, g).asnumpy().round(4))
        [[1.    ]
         [0.1429]]
    """
    api = "iou"
    if mode not in ("iou", "iof"):
        raise KeyError(f"For '{api}', 'mode' must be 'iou' or 'iof', but got {mode!r}.")
    a, g = _boxes(api, anchor_boxes, "anchor_boxes"), _boxes(api, gt_boxes, "gt_boxes")
    g = g[:, None, :]
    width = jnp.maximum(jnp.minimum(a[:, 2], g[..., 2]) - jnp.maximum(a[:, 0], g[..., 0]) + 1, 0)
    height = jnp.maximum(jnp.minimum(a[:, 3], g[..., 3]) - jnp.maximum(a[:, 1], g[..., 1]) + 1, 0)
    inter = width * height
    area_a = (a[:, 2] - a[:, 0] + 1) * (a[:, 3] - a[:, 1] + 1)
    area_g = (g[..., 2] - g[..., 0] + 1) * (g[..., 3] - g[..., 1] + 1)
    denominator = area_a + area_g - inter if mode == "iou" else area_g
    return wrap((inter / denominator).astype(a.dtype))


def _centres(boxes):
    w = boxes[:, 2] - boxes[:, 0] + 1
    h = boxes[:, 3] - boxes[:, 1] + 1
    return boxes[:, 0] + 0.5 * (w - 1), boxes[:, 1] + 0.5 * (h - 1), w, h


def bounding_box_encode(
    anchor_box, groundtruth_box, means=(0.0, 0.0, 0.0, 0.0), stds=(1.0, 1.0, 1.0, 1.0)
):
    """The deltas ``(dx, dy, dw, dh)`` from anchors to ground-truth boxes, normalized by
    ``means`` and ``stds``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a = ms.Tensor(np.array([[0, 0, 1, 1]], np.float32))
        >>> print(ms.ops.bounding_box_encode(a, ms.Tensor(np.array([[1, 1, 2, 2]], np.float32))))
        [[0.5 0.5 0.  0. ]]
    """
    api = "bounding_box_encode"
    px, py, pw, ph = _centres(_boxes(api, anchor_box, "anchor_box"))
    gx, gy, gw, gh = _centres(_boxes(api, groundtruth_box, "groundtruth_box"))
    deltas = jnp.stack([(gx - px) / pw, (gy - py) / ph, jnp.log(gw / pw), jnp.log(gh / ph)], -1)
    return wrap((deltas - jnp.asarray(means, deltas.dtype)) / jnp.asarray(stds, deltas.dtype))


def bounding_box_decode(
    anchor_box,
    deltas,
    max_shape,
    means=(0.0, 0.0, 0.0, 0.0),
    stds=(1.0, 1.0, 1.0, 1.0),
    wh_ratio_clip=0.016,
):
    """Boxes from anchors and the deltas of :func:`bounding_box_encode`, clipped to the image
    ``max_shape`` (height, width); ``dw``/``dh`` are clipped to ``|log(wh_ratio_clip)|``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> a = ms.Tensor(np.array([[0, 0, 1, 1]], np.float32))
        >>> d = ms.Tensor(np.array([[0.5, 0.5, 0.0, 0.0]], np.float32))
        >>> print(ms.ops.bounding_box_decode(a, d, (4, 4)))
        [[1. 1. 2. 2.]]
    """
    api = "bounding_box_decode"
    anchors = _boxes(api, anchor_box, "anchor_box")
    px, py, pw, ph = _centres(anchors)
    raw = _boxes(api, deltas, "deltas")
    d = raw * jnp.asarray(stds, raw.dtype) + jnp.asarray(means, raw.dtype)
    limit = abs(float(np.log(wh_ratio_clip)))
    dw, dh = jnp.clip(d[:, 2], -limit, limit), jnp.clip(d[:, 3], -limit, limit)
    gx, gy = px + d[:, 0] * pw, py + d[:, 1] * ph
    gw, gh = pw * jnp.exp(dw), ph * jnp.exp(dh)
    height, width = (float(v) for v in max_shape)
    x1 = jnp.clip(gx - 0.5 * gw + 0.5, 0, width)
    y1 = jnp.clip(gy - 0.5 * gh + 0.5, 0, height)
    x2 = jnp.clip(gx + 0.5 * gw - 0.5, 0, width)
    y2 = jnp.clip(gy + 0.5 * gh - 0.5, 0, height)
    return wrap(jnp.stack([x1, y1, x2, y2], -1).astype(d.dtype))


def check_valid(bboxes, img_metas):
    """Whether each box lies in the image ``img_metas = (height, width, ratio)``:
    ``x1, y1 >= 0``, ``x2 <= width * ratio - 1`` and ``y2 <= height * ratio - 1``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> boxes = ms.Tensor(np.array([[0, 0, 9, 9], [0, 0, 10, 9]], np.float32))
        >>> print(ms.ops.check_valid(boxes, ms.Tensor(np.array([10, 10, 1], np.float32))))
        [ True False]
    """
    api = "check_valid"
    b, meta = _boxes(api, bboxes, "bboxes"), arr(img_metas, api, "img_metas")
    height, width = meta[0] * meta[2] - 1, meta[1] * meta[2] - 1
    ok = (b[:, 0] >= 0) & (b[:, 1] >= 0) & (b[:, 2] <= width) & (b[:, 3] <= height)
    return wrap(ok)


def intopk(x1, x2, k):
    """Whether the target class ``x2[i]`` is among the ``k`` largest predictions ``x1[i]``
    (ties with the ``k``-th value count as in).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.array([[0.1, 0.5, 0.4], [0.3, 0.3, 0.2]], np.float32))
        >>> print(ms.ops.intopk(x, ms.Tensor(np.array([2, 1], np.int32)), 1))
        [False  True]
    """
    api = "intopk"
    scores, target = arr(x1, api, "x1"), arr(x2, api, "x2")
    if scores.ndim != 2 or target.shape != scores.shape[:1]:
        raise ValueError(f"For '{api}', 'x1' must be (N, C) and 'x2' (N,).")
    if isinstance(k, bool) or not isinstance(k, int):
        raise TypeError(f"For '{api}', 'k' must be an int, but got {k!r}.")
    value = jnp.take_along_axis(scores, target[:, None].astype(np.int32), 1)
    return wrap(jnp.sum(scores > value, axis=1) < k)


def _bilinear(feature, y, x):
    """``feature`` (C, H, W) sampled at the points ``y`` (P, 1) x ``x`` (1, Q); a point more
    than one pixel outside the map reads 0, others are clamped to the map (Caffe2's rule)."""
    height, width = feature.shape[1:]
    outside = (y < -1.0) | (y > height) | (x < -1.0) | (x > width)
    y, x = jnp.clip(y, 0.0, height - 1), jnp.clip(x, 0.0, width - 1)
    y0, x0 = jnp.floor(y).astype(jnp.int32), jnp.floor(x).astype(jnp.int32)
    y1, x1 = jnp.minimum(y0 + 1, height - 1), jnp.minimum(x0 + 1, width - 1)
    dy, dx = y - y0, x - x0
    value = (
        feature[:, y0, x0] * (1 - dy) * (1 - dx)
        + feature[:, y0, x1] * (1 - dy) * dx
        + feature[:, y1, x0] * dy * (1 - dx)
        + feature[:, y1, x1] * dy * dx
    )
    return jnp.where(outside, 0.0, value)


def _roi_align(self, features, rois):
    attrs = self.attrs
    pooled_h, pooled_w = attrs["pooled_height"], attrs["pooled_width"]
    scale, samples, end = attrs["spatial_scale"], attrs["sample_num"], attrs["roi_end_mode"]
    if samples <= 0:
        raise ValueError(
            f"For 'ROIAlign', 'sample_num' must be positive under cellax (the adaptive count "
            f"of 0 depends on the box values), but got {samples}."
        )
    x = arr(features, "ROIAlign", "features")
    boxes = arr(rois, "ROIAlign", "rois")
    if x.ndim != 4 or boxes.ndim != 2 or boxes.shape[-1] != 5:
        raise ValueError(
            "For 'ROIAlign', 'features' must be (N, C, H, W) and 'rois' (R, 5), but got "
            f"{tuple(x.shape)} and {tuple(boxes.shape)}."
        )
    offsets = (jnp.arange(samples) + 0.5) / samples
    # a box is at least one feature-map pixel wide; with ``roi_end_mode=1`` one input pixel
    smallest = 1.0 if end == 0 else scale

    def one(box):
        x_start, y_start = box[1] * scale, box[2] * scale
        x_end, y_end = (box[3] + end) * scale, (box[4] + end) * scale
        bin_w = jnp.maximum(x_end - x_start, smallest) / pooled_w
        bin_h = jnp.maximum(y_end - y_start, smallest) / pooled_h
        ys = y_start + (jnp.arange(pooled_h)[:, None] + offsets[None, :]) * bin_h
        xs = x_start + (jnp.arange(pooled_w)[:, None] + offsets[None, :]) * bin_w
        feature = x[box[0].astype(jnp.int32)]
        points = _bilinear(feature, ys.reshape(-1, 1), xs.reshape(1, -1))
        points = points.reshape(x.shape[1], pooled_h, samples, pooled_w, samples)
        return points.mean(axis=(2, 4))

    return wrap(jax.vmap(one)(boxes.astype(x.dtype)).astype(x.dtype))


ROIAlign = primitive(
    "ROIAlign",
    None,
    {
        "pooled_height": None,
        "pooled_width": None,
        "spatial_scale": None,
        "sample_num": 2,
        "roi_end_mode": 1,
    },
    _roi_align,
    """Average-pool each region of interest to ``(pooled_height, pooled_width)`` by bilinear
    sampling (``mindspore.ops.ROIAlign``).

    Args:
        pooled_height (int): Output height.
        pooled_width (int): Output width.
        spatial_scale (float): Scale from box coordinates to feature-map coordinates.
        sample_num (int): Sampling points per bin side. Default: ``2``.
        roi_end_mode (int): ``1`` adds 1 to the box ends (MindSpore's default). Default: ``1``.

    Inputs:
        - **features** (Tensor) - ``(N, C, H, W)``.
        - **rois** (Tensor) - ``(R, 5)``: batch index, ``x1``, ``y1``, ``x2``, ``y2``.

    Outputs:
        Tensor of shape ``(R, C, pooled_height, pooled_width)``.

    Differences from MindSpore: ``sample_num`` must be positive (``0`` picks the count from the
    box sizes, a data-dependent shape).

    Examples:
        >>> import cellax as ms
        >>> features = ms.ops.arange(16.0).reshape(1, 1, 4, 4)
        >>> rois = ms.Tensor([[0.0, 0.0, 0.0, 1.0, 1.0]])
        >>> print(ms.ops.ROIAlign(1, 1, 1.0, 2, 0)(features, rois))
        [[[[2.5]]]]
    """,
)
