"""In-place functions of MindSpore 2.10's ``mindspore.ops`` list.

``inplace_add``/``inplace_sub``/``inplace_update`` return a new Tensor and leave ``x`` as it
was (what MindSpore 2.10 does in PyNative mode, despite the names); ``inplace_index_add``
writes into its Parameter. The trailing-underscore functions (``zero_``, ``clamp_``, ``tanh_``,
``erfinv_``, ``inplace_sigmoid``, ``put_``, ``uniform_``, ``normal_``, ``random_``,
``exponential_``, ``bernoulli_``, ``stop_gradient_``) overwrite their Tensor and return it.

Differences from MindSpore: MindSpore 2.10 CPU has no kernel for the trailing-underscore
functions (RuntimeError); cellax runs them everywhere.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from ..._parameter import Parameter
from ..._tensor import Tensor
from .elementwise import clamp
from .random import rand, randint
from .state import assign
from .utils import arr, wrap

__all__ = [
    "inplace_add",
    "inplace_sub",
    "inplace_update",
    "inplace_index_add",
    "zero_",
    "clamp_",
    "tanh_",
    "erfinv_",
    "inplace_sigmoid",
    "stop_gradient_",
    "put_",
    "uniform_",
    "normal_",
    "random_",
    "exponential_",
    "bernoulli_",
]


def _rows(api, x, v, indices):
    data, values = arr(x, api, "x"), arr(v, api, "v")
    if isinstance(indices, Tensor):
        index = indices.asnumpy().reshape(-1)
    elif isinstance(indices, (int, np.integer)) and not isinstance(indices, bool):
        index = np.array([indices])
    elif isinstance(indices, (tuple, list)) and all(
        isinstance(i, (int, np.integer)) and not isinstance(i, bool) for i in indices
    ):
        index = np.asarray(indices, np.int64).reshape(-1)
    else:
        raise TypeError(f"For '{api}', 'indices' must be an int, a tuple or a Tensor of ints.")
    if values.shape[1:] != data.shape[1:] or values.shape[0] != index.size:
        raise ValueError(
            f"For '{api}', 'v' must have shape ({index.size},) + {tuple(data.shape[1:])}, but got "
            f"{tuple(values.shape)}."
        )
    if ((index < -data.shape[0]) | (index >= data.shape[0])).any():
        raise ValueError(f"For '{api}', 'indices' must be in [0, {data.shape[0]}), got {index}.")
    return data, values.astype(data.dtype), jnp.asarray(index % data.shape[0])


def inplace_add(x, v, indices):
    """``x`` with ``v[i]`` added to its row ``indices[i]`` (``x`` itself is unchanged).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.ones((3, 2), np.float32))
        >>> print(ms.ops.inplace_add(x, ms.Tensor(np.ones((1, 2), np.float32)), 1))
        [[1. 1.]
         [2. 2.]
         [1. 1.]]
    """
    data, values, index = _rows("inplace_add", x, v, indices)
    return wrap(data.at[index].add(values))


def inplace_sub(x, v, indices):
    """``x`` with ``v[i]`` subtracted from its row ``indices[i]`` (``x`` is unchanged).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.ones((2, 2), np.float32))
        >>> print(ms.ops.inplace_sub(x, ms.Tensor(np.ones((1, 2), np.float32)), 0))
        [[0. 0.]
         [1. 1.]]
    """
    data, values, index = _rows("inplace_sub", x, v, indices)
    return wrap(data.at[index].add(-values))


def inplace_update(x, v, indices):
    """``x`` with its rows ``indices`` replaced by ``v`` (``x`` is unchanged).

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.zeros((2, 2), np.float32))
        >>> print(ms.ops.inplace_update(x, ms.Tensor(np.ones((1, 2), np.float32)), (1,)))
        [[0. 0.]
         [1. 1.]]
    """
    data, values, index = _rows("inplace_update", x, v, indices)
    return wrap(data.at[index].set(values))


def inplace_index_add(var, indices, updates, axis):
    """Add ``updates`` into the Parameter ``var`` at ``indices`` along ``axis``; return ``var``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> var = ms.Parameter(ms.Tensor(np.zeros((3, 1), np.float32)), name="var")
        >>> idx = ms.Tensor(np.array([0, 2, 0], np.int32))
        >>> out = ms.ops.inplace_index_add(var, idx, ms.Tensor(np.ones((3, 1), np.float32)), 0)
        >>> print(out is var, var.asnumpy())
        True [[2.]
         [0.]
         [1.]]
    """
    api = "inplace_index_add"
    if not isinstance(var, Parameter):
        raise TypeError(f"For '{api}', 'var' must be a Parameter, but got {type(var).__name__}.")
    data, index, values = var._value, arr(indices, api, "indices"), arr(updates, api, "updates")
    if not jnp.issubdtype(index.dtype, jnp.integer) or index.ndim != 1:
        raise TypeError(f"For '{api}', 'indices' must be a 1-D integer Tensor.")
    axis = axis % data.ndim
    where = (slice(None),) * axis + (index,)
    return assign(var, data.at[where].add(values.astype(data.dtype)))


def _overwrite(api, input, new):
    if not isinstance(input, Tensor):
        raise TypeError(f"For '{api}', 'input' must be a Tensor, but got {type(input).__name__}.")
    if isinstance(input, Parameter):
        return assign(input, new)
    input._value = jnp.asarray(new).astype(input._value.dtype)
    return input


def zero_(input):
    """Fill ``input`` with zeros, in place; return it.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([1.0, 2.0])
        >>> print(ms.ops.zero_(x), x)
        [0. 0.] [0. 0.]
    """
    return _overwrite("zero_", input, jnp.zeros_like(arr(input, "zero_")))


def clamp_(input, min=None, max=None):
    """:func:`clamp` written back into ``input``.

    Examples:
        >>> import cellax as ms
        >>> x = ms.Tensor([-2.0, 0.5, 3.0])
        >>> print(ms.ops.clamp_(x, -1.0, 1.0))
        [-1.   0.5  1. ]
    """
    return _overwrite("clamp_", input, clamp(input, min, max)._value)


def tanh_(input):
    """``tanh`` written back into ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.tanh_(ms.Tensor([0.0])))
        [0.]
    """
    return _overwrite("tanh_", input, jnp.tanh(arr(input, "tanh_")))


def erfinv_(input):
    """``erfinv`` written back into ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.erfinv_(ms.Tensor([0.0])))
        [0.]
    """
    return _overwrite("erfinv_", input, jax.scipy.special.erfinv(arr(input, "erfinv_")))


def inplace_sigmoid(input):
    """``sigmoid`` written back into ``input``.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.inplace_sigmoid(ms.Tensor([0.0])))
        [0.5]
    """
    return _overwrite("inplace_sigmoid", input, jax.nn.sigmoid(arr(input, "inplace_sigmoid")))


def stop_gradient_(input):
    """Detach ``input`` from differentiation, in place; return it.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.stop_gradient_(ms.Tensor([1.0])))
        [1.]
    """
    return _overwrite("stop_gradient_", input, jax.lax.stop_gradient(arr(input, "stop_gradient_")))


def put_(input, index, source, accumulate=False):
    """Write (``accumulate``: add) ``source`` at the flat positions ``index`` of ``input``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> x = ms.Tensor(np.zeros((2, 2), np.float32))
        >>> print(ms.ops.put_(x, ms.Tensor(np.array([0, 3])), ms.Tensor([1.0, 2.0])))
        [[1. 0.]
         [0. 2.]]
    """
    api = "put_"
    data = arr(input, api)
    flat_index = arr(index, api, "index").reshape(-1)
    values = arr(source, api, "source").reshape(-1).astype(data.dtype)
    if flat_index.shape != values.shape:
        raise ValueError(f"For '{api}', 'index' and 'source' must have one number of elements.")
    flat = data.reshape(-1)
    flat_index = flat_index % max(flat.size, 1)
    flat = flat.at[flat_index].add(values) if accumulate else flat.at[flat_index].set(values)
    return _overwrite(api, input, flat.reshape(data.shape))


def _seed(api, generator):
    if generator is None:
        return None
    step = getattr(generator, "_step", None)
    if step is None:
        raise TypeError(f"For '{api}', 'generator' must be a cellax.Generator or None.")
    seed, offset = step(1)
    return (seed * 1_000_003 + offset) % (2**31 - 1) + 1


def _uniform(api, input, generator):
    data = arr(input, api)
    return data, rand(*data.shape, dtype=None, seed=_seed(api, generator))._value


def uniform_(input, from_=0, to=1, *, generator=None):
    """Fill ``input`` with uniform samples in ``[from_, to)``, in place.

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.zeros((3,))
        >>> bool(((ms.ops.uniform_(x, 2.0, 3.0) >= 2) & (x < 3)).all())
        True
    """
    _, u = _uniform("uniform_", input, generator)
    return _overwrite("uniform_", input, from_ + (to - from_) * u)


def normal_(input, mean=0, std=1, *, generator=None):
    """Fill ``input`` with normal samples of ``mean`` and ``std``, in place.

    Examples:
        >>> import cellax as ms
        >>> ms.ops.normal_(ms.ops.zeros((2, 3)), 1.0, 0.5).shape
        (2, 3)
    """
    data, u = _uniform("normal_", input, generator)
    z = jnp.sqrt(2.0) * jax.scipy.special.erfinv(2 * jnp.clip(u, 1e-7, 1 - 1e-7) - 1)
    return _overwrite("normal_", input, mean + std * z)


def random_(input, from_=0, to=None, *, generator=None):
    """Fill ``input`` with integers drawn uniformly from ``[from_, to)`` (``to`` None: up to
    the dtype's largest value, ``2**24`` for Float32).

    Examples:
        >>> import cellax as ms
        >>> x = ms.ops.random_(ms.ops.zeros((4,), ms.int32), 0, 3)
        >>> bool(((x >= 0) & (x < 3)).all())
        True
    """
    data = arr(input, "random_")
    if to is None:
        dtype = np.dtype(data.dtype)
        to = 2 ** np.finfo(dtype).nmant + 1 if dtype.kind == "f" else int(np.iinfo(dtype).max)
    drawn = randint(int(from_), int(to), data.shape, seed=_seed("random_", generator))
    return _overwrite("random_", input, drawn._value)


def exponential_(input, lambd=1, *, generator=None):
    """Fill ``input`` with exponential samples of rate ``lambd``, in place.

    Examples:
        >>> import cellax as ms
        >>> bool((ms.ops.exponential_(ms.ops.zeros((5,)), 2.0) >= 0).all())
        True
    """
    _, u = _uniform("exponential_", input, generator)
    return _overwrite("exponential_", input, -jnp.log1p(-u) / lambd)


def bernoulli_(input, p=0.5, *, generator=None):
    """Fill ``input`` with 0/1 samples that are 1 with probability ``p`` (a number or a
    Tensor broadcast to ``input``), in place.

    Examples:
        >>> import cellax as ms
        >>> print(ms.ops.bernoulli_(ms.ops.zeros((3,)), 1.0))
        [1. 1. 1.]
    """
    _, u = _uniform("bernoulli_", input, generator)
    prob = arr(p, "bernoulli_", "p")
    return _overwrite("bernoulli_", input, (u < prob).astype(np.float32))
