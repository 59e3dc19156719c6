"""mint.nn layers without Parameters: activations, pooling, padding, resampling, losses.

Each class is an ordinary :class:`cellax.nn.Cell` whose ``construct`` calls the matching
``cellax.mint.nn.functional`` adapter with the arguments given at construction.
"""

from __future__ import annotations

import inspect

from ... import ops
from ...nn import Cell
from . import functional as F

__all__ = []

_EXAMPLE = """
    Examples:
        >>> from cellax import mint
        >>> layer = mint.nn.{name}({ctor})
        >>> layer({inputs}).shape
        {shape}
"""


class _Stateless(Cell):
    """A Cell that applies ``_fn`` to its inputs with the keyword arguments it was built with."""

    _fn = None
    __signature__ = inspect.Signature()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__()
        bound = type(self).__signature__.bind(*args, **kwargs)
        bound.apply_defaults()
        object.__setattr__(self, "_kwargs", dict(bound.arguments))
        for name, value in bound.arguments.items():
            object.__setattr__(self, name, value)

    def _arguments(self) -> dict:
        return {name: getattr(self, name) for name in self._kwargs}

    def construct(self, *inputs):
        return type(self)._fn(*inputs, **self._call_kwargs())

    def _call_kwargs(self) -> dict:
        return self._arguments()

    def extend_repr(self) -> str:
        return ", ".join(
            f"{k}={v!r}" for k, v in self._arguments().items() if not hasattr(v, "shape")
        )


def _define(name, fn, params="", example=("", "mint.ones((2, 4))", "(2, 4)"), doc="", rename=None):
    """Build and export the layer ``name`` calling ``fn`` with the ``params`` signature."""
    signature = inspect.Signature(
        [
            inspect.Parameter(
                p.split("=")[0],
                inspect.Parameter.POSITIONAL_OR_KEYWORD,
                default=eval(p.split("=", 1)[1]) if "=" in p else inspect._empty,
            )
            for p in params.split(", ")
            if p
        ]  # fmt: skip
    )
    ctor, inputs, shape = example
    text = f"{doc or 'Applies ' + fn.__name__ + '.'}\n\n    Args: ``{params or 'none'}``, as in "
    text += f"``mint.nn.functional.{fn.__name__}``.\n" + _EXAMPLE.format(
        name=name, ctor=ctor, inputs=inputs, shape=shape
    )

    def call_kwargs(self):
        values = self._arguments()
        if rename:
            values = {rename.get(k, k): v for k, v in values.items() if rename.get(k, k)}
        return values

    cls = type(
        name,
        (_Stateless,),
        {
            "_fn": staticmethod(fn),
            "__signature__": signature,
            "__doc__": text,
            "__module__": __name__,
            "_call_kwargs": call_kwargs,
        },
    )
    globals()[name] = cls
    __all__.append(name)
    return cls


def _softmax_dim(fn):
    def call(input, dim=None):
        return fn(input, dim)

    call.__name__ = fn.__name__
    return call


_define("ReLU", ops.relu)
_define("ReLU6", F.relu6, "inplace=False")
_define("Sigmoid", ops.sigmoid)
_define("Tanh", ops.tanh)
_define("LogSigmoid", F.logsigmoid)
_define("Mish", F.mish)
_define("SELU", F.selu)
_define("SiLU", F.silu, "inplace=False")
_define("GELU", F.gelu, "approximate='none'")
_define("GLU", F.glu, "dim=-1", ("", "mint.ones((2, 4))", "(2, 2)"))
_define("ELU", F.elu, "alpha=1.0, inplace=False")
_define("Hardshrink", ops.hardshrink, "lambd=0.5")
_define("Softshrink", ops.softshrink, "lambd=0.5")
_define("Hardsigmoid", ops.hardsigmoid)
_define("Hardswish", ops.hardswish)
_define("Hardtanh", F.hardtanh, "min_val=-1.0, max_val=1.0, inplace=False")
_define(
    "Threshold",
    F.threshold,
    "threshold, value, inplace=False",
    ("0.1, 0.0", "mint.ones(3)", "(3,)"),
)
_define("Softmax", _softmax_dim(F.softmax), "dim=None")
_define("LogSoftmax", _softmax_dim(F.log_softmax), "dim=None")
_define("Flatten", F.flatten, "start_dim=1, end_dim=-1", ("", "mint.ones((2, 3, 4))", "(2, 12)"))
_define("Identity", lambda input: input, doc="Returns the input unchanged.")

_P1 = ("2", "mint.ones((1, 3, 4))", "(1, 3, 2)")
_P2 = ("2", "mint.ones((1, 3, 4, 4))", "(1, 3, 2, 2)")
_P3 = ("2", "mint.ones((1, 3, 4, 4, 4))", "(1, 3, 2, 2, 2)")
_define("AdaptiveAvgPool1d", F.adaptive_avg_pool1d, "output_size", _P1)
_define("AdaptiveAvgPool2d", ops.adaptive_avg_pool2d, "output_size", _P2)
_define("AdaptiveAvgPool3d", ops.adaptive_avg_pool3d, "output_size", _P3)
_define("AdaptiveMaxPool1d", F.adaptive_max_pool1d, "output_size, return_indices=False", _P1)
_define("AdaptiveMaxPool2d", F.adaptive_max_pool2d, "output_size, return_indices=False", _P2)
_AVG = "kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True"
_define("AvgPool1d", F.avg_pool1d, _AVG, _P1)
_define("AvgPool2d", F.avg_pool2d, _AVG + ", divisor_override=None", _P2)
_define("AvgPool3d", F.avg_pool3d, _AVG + ", divisor_override=None", _P3)
_define("MaxPool2d", F.max_pool2d,
        "kernel_size=1, stride=None, padding=0, dilation=1, return_indices=False, ceil_mode=False",
        _P2)  # fmt: skip
_define("Upsample", ops.interpolate,
        "size=None, scale_factor=None, mode='nearest', align_corners=None, "
        "recompute_scale_factor=None", ("scale_factor=2.0", "mint.ones((1, 1, 2, 2))",
                                        "(1, 1, 4, 4)"))  # fmt: skip


def _bilinear(input, size=None, scale_factor=None):
    return ops.interpolate(input, size, scale_factor, "bilinear", True)


def _nearest(input, size=None, scale_factor=None):
    return ops.interpolate(input, size, scale_factor, "nearest")


_UP = ("scale_factor=2.0", "mint.ones((1, 1, 2, 2))", "(1, 1, 4, 4)")
_define("UpsamplingBilinear2d", _bilinear, "size=None, scale_factor=None", _UP)
_define("UpsamplingNearest2d", _nearest, "size=None, scale_factor=None", _UP)
_define("PixelShuffle", ops.pixel_shuffle, "upscale_factor", ("2", "mint.ones((1, 4, 2, 2))",
                                                               "(1, 1, 4, 4)"))  # fmt: skip
_define("Fold", ops.fold, "output_size, kernel_size, dilation=1, padding=0, stride=1",
        ("(3, 3), 2", "mint.ones((1, 4, 4))", "(1, 1, 3, 3)"))  # fmt: skip
_define("Unfold", ops.unfold, "kernel_size, dilation=1, padding=0, stride=1",
        ("2", "mint.ones((1, 1, 3, 3))", "(1, 4, 4)"))  # fmt: skip


def _padder(mode, ndim):
    def pad(input, padding, value=None):
        if isinstance(padding, int):
            padding = (padding,) * (2 * ndim)
        return ops.pad(input, padding, mode, value)

    pad.__name__ = "pad"
    return pad


for _n, _ex in ((1, ("1", "mint.ones((1, 2, 3))", "(1, 2, 5)")),
                (2, ("1", "mint.ones((1, 2, 3))", "(1, 4, 5)")),
                (3, ("1", "mint.ones((1, 2, 2, 3))", "(1, 4, 4, 5)"))):  # fmt: skip
    _define(f"ZeroPad{_n}d", _padder("constant", _n), "padding", _ex)
    _define(f"ReflectionPad{_n}d", _padder("reflect", _n), "padding", _ex)
    _define(f"ReplicationPad{_n}d", _padder("replicate", _n), "padding", _ex)
    _define(f"ConstantPad{_n}d", _padder("constant", _n), "padding, value",
            (_ex[0] + ", 0.5",) + _ex[1:])  # fmt: skip

_L = ("", "mint.ones(3), mint.zeros(3)", "()")
_LP = ("", "mint.full((3,), 0.5), mint.zeros(3)", "()")
_define("L1Loss", ops.l1_loss, "reduction='mean'", _L)
_define("MSELoss", ops.mse_loss, "reduction='mean'", _L)
_define("SmoothL1Loss", F.smooth_l1_loss, "reduction='mean', beta=1.0", _L)
_define("SoftMarginLoss", ops.soft_margin_loss, "reduction='mean'", _L)
_define("BCELoss", F.binary_cross_entropy, "weight=None, reduction='mean'", _LP)
_define("BCEWithLogitsLoss", F.binary_cross_entropy_with_logits,
        "weight=None, reduction='mean', pos_weight=None", _L)  # fmt: skip
_define("KLDivLoss", F.kl_div, "reduction='mean', log_target=False", _L)
_define("CrossEntropyLoss", ops.cross_entropy,
        "weight=None, ignore_index=-100, reduction='mean', label_smoothing=0.0",
        ("", "mint.ones((2, 3)), mint.Tensor([0, 2])", "()"))  # fmt: skip
_define("NLLLoss", F.nll_loss, "weight=None, ignore_index=-100, reduction='mean'",
        ("", "mint.ones((2, 3)), mint.Tensor([0, 2])", "()"))  # fmt: skip
_define("CosineEmbeddingLoss", ops.cosine_embedding_loss, "margin=0.0, reduction='mean'",
        ("", "mint.ones((2, 3)), mint.ones((2, 3)), mint.Tensor([1, -1])", "()"))  # fmt: skip


class MaxUnpool2d(Cell):
    """The partial inverse of ``MaxPool2d``: ``mint.nn.functional.max_unpool2d`` as a layer.

    Args:
        kernel_size (Union[int, tuple[int]]): The pooling window.
        stride (Union[int, tuple[int]]): Default: ``None`` (``kernel_size``).
        padding (Union[int, tuple[int]]): Default: ``0``.

    Inputs:
        - **input** (Tensor) - The pooled values, (N, C, H, W) or (C, H, W).
        - **indices** (Tensor) - The pooling's indices, ``input``'s shape.
        - **output_size** (tuple[int]) - Optional output size. Default: ``None``.

    Examples:
        >>> from cellax import mint
        >>> layer = mint.nn.MaxUnpool2d(2)
        >>> layer(mint.ones((1, 1, 2, 2)), mint.Tensor([[[[0, 3], [8, 15]]]])).shape
        (1, 1, 4, 4)
    """

    def __init__(self, kernel_size, stride=None, padding=0) -> None:
        super().__init__()
        self.kernel_size, self.stride, self.padding = kernel_size, stride, padding

    def construct(self, input, indices, output_size=None):
        return F.max_unpool2d(
            input, indices, self.kernel_size, self.stride, self.padding, output_size
        )

    def extend_repr(self) -> str:
        return f"kernel_size={self.kernel_size}, stride={self.stride}, padding={self.padding}"


__all__.append("MaxUnpool2d")
