"""Normalisation layers: BatchNorm1d/2d/3d, LayerNorm, GroupNorm, InstanceNorm2d."""

from __future__ import annotations

import numbers

from .. import _dtype
from .._errors import check_bool, check_positive_int
from .._initializer import initializer
from .._parameter import Parameter
from .._tensor import wrap
from ..ops._impl import normalization
from ..ops._impl.dtype_rules import check_accepts
from ..ops._impl.utils import arr, check_ints
from ._cell import Cell

__all__ = ["BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm", "InstanceNorm2d"]


def _check_float_range(api: str, name: str, value, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not low <= value <= high:
        raise ValueError(f"For '{api}', '{name}' must be in [{low}, {high}], but got {value!r}.")
    return float(value)


class _StatsNorm(Cell):
    """Shared part of BatchNorm and InstanceNorm: running statistics first, then gamma/beta.

    Standalone, the statistics are named 'mean'/'variance' as in MindSpore; inside a parent
    Cell they take their attribute names ('bn.moving_mean'), as MindSpore's do.
    """

    def _make_params(self, num_features, affine, gamma_init, beta_init, mean_init, var_init, dtype):
        shape = (num_features,)
        self.moving_mean = Parameter(
            initializer(mean_init, shape, dtype), name="mean", requires_grad=False
        )
        self.moving_variance = Parameter(
            initializer(var_init, shape, dtype), name="variance", requires_grad=False
        )
        self.gamma = Parameter(
            initializer(gamma_init, shape, dtype), name="gamma", requires_grad=affine
        )
        self.beta = Parameter(
            initializer(beta_init, shape, dtype), name="beta", requires_grad=affine
        )

    def _prefix_parameters(self, prefix: str) -> None:
        for attr, short in (("moving_mean", "mean"), ("moving_variance", "variance")):
            param = self._params.get(attr)
            if param is not None and param.name == short:
                param.name = attr
        super()._prefix_parameters(prefix)

    def extend_repr(self) -> str:
        return (
            f"num_features={self.num_features}, eps={self.eps}, momentum={self.momentum}, "
            f"gamma={self.gamma!r}, beta={self.beta!r}, moving_mean={self.moving_mean!r}, "
            f"moving_variance={self.moving_variance!r}"
        )


class _BatchNorm(_StatsNorm):
    _ranks: tuple = (4,)

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.9,
        affine=True,
        gamma_init="ones",
        beta_init="zeros",
        moving_mean_init="zeros",
        moving_var_init="ones",
        use_batch_statistics=None,
        data_format="NCHW",
        dtype=_dtype.float32,
    ):
        super().__init__()
        api = type(self).__name__
        self.num_features = check_positive_int(api, "num_features", num_features)
        self.eps = eps
        if not isinstance(eps, numbers.Real) or eps <= 0:
            raise ValueError(f"For '{api}', 'eps' must be a positive float, but got {eps!r}.")
        self.momentum = _check_float_range(api, "momentum", momentum, 0.0, 1.0)
        self.affine = check_bool(api, "affine", affine)
        if use_batch_statistics is not None:
            check_bool(api, "use_batch_statistics", use_batch_statistics)
        self.use_batch_statistics = use_batch_statistics
        if data_format != "NCHW":
            raise ValueError(
                f"For '{api}', 'data_format' must be 'NCHW' (cellax supports channel-first "
                f"layouts only), but got {data_format!r}."
            )
        self.format = data_format
        self._make_params(
            num_features, affine, gamma_init, beta_init, moving_mean_init, moving_var_init, dtype
        )

    def construct(self, x):
        api = type(self).__name__
        value = arr(x, tensor=True)
        if value.ndim not in self._ranks or value.shape[1] != self.num_features:
            ranks = " or ".join(f"{r}-D" for r in self._ranks)
            raise ValueError(
                f"For '{api}', 'x' must be a {ranks} Tensor with num_features="
                f"{self.num_features} channels on dim 1, but got x.shape={tuple(value.shape)}."
            )
        use_batch = self.use_batch_statistics
        if use_batch is None:
            use_batch = self.training
        return normalization.batch_norm(
            x,
            self.moving_mean,
            self.moving_variance,
            self.gamma,
            self.beta,
            training=use_batch,
            momentum=1.0 - self.momentum,
            eps=self.eps,
        )


class BatchNorm1d(_BatchNorm):
    r"""Batch normalisation over :math:`(N, C)` or :math:`(N, C, L)` input.

    In training (``set_train()``) the batch statistics normalise the input and the running
    statistics are updated: ``moving = momentum * moving + (1 - momentum) * batch`` (batch
    variance unbiased). In inference the running statistics are used.

    Args:
        num_features (int): The number of channels :math:`C`.
        eps (float): Added to the variance. Default: ``1e-5``.
        momentum (float): Weight of the old running value, in [0, 1]. Default: ``0.9``.
        affine (bool): Train gamma and beta. Default: ``True``.
        gamma_init, beta_init, moving_mean_init, moving_var_init (Union[Tensor, str]): Their
            initializers (a Tensor, a name, an Initializer or a number). Defaults: ``'ones'``,
            ``'zeros'``, ``'zeros'``, ``'ones'``.
        use_batch_statistics (bool): ``True``: always batch statistics; ``False``: always the
            running ones; ``None``: follow the training flag. Default: ``None``.
        data_format (str): Only ``'NCHW'``. Default: ``'NCHW'``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(N, C)` or :math:`(N, C, L)`.

    Outputs:
        Tensor of the shape of ``x``.

    Raises:
        ValueError: If ``x`` does not have ``num_features`` channels or ``momentum`` is out of
            range.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.BatchNorm1d(num_features=4)
        >>> net.set_train()
        BatchNorm1d(num_features=4, eps=1e-05, momentum=0.9, gamma=Parameter (name=gamma, shape=(4,), dtype=Float32, requires_grad=True), beta=Parameter (name=beta, shape=(4,), dtype=Float32, requires_grad=True), moving_mean=Parameter (name=mean, shape=(4,), dtype=Float32, requires_grad=False), moving_variance=Parameter (name=variance, shape=(4,), dtype=Float32, requires_grad=False))
        >>> out = net(ms.Tensor([[1.0, 2.0, 3.0, 4.0], [3.0, 2.0, 1.0, 0.0]]))
        >>> print(net.moving_mean.asnumpy())
        [0.2 0.2 0.2 0.2]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.BatchNorm1d.html
    """

    _ranks = (2, 3)


class BatchNorm2d(_BatchNorm):
    r"""Batch normalisation over NCHW input; arguments and update rule as :class:`BatchNorm1d`.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.BatchNorm2d(num_features=3)
        >>> net(ms.ops.ones((1, 3, 2, 2))).shape
        (1, 3, 2, 2)
        >>> [p.name for p in net.get_parameters()]
        ['mean', 'variance', 'gamma', 'beta']

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.BatchNorm2d.html
    """

    _ranks = (4,)


class BatchNorm3d(Cell):
    r"""Batch normalisation over NCDHW input (a :class:`BatchNorm2d` named ``bn2d`` applied to
    the input viewed as :math:`(N, C, D H, W)`, as in MindSpore); arguments as
    :class:`BatchNorm1d`.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.BatchNorm3d(num_features=3)
        >>> net(ms.ops.ones((1, 3, 2, 2, 2))).shape
        (1, 3, 2, 2, 2)
        >>> [p.name for p in net.get_parameters()]
        ['bn2d.moving_mean', 'bn2d.moving_variance', 'bn2d.gamma', 'bn2d.beta']
    """

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.9,
        affine=True,
        gamma_init="ones",
        beta_init="zeros",
        moving_mean_init="zeros",
        moving_var_init="ones",
        use_batch_statistics=None,
        dtype=_dtype.float32,
    ):
        super().__init__()
        self.bn2d = BatchNorm2d(
            num_features,
            eps,
            momentum,
            affine,
            gamma_init,
            beta_init,
            moving_mean_init,
            moving_var_init,
            use_batch_statistics,
            dtype=dtype,
        )

    def construct(self, x):
        value = arr(x, tensor=True)
        if value.ndim != 5:
            raise ValueError(
                f"For 'BatchNorm3d', 'x' must be a 5-D Tensor, but got x.shape="
                f"{tuple(value.shape)}."
            )
        n, c, d, h, w = value.shape
        out = self.bn2d(wrap(value.reshape(n, c, d * h, w)))
        return wrap(out._value.reshape(n, c, d, h, w))


class LayerNorm(Cell):
    r"""Layer normalisation: normalise over the dims from ``begin_norm_axis`` on, then scale
    by gamma and shift by beta (both of shape ``normalized_shape``, aligned at
    ``begin_params_axis``).

    Args:
        normalized_shape (Union[tuple[int], list[int]]): The shape of gamma and beta.
        begin_norm_axis (int): First normalised axis. Default: ``-1``.
        begin_params_axis (int): First axis gamma/beta apply to. Default: ``-1``.
        gamma_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'ones'``.
        beta_init (Union[Tensor, str, Initializer, numbers.Number]): Default: ``'zeros'``.
        epsilon (float): Added to the variance. Default: ``1e-7``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Raises:
        TypeError: If ``normalized_shape`` is not a tuple or list.
        ValueError: If the input's trailing shape does not fit ``normalized_shape``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.LayerNorm((3,))
        >>> print(net(ms.Tensor([[1.0, 2.0, 3.0]])).asnumpy().round(4))
        [[-1.2247  0.      1.2247]]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.LayerNorm.html
    """

    def __init__(
        self,
        normalized_shape,
        begin_norm_axis=-1,
        begin_params_axis=-1,
        gamma_init="ones",
        beta_init="zeros",
        epsilon=1e-7,
        dtype=_dtype.float32,
    ):
        super().__init__()
        self.normalized_shape = check_ints(
            "LayerNorm", "normalized_shape", normalized_shape, scalar=False
        )
        if any(size < 0 for size in self.normalized_shape):
            raise ValueError(
                f"For 'LayerNorm', 'normalized_shape' must not be negative, but got "
                f"{normalized_shape!r}."
            )
        self.begin_norm_axis = begin_norm_axis
        self.begin_params_axis = begin_params_axis
        self.epsilon = epsilon
        self.gamma = Parameter(initializer(gamma_init, self.normalized_shape, dtype), name="gamma")
        self.beta = Parameter(initializer(beta_init, self.normalized_shape, dtype), name="beta")

    def construct(self, input_x):
        x = arr(input_x, tensor=True)
        check_accepts("LayerNorm", x)  # floating Tensors only, as MindSpore's LayerNorm
        norm_axis = self.begin_norm_axis % x.ndim if x.ndim else 0
        params_axis = self.begin_params_axis % x.ndim if x.ndim else 0
        if tuple(x.shape[params_axis:]) != self.normalized_shape:
            raise ValueError(
                f"For 'LayerNorm', the shape of 'input_x' from begin_params_axis="
                f"{self.begin_params_axis} must be normalized_shape={self.normalized_shape}, "
                f"but got input_x.shape={tuple(x.shape)}."
            )
        axes = tuple(range(norm_axis, x.ndim))
        return wrap(
            normalization.layer_norm_value(
                x, self.gamma._value, self.beta._value, axes, float(self.epsilon)
            )
        )

    def extend_repr(self) -> str:
        # MindSpore prints no '=' after 'gamma'; kept so the printed forms match.
        return (
            f"normalized_shape={self.normalized_shape}, begin_norm_axis={self.begin_norm_axis}, "
            f"begin_params_axis={self.begin_params_axis}, gamma{self.gamma!r}, "
            f"beta={self.beta!r}"
        )


class GroupNorm(Cell):
    r"""Group normalisation over :math:`(N, C, *)`: channels split into ``num_groups`` groups.

    Args:
        num_groups (int): The number of groups; divides ``num_channels``.
        num_channels (int): The channel count :math:`C`.
        eps (float): Default: ``1e-5``.
        affine (bool): Train gamma/beta. Default: ``True``.
        gamma_init, beta_init: Defaults ``'ones'``, ``'zeros'``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Raises:
        ValueError: If ``num_channels`` is not divisible by ``num_groups`` or the input's
            channels differ.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.GroupNorm(2, 4)
        >>> net(ms.ops.ones((1, 4, 2, 2))).shape
        (1, 4, 2, 2)
        >>> net
        GroupNorm(num_groups=2, num_channels=4)
    """

    def __init__(
        self,
        num_groups,
        num_channels,
        eps=1e-5,
        affine=True,
        gamma_init="ones",
        beta_init="zeros",
        dtype=_dtype.float32,
    ):
        super().__init__()
        self.num_groups = check_positive_int("GroupNorm", "num_groups", num_groups)
        self.num_channels = check_positive_int("GroupNorm", "num_channels", num_channels)
        if num_channels % num_groups:
            raise ValueError(
                f"For 'GroupNorm', 'num_channels' must be divisible by 'num_groups', but got "
                f"num_channels={num_channels}, num_groups={num_groups}."
            )
        self.eps, self.affine = eps, check_bool("GroupNorm", "affine", affine)
        self.gamma = Parameter(
            initializer(gamma_init, (num_channels,), dtype), name="gamma", requires_grad=affine
        )
        self.beta = Parameter(
            initializer(beta_init, (num_channels,), dtype), name="beta", requires_grad=affine
        )

    def construct(self, x):
        value = arr(x, tensor=True)
        if not 2 <= value.ndim <= 8:  # MindSpore's rank check is a RuntimeError, before the dtype
            raise RuntimeError(
                f"For 'GroupNorm', 'x' must have 2 to 8 dimensions, but got x.shape="
                f"{tuple(value.shape)}."
            )
        check_accepts("GroupNorm", value)
        if value.shape[1] != self.num_channels:
            raise ValueError(
                f"For 'GroupNorm', 'x' must have num_channels={self.num_channels} channels on "
                f"dim 1, but got x.shape={tuple(value.shape)}."
            )
        return normalization.group_norm(x, self.num_groups, self.gamma, self.beta, self.eps)

    def extend_repr(self) -> str:
        return f"num_groups={self.num_groups}, num_channels={self.num_channels}"


class InstanceNorm2d(_StatsNorm):
    r"""Instance normalisation over NCHW: each sample's channels normalised over H and W.

    The running statistics (``moving_mean``/``moving_variance``) are updated in training with
    ``moving = (1 - momentum) * moving + momentum * batch``; normalisation always uses the
    instance statistics.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.InstanceNorm2d(3)
        >>> net(ms.ops.ones((2, 3, 2, 2))).shape
        (2, 3, 2, 2)

    Differences from MindSpore: MindSpore's InstanceNorm2d has no CPU kernel; cellax runs
    everywhere. The running-statistics convention was not checked against MindSpore.
    """

    def __init__(
        self,
        num_features,
        eps=1e-5,
        momentum=0.1,
        affine=True,
        gamma_init="ones",
        beta_init="zeros",
        dtype=_dtype.float32,
    ):
        super().__init__()
        api = "InstanceNorm2d"
        self.num_features = check_positive_int(api, "num_features", num_features)
        self.eps = eps
        self.momentum = _check_float_range(api, "momentum", momentum, 0.0, 1.0)
        self.affine = check_bool(api, "affine", affine)
        self._make_params(num_features, affine, gamma_init, beta_init, "zeros", "ones", dtype)

    def construct(self, x):
        value = arr(x, tensor=True)
        if value.ndim != 4 or value.shape[1] != self.num_features:
            raise ValueError(
                f"For 'InstanceNorm2d', 'x' must be a 4-D Tensor with num_features="
                f"{self.num_features} channels, but got x.shape={tuple(value.shape)}."
            )
        if self.training:
            return normalization.instance_norm(
                x,
                self.moving_mean,
                self.moving_variance,
                self.gamma,
                self.beta,
                True,
                self.momentum,
                self.eps,
            )
        return normalization.instance_norm(
            x, None, None, self.gamma, self.beta, True, self.momentum, self.eps
        )
