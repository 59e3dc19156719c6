"""Recurrent layers: RNN/LSTM/GRU (multi-layer, bidirectional, ``jax.lax.scan``) and cells.

Weights follow MindSpore's names and gate order: ``weight_ih_l{k}[_reverse]`` of shape
``(gates * hidden, input)``; LSTM gates (input, forget, cell, output), GRU gates (reset, update,
new).
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
from jax import lax

from .. import _dtype
from .._errors import check_bool, check_positive_int
from .._initializer import Uniform, initializer
from .._limits import check_alloc
from .._parameter import Parameter
from .._random import next_key
from ..ops._impl.eager import fused
from ..ops._impl.utils import arr, wrap
from ._cell import Cell

__all__ = ["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _linear(x, w, b):
    out = x @ w.T
    return out if b is None else out + b


def _step(mode, x_proj, h, w_hh, b_hh):
    """One time step from the precomputed input projection; ``h`` is (h, c) for LSTM."""
    if mode == "LSTM":
        h_prev, c_prev = h
        gates = x_proj + _linear(h_prev, w_hh, b_hh)
        i, f, g, o = jnp.split(gates, 4, axis=-1)
        c = jax.nn.sigmoid(f) * c_prev + jax.nn.sigmoid(i) * jnp.tanh(g)
        return jax.nn.sigmoid(o) * jnp.tanh(c), c
    if mode == "GRU":
        gh = _linear(h, w_hh, b_hh)
        xr, xz, xn = jnp.split(x_proj, 3, axis=-1)
        hr, hz, hn = jnp.split(gh, 3, axis=-1)
        r = jax.nn.sigmoid(xr + hr)
        z = jax.nn.sigmoid(xz + hz)
        n = jnp.tanh(xn + r * hn)
        return (1 - z) * n + z * h
    pre = x_proj + _linear(h, w_hh, b_hh)
    return jnp.tanh(pre) if mode == "RNN_TANH" else jax.nn.relu(pre)


def _reverse_index(lengths, steps):
    """Per-batch time indices that reverse each sequence within its valid length."""
    t = jnp.arange(steps)[:, None]
    return jnp.where(t < lengths[None, :], lengths[None, :] - 1 - t, t)


def _run_direction(mode, xs, h0, weights, lengths, reverse):
    """Scan one direction over time-major ``xs`` (T, B, I); returns (outputs, final state)."""
    h, c = h0 if mode == "LSTM" else (h0, None)
    return _scan_direction(mode, reverse, xs, h, c, *weights, lengths)


@fused(static_argnums=(0, 1))
def _scan_direction(mode, reverse, xs, h, c, w_ih, w_hh, b_ih, b_hh, lengths):
    """:func:`_run_direction` with every array a top-level argument: one compiled call eagerly
    and one kernel on the gradient tape (its ``lax.scan`` traced once per signature)."""
    h0 = (h, c) if mode == "LSTM" else h
    steps = xs.shape[0]
    if reverse:
        index = _reverse_index(lengths, steps)
        xs = jnp.take_along_axis(xs, index[:, :, None], axis=0)
    proj = _linear(xs, w_ih, b_ih)
    valid = jnp.arange(steps)[:, None] < lengths[None, :]

    def body(state, inputs):
        x_proj, keep = inputs
        new = _step(mode, x_proj, state, w_hh, b_hh)
        keep = keep[:, None]
        new = jax.tree_util.tree_map(lambda n, o: jnp.where(keep, n, o), new, state)
        out = new[0] if mode == "LSTM" else new
        return new, jnp.where(keep, out, 0)

    final, outs = lax.scan(body, h0, (proj, valid))
    if reverse:
        outs = jnp.take_along_axis(outs, index[:, :, None], axis=0)
    return outs, final


def _float_input(api: str, x):
    """The array of the floating-point Tensor ``x`` (MindSpore's RNN kernels take no others)."""
    value = arr(x, api, "x", tensor=True)
    if not _dtype.is_floating(value.dtype):
        raise TypeError(
            f"For '{api}', 'x' must be a floating-point Tensor (float16 or float32), but got "
            f"dtype {_dtype.from_numpy_dtype(value.dtype)}."
        )
    return value


class _RNNBase(Cell):
    def __init__(
        self,
        mode,
        input_size,
        hidden_size,
        num_layers=1,
        has_bias=True,
        batch_first=False,
        dropout=0.0,
        bidirectional=False,
        dtype=_dtype.float32,
    ):
        super().__init__()
        api = type(self).__name__
        self.mode = mode
        self.input_size = check_positive_int(api, "input_size", input_size)
        self.hidden_size = check_positive_int(api, "hidden_size", hidden_size)
        self.num_layers = check_positive_int(api, "num_layers", num_layers)
        self.has_bias = check_bool(api, "has_bias", has_bias)
        self.batch_first = check_bool(api, "batch_first", batch_first)
        self.bidirectional = check_bool(api, "bidirectional", bidirectional)
        is_number = isinstance(dropout, (int, float)) and not isinstance(dropout, bool)
        if not is_number or not 0 <= dropout < 1:
            raise ValueError(f"For '{api}', 'dropout' must be in [0, 1), but got {dropout!r}.")
        self.dropout = float(dropout)
        self.num_directions = 2 if bidirectional else 1
        gates = _GATES[mode] * hidden_size
        # the weights of the layers above the first, before a loop over them (it would hang)
        width = hidden_size * self.num_directions + hidden_size + 2
        check_alloc(api, "num_layers", (num_layers - 1, self.num_directions, gates, width), 4)
        init = Uniform(1 / math.sqrt(hidden_size))
        suffixes = ["", "_reverse"][: self.num_directions]
        keys = [(layer, s) for layer in range(num_layers) for s in suffixes]
        self._keys = keys
        tables = [("weight_ih", None), ("weight_hh", hidden_size)]
        if has_bias:
            tables += [("bias_ih", 0), ("bias_hh", 0)]
        for kind, cols in tables:
            for layer, suffix in keys:
                name = f"{kind}_l{layer}{suffix}"
                if kind == "weight_ih":
                    width = input_size if layer == 0 else hidden_size * self.num_directions
                    shape = (gates, width)
                else:
                    shape = (gates, cols) if cols else (gates,)
                setattr(self, name, Parameter(initializer(init, shape, dtype), name=name))

    def _weights(self, layer, suffix):
        names = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")
        result = []
        for kind in names:
            param = self._params.get(f"{kind}_l{layer}{suffix}")
            result.append(None if param is None else param._value)
        return tuple(result)

    def construct(self, x, hx=None, seq_length=None):
        api = type(self).__name__
        value = _float_input(api, x)
        unbatched = value.ndim == 2
        if value.ndim not in (2, 3) or value.shape[-1] != self.input_size:
            raise ValueError(
                f"For '{api}', 'x' must be (seq, batch, input_size) (or batch first) with "
                f"input_size={self.input_size}, but got x.shape={tuple(value.shape)}."
            )
        if unbatched:
            value = value[:, None] if not self.batch_first else value[None]
        if self.batch_first:
            value = jnp.swapaxes(value, 0, 1)
        steps, batch = value.shape[:2]
        lstm = self.mode == "LSTM"
        states = self._initial_state(api, hx, batch, value.dtype, unbatched)
        if seq_length is None:
            lengths = jnp.full((batch,), steps, jnp.int32)
        else:
            lengths = jnp.asarray(arr(seq_length)).astype(jnp.int32).reshape(batch)
        layer_input = value
        finals_h, finals_c = [], []
        for layer in range(self.num_layers):
            outputs = []
            for d, suffix in enumerate(["", "_reverse"][: self.num_directions]):
                index = layer * self.num_directions + d
                h0 = (states[0][index], states[1][index]) if lstm else states[index]
                weights = self._weights(layer, suffix)
                out, final = _run_direction(self.mode, layer_input, h0, weights, lengths, d == 1)
                outputs.append(out)
                if lstm:
                    finals_h.append(final[0])
                    finals_c.append(final[1])
                else:
                    finals_h.append(final)
            layer_input = outputs[0] if len(outputs) == 1 else jnp.concatenate(outputs, -1)
            if self.training and self.dropout > 0 and layer < self.num_layers - 1:
                keep = jax.random.bernoulli(next_key(), 1 - self.dropout, layer_input.shape)
                layer_input = jnp.where(keep, layer_input / (1 - self.dropout), 0)
        output = layer_input
        if self.batch_first:
            output = jnp.swapaxes(output, 0, 1)
        h_n = jnp.stack(finals_h)
        c_n = jnp.stack(finals_c) if lstm else None
        if unbatched:
            output = output[:, 0] if not self.batch_first else output[0]
            h_n = h_n[:, 0]
            c_n = None if c_n is None else c_n[:, 0]
        if lstm:
            return wrap(output), (wrap(h_n), wrap(c_n))
        return wrap(output), wrap(h_n)

    def _initial_state(self, api, hx, batch, dtype, unbatched):
        shape = (self.num_layers * self.num_directions, batch, self.hidden_size)
        zeros = jnp.zeros(shape, dtype)
        if hx is None:
            return (zeros, zeros) if self.mode == "LSTM" else zeros

        def check(h, name):
            h = arr(h)
            if unbatched and h.ndim == 2:
                h = h[:, None]
            if h.shape != shape:
                raise ValueError(
                    f"For '{api}', '{name}' must have shape {shape}, but got {tuple(h.shape)}."
                )
            return h.astype(dtype)

        if self.mode == "LSTM":
            if not isinstance(hx, (tuple, list)) or len(hx) != 2:
                raise TypeError(
                    f"For '{api}', 'hx' must be a tuple (h_0, c_0), but got {type(hx).__name__}."
                )
            return check(hx[0], "h_0"), check(hx[1], "c_0")
        return check(hx, "hx")


class RNN(_RNNBase):
    r"""Elman RNN: :math:`h_t = act(x_t W_{ih}^T + b_{ih} + h_{t-1} W_{hh}^T + b_{hh})`.

    Args:
        input_size (int): Features of the input.
        hidden_size (int): Features of the hidden state.
        num_layers (int): Stacked layers. Default: ``1``.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default: ``'tanh'``.
        has_bias (bool): Default: ``True``.
        batch_first (bool): Input/output as (batch, seq, feature). Default: ``False``.
        dropout (float): Dropout between layers in training. Default: ``0.0``.
        bidirectional (bool): Default: ``False``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Inputs:
        - **x** (Tensor) - :math:`(T, N, input\_size)` (or batch first).
        - **hx** (Tensor) - :math:`(num\_layers \cdot num\_directions, N, hidden\_size)`.
          Default: zeros.
        - **seq_length** (Tensor) - Valid lengths :math:`(N,)`; later steps give zero output
          and leave the state unchanged. Default: ``None``.

    Outputs:
        Tuple (output, h_n): output :math:`(T, N, num\_directions \cdot hidden\_size)`.

    Raises:
        ValueError: If ``x`` or ``hx`` has the wrong shape.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.RNN(10, 16, 2, batch_first=True)
        >>> out, h = net(ms.ops.ones((3, 5, 10)))
        >>> out.shape, h.shape
        ((3, 5, 16), (2, 3, 16))

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.RNN.html
    """

    def __init__(
        self,
        input_size,
        hidden_size,
        num_layers=1,
        nonlinearity="tanh",
        has_bias=True,
        batch_first=False,
        dropout=0.0,
        bidirectional=False,
        dtype=_dtype.float32,
    ):
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(
                f"For 'RNN', 'nonlinearity' must be 'tanh' or 'relu', but got {nonlinearity!r}."
            )
        self.nonlinearity = nonlinearity
        super().__init__(
            f"RNN_{nonlinearity.upper()}",
            input_size,
            hidden_size,
            num_layers,
            has_bias,
            batch_first,
            dropout,
            bidirectional,
            dtype,
        )


class LSTM(_RNNBase):
    r"""Long short-term memory; gates (input, forget, cell, output) stacked in the weights.

    Arguments, inputs and outputs as :class:`RNN` (without ``nonlinearity``), except that
    ``hx`` is a tuple ``(h_0, c_0)`` and the result is ``(output, (h_n, c_n))``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.LSTM(10, 16, 2, batch_first=True, bidirectional=True)
        >>> out, (h, c) = net(ms.ops.ones((3, 5, 10)))
        >>> out.shape, h.shape, c.shape
        ((3, 5, 32), (4, 3, 16), (4, 3, 16))

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.LSTM.html
    """

    def __init__(
        self,
        input_size,
        hidden_size,
        num_layers=1,
        has_bias=True,
        batch_first=False,
        dropout=0.0,
        bidirectional=False,
        dtype=_dtype.float32,
    ):
        super().__init__(
            "LSTM",
            input_size,
            hidden_size,
            num_layers,
            has_bias,
            batch_first,
            dropout,
            bidirectional,
            dtype,
        )


class GRU(_RNNBase):
    r"""Gated recurrent unit; gates (reset, update, new) stacked in the weights.

    Arguments, inputs and outputs as :class:`RNN` (without ``nonlinearity``).

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.GRU(10, 16, 2, batch_first=True)
        >>> out, h = net(ms.ops.ones((3, 5, 10)))
        >>> out.shape, h.shape
        ((3, 5, 16), (2, 3, 16))

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.GRU.html
    """

    def __init__(
        self,
        input_size,
        hidden_size,
        num_layers=1,
        has_bias=True,
        batch_first=False,
        dropout=0.0,
        bidirectional=False,
        dtype=_dtype.float32,
    ):
        super().__init__(
            "GRU",
            input_size,
            hidden_size,
            num_layers,
            has_bias,
            batch_first,
            dropout,
            bidirectional,
            dtype,
        )


class _CellBase(Cell):
    _mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, has_bias=True, dtype=_dtype.float32) -> None:
        super().__init__()
        api = type(self).__name__
        self.input_size = check_positive_int(api, "input_size", input_size)
        self.hidden_size = check_positive_int(api, "hidden_size", hidden_size)
        self.has_bias = check_bool(api, "has_bias", has_bias)
        gates = _GATES[self._mode] * hidden_size
        init = Uniform(1 / math.sqrt(hidden_size))
        self.weight_ih = Parameter(initializer(init, (gates, input_size), dtype), name="weight_ih")
        self.weight_hh = Parameter(initializer(init, (gates, hidden_size), dtype), name="weight_hh")
        if has_bias:
            self.bias_ih = Parameter(initializer(init, (gates,), dtype), name="bias_ih")
            self.bias_hh = Parameter(initializer(init, (gates,), dtype), name="bias_hh")
        else:
            self.bias_ih = self.bias_hh = None

    def _cell_step(self, x, h):
        api = type(self).__name__
        value = _float_input(api, x)
        if value.ndim not in (1, 2) or value.shape[-1] != self.input_size:
            raise ValueError(
                f"For '{api}', 'x' must be (batch, input_size) with input_size="
                f"{self.input_size}, but got x.shape={tuple(value.shape)}."
            )
        expected = value.shape[:-1] + (self.hidden_size,)
        for state in h if isinstance(h, tuple) else (h,):
            if tuple(state.shape) != expected:
                raise ValueError(
                    f"For '{api}', 'hx' must have shape {expected} for x.shape="
                    f"{tuple(value.shape)}, but got {tuple(state.shape)}."
                )
        b_ih = None if self.bias_ih is None else self.bias_ih._value
        b_hh = None if self.bias_hh is None else self.bias_hh._value
        proj = _linear(value, self.weight_ih._value, b_ih)
        return _step(self._mode, proj, h, self.weight_hh._value, b_hh)


class RNNCell(_CellBase):
    r"""One Elman RNN step: ``hy = act(x W_ih^T + b_ih + hx W_hh^T + b_hh)``.

    Args:
        input_size (int): Input features.
        hidden_size (int): Hidden features.
        has_bias (bool): Default: ``True``.
        nonlinearity (str): ``'tanh'`` or ``'relu'``. Default: ``'tanh'``.
        dtype (cellax.dtype): Default: ``cellax.float32``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.RNNCell(10, 16)
        >>> net(ms.ops.ones((3, 10)), ms.ops.zeros((3, 16))).shape
        (3, 16)
    """

    def __init__(
        self, input_size, hidden_size, has_bias=True, nonlinearity="tanh", dtype=_dtype.float32
    ) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(
                f"For 'RNNCell', 'nonlinearity' must be 'tanh' or 'relu', but got {nonlinearity!r}."
            )
        self._mode = f"RNN_{nonlinearity.upper()}"
        self.nonlinearity = nonlinearity
        super().__init__(input_size, hidden_size, has_bias, dtype)

    def construct(self, x, hx):
        return wrap(self._cell_step(x, arr(hx)))


class LSTMCell(_CellBase):
    r"""One LSTM step; ``hx`` is ``(h, c)``, the result ``(hy, cy)``.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.LSTMCell(10, 16)
        >>> h, c = net(ms.ops.ones((3, 10)), (ms.ops.zeros((3, 16)), ms.ops.zeros((3, 16))))
        >>> h.shape, c.shape
        ((3, 16), (3, 16))
    """

    _mode = "LSTM"

    def construct(self, x, hx):
        if not isinstance(hx, (tuple, list)) or len(hx) != 2:
            raise TypeError(
                f"For 'LSTMCell', 'hx' must be a tuple (h, c), but got {type(hx).__name__}."
            )
        h, c = self._cell_step(x, (arr(hx[0]), arr(hx[1])))
        return wrap(h), wrap(c)


class GRUCell(_CellBase):
    r"""One GRU step.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.GRUCell(10, 16)
        >>> net(ms.ops.ones((3, 10)), ms.ops.zeros((3, 16))).shape
        (3, 16)
    """

    _mode = "GRU"

    def construct(self, x, hx):
        return wrap(self._cell_step(x, arr(hx)))
