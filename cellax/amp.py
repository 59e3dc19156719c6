"""``mindspore.amp``: automatic mixed precision and loss scaling.

A Cell set to a low precision (``Cell.to_float`` or the levels below) sees its floating inputs
and its floating Parameters cast to that dtype while it runs; the master Parameters stay in
float32 and receive float32 gradients, so the optimizer updates them in float32. On JAX
hardware ``cellax.bfloat16`` is the natural low precision.

Levels of :func:`auto_mixed_precision` (MindSpore's meanings):

- ``"O0"``: unchanged.
- ``"O1"``: the white-list Cells (convolutions, Dense, RNN cells) run in ``dtype`` and cast
  their outputs back to float32.
- ``"O2"``: the whole network runs in ``dtype`` except the black-list Cells (BatchNorm,
  LayerNorm), which run in float32; the network output is cast to float32.
- ``"O3"``: the whole network runs in ``dtype``; the output is cast to float32.
- ``"auto"``: as ``"O1"`` (cellax casts per Cell, not per primitive).
"""

from __future__ import annotations

import warnings

import jax.numpy as jnp
import numpy as np

from . import _dtype, nn, ops
from ._errors import check_positive_int
from ._parameter import Parameter
from ._tensor import Tensor, unwrap, wrap

__all__ = [
    "auto_mixed_precision",
    "custom_mixed_precision",
    "build_train_network",
    "get_white_list",
    "get_black_list",
    "all_finite",
    "init_status",
    "LossScaler",
    "StaticLossScaler",
    "DynamicLossScaler",
    "LossScaleManager",
    "FixedLossScaleManager",
    "DynamicLossScaleManager",
]

_LEVELS = ("O0", "O1", "O2", "O3", "auto")
# MindSpore 2.10's lists: the Cells (and the primitives cellax has) that "O1" runs in low
# precision, and the Cells that "O2" keeps in float32. Zoo code extends them.
AMP_WHITE_LIST = [
    *(
        getattr(nn, name)
        for name in (
            "Conv1d Conv2d Conv3d Conv1dTranspose Conv2dTranspose Conv3dTranspose Dense "
            "LSTMCell RNNCell GRUCell"
        ).split()
    ),
    *(
        getattr(ops, name)
        for name in (
            "Conv2D Conv3D Conv2DTranspose Conv3DTranspose Conv2DBackpropInput MatMul "
            "BatchMatMul PReLU ReLU Ger"
        ).split()
        if hasattr(ops, name)
    ),
]
AMP_BLACK_LIST = [nn.BatchNorm1d, nn.BatchNorm2d, nn.BatchNorm3d, nn.LayerNorm]


def get_white_list() -> list:
    """A copy of the Cell classes and primitives that level ``"O1"`` runs in low precision.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.Dense in ms.amp.get_white_list()
        True
    """
    return AMP_WHITE_LIST.copy()


def get_black_list() -> list:
    """A copy of the Cell classes that level ``"O2"`` keeps in float32.

    Examples:
        >>> import cellax as ms
        >>> ms.nn.LayerNorm in ms.amp.get_black_list()
        True
    """
    return AMP_BLACK_LIST.copy()


class _OutputTo32(nn.Cell):
    """Run ``backbone`` and cast its floating outputs to float32 (names unchanged)."""

    def __init__(self, backbone) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *args, **kwargs):
        return _cast_floats(self._backbone(*args, **kwargs), np.float32)


def _cast_floats(tree, np_dtype):
    if isinstance(tree, (tuple, list)):
        return type(tree)(_cast_floats(item, np_dtype) for item in tree)
    if isinstance(tree, Tensor) and _dtype.is_floating(tree._value.dtype):
        if tree._value.dtype != np_dtype:
            return wrap(tree._value.astype(np_dtype))
    return tree


def _check_dtype(api: str, dtype) -> _dtype.Type:
    if dtype not in (_dtype.float16, _dtype.bfloat16):
        raise ValueError(
            f"For '{api}', 'dtype' must be cellax.float16 or cellax.bfloat16, but got {dtype!r}."
        )
    return _dtype.to_dtype(dtype)


def _mark(cell, dtype, output_dtype) -> None:
    cell.to_float(dtype)
    object.__setattr__(cell, "_amp_output_dtype", output_dtype)


def _apply_white_list(network, white_list, dtype) -> None:
    classes = tuple(white_list)
    for _, cell in network.cells_and_names():
        if isinstance(cell, classes):
            _mark(cell, dtype, _dtype.float32)


def _apply_black_list(network, black_list, dtype) -> None:
    network.to_float(dtype)
    classes = tuple(black_list)
    for _, cell in network.cells_and_names():
        if isinstance(cell, classes):
            _mark(cell, _dtype.float32, dtype)


def auto_mixed_precision(network, amp_level: str = "O0", dtype=_dtype.float16):
    """Run ``network`` in mixed precision at ``amp_level`` (see the module docstring).

    Args:
        network (Cell): The network.
        amp_level (str): ``"O0"``, ``"O1"``, ``"O2"``, ``"O3"`` or ``"auto"``. Default: ``"O0"``.
        dtype (cellax.dtype): ``cellax.float16`` or ``cellax.bfloat16``. Default:
            ``cellax.float16``.

    Returns:
        Cell: ``network`` itself (O0, O1, auto) or a wrapper casting its output to float32
        (O2, O3). Parameter names are unchanged.

    Raises:
        TypeError: If ``network`` is not a Cell.
        ValueError: If ``amp_level`` or ``dtype`` is not supported.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = ms.amp.auto_mixed_precision(nn.Dense(3, 2), "O3", ms.bfloat16)
        >>> print(net(ms.ops.ones((1, 3))).dtype)
        Float32

    Differences from MindSpore: casts are placed at Cell boundaries; primitives called
    directly inside a user's ``construct`` follow their inputs' dtype.
    """
    if amp_level not in _LEVELS:
        raise ValueError(
            f"For 'auto_mixed_precision', 'amp_level' must be one of {list(_LEVELS)}, "
            f"but got {amp_level!r}."
        )
    if not isinstance(network, nn.Cell):
        raise TypeError(
            f"For 'auto_mixed_precision', 'network' must be a Cell, but got "
            f"{type(network).__name__}."
        )
    dtype = _check_dtype("auto_mixed_precision", dtype)
    if amp_level == "O0":
        return network
    previous = getattr(network, "_amp_level", None)
    if previous is not None:
        warnings.warn(
            f"For 'auto_mixed_precision', the network already has amp level {previous!r}; "
            f"applying {amp_level!r} again recasts it.",
            stacklevel=2,
        )
    if amp_level in ("O1", "auto"):
        _apply_white_list(network, get_white_list(), dtype)
    elif amp_level == "O2":
        _apply_black_list(network, get_black_list(), dtype)
        network = _OutputTo32(network)
    else:
        network.to_float(dtype)
        network = _OutputTo32(network)
    object.__setattr__(network, "_amp_level", amp_level)
    return network


def custom_mixed_precision(network, *, white_list=None, black_list=None, dtype=_dtype.float16):
    """Mixed precision with your own list: exactly one of ``white_list`` (those Cells run in
    ``dtype``) or ``black_list`` (everything else runs in ``dtype``).

    Raises:
        ValueError: If both or neither list is given, or ``dtype`` is unsupported.
        TypeError: If a list holds something that is not a Cell class.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.SequentialCell(nn.Dense(3, 3), nn.ReLU())
        >>> net = ms.amp.custom_mixed_precision(net, white_list=[nn.Dense], dtype=ms.bfloat16)
        >>> print(net(ms.ops.ones((1, 3))).dtype)
        Float32
    """
    if (white_list is None) == (black_list is None):
        raise ValueError(
            "For 'custom_mixed_precision', give exactly one of 'white_list' and 'black_list'."
        )
    if not isinstance(network, nn.Cell):
        raise TypeError(
            f"For 'custom_mixed_precision', 'network' must be a Cell, but got "
            f"{type(network).__name__}."
        )
    dtype = _check_dtype("custom_mixed_precision", dtype)
    chosen = white_list if white_list is not None else black_list
    for item in chosen:
        if not (isinstance(item, type) and issubclass(item, nn.Cell)):
            raise TypeError(
                f"For 'custom_mixed_precision', the lists must hold Cell classes, but got {item!r}."
            )
    if white_list is not None:
        _apply_white_list(network, white_list, dtype)
    else:
        _apply_black_list(network, black_list, dtype)
        network = _OutputTo32(network)
    object.__setattr__(network, "_amp_level", "custom")
    return network


def _auto_black_list(network, black_list, dtype):
    """MindSpore's "O2" pass, which zoo code calls with its own list: ``network`` runs in
    ``dtype`` except the Cells of the ``black_list`` classes, which run in float32 and cast
    their outputs back to ``dtype``. Changes ``network`` in place and returns it."""
    _apply_black_list(network, black_list, dtype)
    return network


def _auto_mixed_precision_rewrite(network, dtype, *, white_list=None, black_list=None):
    """MindSpore's list-driven casting pass: with ``white_list``, those Cells run in ``dtype``;
    with ``black_list``, everything else does. Changes ``network`` in place and returns it.

    Differences from MindSpore: casts are placed at Cell boundaries (MindSpore rewrites the
    network's source around each listed operator)."""
    if (white_list is None) == (black_list is None):
        raise ValueError(
            "For _auto_mixed_precision_rewrite, one of white_list and black_list must be provided."
        )
    if white_list is not None:
        _apply_white_list(network, white_list, dtype)
    else:
        _apply_black_list(network, black_list, dtype)
    return network


# --------------------------------------------------------------------------------------------
# overflow detection and loss scaling


def all_finite(inputs) -> Tensor:
    """A scalar bool Tensor: True when every element of every Tensor in ``inputs`` is finite.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> print(ms.amp.all_finite((ms.Tensor([1.0, np.inf]), ms.Tensor([1.0]))))
        False
    """
    if isinstance(inputs, Tensor):
        inputs = (inputs,)
    flags = [jnp.all(jnp.isfinite(unwrap(x))) for x in inputs]
    if not flags:
        return wrap(jnp.asarray(True))
    return wrap(jnp.all(jnp.stack(flags)))


def init_status() -> Tensor:
    """The overflow status buffer of MindSpore's Ascend API (unused on XLA): zeros(8)."""
    return wrap(jnp.zeros((8,), jnp.float32))


def _scale_tree(inputs, factor):
    if isinstance(inputs, (tuple, list)):
        return type(inputs)(_scale_tree(x, factor) for x in inputs)
    value = unwrap(inputs)
    return wrap(value * factor.astype(value.dtype))


def _check_scale(api: str, scale_value) -> float:
    if isinstance(scale_value, bool) or not isinstance(scale_value, (int, float)):
        raise TypeError(
            f"For '{api}', 'scale_value' must be a float or int, but got {scale_value!r}."
        )
    if scale_value < 1.0:
        raise ValueError(f"For '{api}', 'scale_value' must be >= 1, but got {scale_value}.")
    return float(scale_value)


class LossScaler:
    """Base class of loss scalers: ``scale``, ``unscale``, ``adjust``."""

    def scale(self, inputs):
        raise NotImplementedError

    def unscale(self, inputs):
        raise NotImplementedError

    def adjust(self, grads_finite):
        raise NotImplementedError


class StaticLossScaler(LossScaler):
    """Scale the loss (and unscale gradients) by a fixed ``scale_value``.

    Raises:
        TypeError: If ``scale_value`` is not a number.
        ValueError: If ``scale_value`` < 1.

    Examples:
        >>> import cellax as ms
        >>> scaler = ms.amp.StaticLossScaler(1024)
        >>> print(scaler.scale(ms.Tensor([1.0])))
        [1024.]
    """

    def __init__(self, scale_value) -> None:
        value = _check_scale("StaticLossScaler", scale_value)
        self.scale_value = Parameter(Tensor(value, _dtype.float32), name="scale_value")

    def scale(self, inputs):
        return _scale_tree(inputs, self.scale_value._value)

    def unscale(self, inputs):
        return _scale_tree(inputs, 1.0 / self.scale_value._value)

    def adjust(self, grads_finite) -> bool:
        return False


class DynamicLossScaler(LossScaler):
    """Grow the scale by ``scale_factor`` after ``scale_window`` finite steps; shrink it (not
    below 1) on overflow. State (``scale_value``, ``counter``) is Parameters, so ``adjust``
    works eagerly and under ``jit`` (the choice is a select, not Python control flow).

    Raises:
        TypeError / ValueError: For a non-numeric or < 1 ``scale_value``, or a non-positive
            ``scale_factor`` / ``scale_window``.

    Examples:
        >>> import cellax as ms
        >>> scaler = ms.amp.DynamicLossScaler(1024, 2, 1)
        >>> scaler.adjust(ms.Tensor(False))
        True
        >>> print(scaler.scale_value.asnumpy())
        512.0
    """

    def __init__(self, scale_value, scale_factor, scale_window) -> None:
        value = _check_scale("DynamicLossScaler", scale_value)
        self.scale_value = Parameter(Tensor(value, _dtype.float32), name="scale_value")
        self.scale_window = check_positive_int("DynamicLossScaler", "scale_window", scale_window)
        self.scale_factor = check_positive_int("DynamicLossScaler", "scale_factor", scale_factor)
        self.counter = Parameter(Tensor(0, _dtype.int32), name="counter")

    def scale(self, inputs):
        return _scale_tree(inputs, self.scale_value._value)

    def unscale(self, inputs):
        return _scale_tree(inputs, 1.0 / self.scale_value._value)

    def adjust(self, grads_finite) -> bool:
        finite = jnp.asarray(unwrap(grads_finite)).astype(bool).reshape(())
        scale = self.scale_value._value
        counter = self.counter._value
        grown = scale * self.scale_factor
        grown = jnp.where(jnp.isfinite(grown), grown, scale)
        on_finite = jnp.where(counter == self.scale_window - 1, grown, scale)
        shrunk = jnp.maximum(jnp.ones((), scale.dtype), scale / self.scale_factor)
        self.scale_value._value = jnp.where(finite, on_finite, shrunk)
        self.counter._value = ((counter + 1) % self.scale_window) * finite.astype(counter.dtype)
        return True


class LossScaleManager:
    """Base class of the loss-scale managers used by ``Model`` / ``build_train_network``."""

    def get_loss_scale(self):
        raise NotImplementedError

    def update_loss_scale(self, overflow) -> None:
        raise NotImplementedError

    def get_update_cell(self):
        raise NotImplementedError


class FixedLossScaleManager(LossScaleManager):
    """A constant loss scale; with ``drop_overflow_update`` steps that overflow are skipped.

    Examples:
        >>> import cellax as ms
        >>> ms.amp.FixedLossScaleManager(128.0).get_loss_scale()
        128.0
    """

    def __init__(self, loss_scale: float = 128.0, drop_overflow_update: bool = True) -> None:
        _check_scale("FixedLossScaleManager", loss_scale)
        self._loss_scale = loss_scale
        self._drop_overflow_update = drop_overflow_update

    def get_loss_scale(self):
        return self._loss_scale

    def get_drop_overflow_update(self) -> bool:
        return self._drop_overflow_update

    def update_loss_scale(self, overflow) -> None:
        """A fixed scale never changes."""

    def get_update_cell(self):
        if not self._drop_overflow_update:
            return None
        return nn.FixedLossScaleUpdateCell(self._loss_scale)


class DynamicLossScaleManager(LossScaleManager):
    """A loss scale that shrinks on overflow and grows after ``scale_window`` good steps.

    Examples:
        >>> import cellax as ms
        >>> manager = ms.amp.DynamicLossScaleManager(16.0, 2, 3)
        >>> manager.update_loss_scale(True)
        >>> manager.get_loss_scale()
        8.0
    """

    def __init__(
        self, init_loss_scale: float = 2**24, scale_factor: int = 2, scale_window: int = 2000
    ) -> None:
        _check_scale("DynamicLossScaleManager", init_loss_scale)
        check_positive_int("DynamicLossScaleManager", "scale_window", scale_window)
        if scale_factor <= 1:
            raise ValueError(
                f"For 'DynamicLossScaleManager', 'scale_factor' must be > 1, got {scale_factor}."
            )
        self.loss_scale = float(init_loss_scale)
        self.scale_factor = scale_factor
        self.scale_window = scale_window
        self.increase_ratio = scale_factor
        self.decrease_ratio = 1 / scale_factor
        self.minimum_loss_scale = 1
        self.cur_iter = 1
        self.last_overflow_iter = 0
        self.bad_step_max = 1000
        self.bad_step = 0

    def get_loss_scale(self):
        return self.loss_scale

    def update_loss_scale(self, overflow) -> None:
        if overflow:
            self.loss_scale = max(self.loss_scale * self.decrease_ratio, self.minimum_loss_scale)
            self.last_overflow_iter = self.cur_iter
            self.bad_step += 1
        else:
            if (self.cur_iter - self.last_overflow_iter) % self.scale_window == 0:
                self.loss_scale *= self.increase_ratio
            self.bad_step = 0
        self.cur_iter += 1

    def get_drop_overflow_update(self) -> bool:
        return True

    def get_update_cell(self):
        return nn.DynamicLossScaleUpdateCell(self.loss_scale, self.scale_factor, self.scale_window)


def build_train_network(
    network, optimizer, loss_fn=None, level: str = "O0", boost_level="O0", **kwargs
):
    """Build a training Cell: mixed precision at ``level``, the loss, and a (loss-scaled)
    one-step update.

    Args:
        network (Cell): The network.
        optimizer (Optimizer): The optimizer.
        loss_fn (Cell): The loss; None if ``network`` computes it. Default: ``None``.
        level (str): ``"O0"`` ... ``"O3"`` or ``"auto"``. Default: ``"O0"``.
        **kwargs: ``cast_model_type``, ``keep_batchnorm_fp32``, ``loss_scale_manager``
            override the level's defaults (O2 uses a DynamicLossScaleManager).

    Raises:
        ValueError: For an unknown level or keyword.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(3, 2)
        >>> train = ms.amp.build_train_network(net, nn.SGD(net.trainable_params(), 0.1),
        ...                                    nn.MSELoss(), level="O0")
        >>> train(ms.ops.ones((4, 3)), ms.ops.zeros((4, 2))).shape
        ()
    """
    if level not in _LEVELS:
        raise ValueError(
            f"For 'build_train_network', 'level' must be one of {list(_LEVELS)}, got {level!r}."
        )
    unknown = set(kwargs) - {"cast_model_type", "keep_batchnorm_fp32", "loss_scale_manager"}
    if unknown:
        raise ValueError(f"For 'build_train_network', unsupported keyword(s) {sorted(unknown)}.")
    defaults = {
        "O0": (_dtype.float32, False, None),
        "O1": (_dtype.float32, False, None),
        "O2": (_dtype.float16, True, DynamicLossScaleManager()),
        "O3": (_dtype.float16, False, None),
        "auto": (_dtype.float32, False, None),
    }[level]
    cast_type = kwargs.get("cast_model_type", defaults[0])
    keep_bn = kwargs.get("keep_batchnorm_fp32", defaults[1])
    manager = kwargs.get("loss_scale_manager", defaults[2])
    if level in ("O1", "auto"):
        network = auto_mixed_precision(network, level)
    elif cast_type != _dtype.float32:
        if keep_bn:
            _apply_black_list(network, get_black_list(), cast_type)
        else:
            network.to_float(cast_type)
        network = _OutputTo32(network)
    if loss_fn is not None:
        network = nn.WithLossCell(network, loss_fn)
    if manager is not None:
        update_cell = manager.get_update_cell()
        if update_cell is not None:
            return nn.TrainOneStepWithLossScaleCell(network, optimizer, scale_sense=update_cell)
        return nn.TrainOneStepCell(network, optimizer, sens=manager.get_loss_scale())
    return nn.TrainOneStepCell(network, optimizer)
