"""Forward- and reverse-mode transforms of MindSpore 2.10's ``mindspore.ops``: ``jvp``,
``vjp``, ``jacfwd``, ``jacrev``, ``linearize``, ``derivative``, ``jet`` and ``get_grad``;
stateful functions and Cells run as under :func:`grad` (their state writes are committed)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
from jax.experimental import jet as _jet

from .._core import to_arrays
from .._parameter import Parameter
from .._tensor import Tensor, wrap, wrap_tree
from . import _trace
from ._grad import _normalize_positions, _normalize_weights

__all__ = ["jvp", "vjp", "jacfwd", "jacrev", "linearize", "derivative", "jet", "get_grad"]


def _arrays(api, name, values) -> tuple:
    items = (values,) if isinstance(values, Tensor) else values
    if not isinstance(items, (tuple, list)) or not all(isinstance(v, Tensor) for v in items):
        raise TypeError(
            f"For '{api}', '{name}' must be a Tensor or a tuple of Tensors, but got "
            f"{type(values).__name__}."
        )
    return tuple(v._value for v in items)


def _check_like(api, primals, tangents):
    if len(primals) != len(tangents) or any(p.shape != t.shape for p, t in zip(primals, tangents)):
        raise ValueError(
            f"For '{api}', 'v' must match 'inputs' in number and shapes, but got "
            f"{[tuple(t.shape) for t in tangents]} for {[tuple(p.shape) for p in primals]}."
        )


def _values(out):
    """Every Tensor of ``out`` replaced by its value (whatever tracer it holds: to_arrays does
    not take every JAX tracer, e.g. jet's, for an array)."""
    return jax.tree_util.tree_map(
        lambda t: t._value if isinstance(t, Tensor) else to_arrays(t),
        out,
        is_leaf=lambda t: isinstance(t, Tensor),
    )


def _split(out, has_aux):
    """(differentiated part, aux): with ``has_aux`` the first output and the rest."""
    if not has_aux:
        return out, None
    if not isinstance(out, (tuple, list)) or len(out) < 2:
        raise ValueError("With has_aux=True the function must return (output, aux...).")
    return out[0], (out[1] if len(out) == 2 else tuple(out[1:]))


def _check_fn(api, fn):
    if not callable(fn):
        raise TypeError(f"For '{api}', 'fn' must be callable, but got {type(fn).__name__}.")


def _stateful(api, fn, weights=()):
    _check_fn(api, fn)
    return _trace.functionalize(fn, tuple(weights or ()), convert=True, differentiating=True)


def _pure(stateful, has_aux, weights=False):
    """The JAX function of arrays; its aux carries (aux outputs, new state values)."""

    def inner(*arrays):
        values = list(arrays[0]) if weights else []
        inputs = arrays[1:] if weights else arrays
        out, new_values = stateful(values, *[wrap(a) for a in inputs])
        main, aux = _split(_values(out), has_aux)
        return main, (aux, new_values)

    return inner


def _result(main, tangent, aux, has_aux):
    out = (wrap_tree(main), wrap_tree(tangent))
    return out + (wrap_tree(aux),) if has_aux else out


def jvp(fn, inputs, v, has_aux=False):
    """The output of ``fn(*inputs)`` and its directional derivative along ``v`` (forward mode).

    Args:
        fn (Union[Function, Cell]): The function.
        inputs (Union[Tensor, tuple[Tensor]]): The point.
        v (Union[Tensor, tuple[Tensor]]): The direction, like ``inputs``.
        has_aux (bool): ``fn`` returns ``(output, aux)``; only ``output`` is differentiated.
            Default: ``False``.

    Returns:
        ``(output, jvp)``, or ``(output, jvp, aux)`` with ``has_aux``.

    Examples:
        >>> import cellax as ms
        >>> def f(x, y):
        ...     return x * x * y
        >>> x, y = ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])
        >>> out, tangent = ms.ops.jvp(f, (x, y), (ms.Tensor([1.0, 0.0]), ms.Tensor([0.0, 1.0])))
        >>> print(out, tangent)
        [ 3. 16.] [6. 4.]
    """
    primals, tangents = _arrays("jvp", "inputs", inputs), _arrays("jvp", "v", v)
    _check_like("jvp", primals, tangents)
    stateful = _stateful("jvp", fn)
    main, tangent, (aux, new_values) = jax.jvp(
        _pure(stateful, has_aux), primals, tangents, has_aux=True
    )
    stateful.commit(new_values)
    return _result(main, tangent, aux, has_aux)


def linearize(fn, inputs):
    """The output of ``fn(*inputs)`` and a function of ``v`` giving the JVP at that point (the
    linearisation is computed once).

    Examples:
        >>> import cellax as ms
        >>> def f(x):
        ...     return x * x
        >>> out, jvp_fn = ms.ops.linearize(f, ms.Tensor([1.0, 2.0]))
        >>> print(out, jvp_fn(ms.Tensor([1.0, 1.0])))
        [1. 4.] [2. 4.]
    """
    primals = _arrays("linearize", "inputs", inputs)
    stateful = _stateful("linearize", fn)
    main, lin, (_, new_values) = jax.linearize(_pure(stateful, False), *primals, has_aux=True)
    stateful.commit(new_values)

    def jvp_fn(v):
        tangents = _arrays("linearize", "v", v)
        _check_like("linearize", primals, tangents)
        return wrap_tree(lin(*tangents))

    return wrap_tree(main), jvp_fn


def vjp(fn, *inputs, weights=None, has_aux=False):
    """The output of ``fn(*inputs)`` and a function of the output cotangent ``v`` giving the
    gradients of the inputs (and of ``weights``) (reverse mode).

    Args:
        fn (Union[Function, Cell]): The function.
        inputs (Tensor): The point.
        weights (Union[Parameter, list[Parameter]], optional): Parameters to differentiate too.
        has_aux (bool): ``fn`` returns ``(output, aux)``. Default: ``False``.

    Returns:
        ``(output, vjp_fn)`` (``(output, vjp_fn, aux)`` with ``has_aux``); ``vjp_fn(v)`` returns
        the tuple of input gradients, or ``(input_grads, weight_grads)`` with ``weights``.

    Examples:
        >>> import cellax as ms
        >>> def f(x, y):
        ...     return x * y
        >>> out, vjp_fn = ms.ops.vjp(f, ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0]))
        >>> grads = vjp_fn(ms.Tensor([1.0, 1.0]))
        >>> print(grads[0], grads[1])
        [3. 4.] [1. 2.]
    """
    primals = _arrays("vjp", "inputs", inputs)
    weight_list, _ = _normalize_weights("vjp", weights)
    stateful = _stateful("vjp", fn, weight_list)
    weight_values = [w._value for w in weight_list or ()]
    main, pullback, (aux, new_values) = jax.vjp(
        _pure(stateful, has_aux, weights=True), weight_values, *primals, has_aux=True
    )
    stateful.commit(new_values)

    def vjp_fn(v):
        cotangent = _values(v)
        if jax.tree_util.tree_structure(cotangent) != jax.tree_util.tree_structure(main):
            raise ValueError("For 'vjp', 'v' must have the structure of fn's output.")
        with _trace.backward():
            grads = pullback(cotangent)
        input_grads = tuple(wrap(g) for g in grads[1:])
        if weight_list is None:
            return input_grads
        return input_grads, tuple(wrap(g) for g in grads[0])

    out = wrap_tree(main)
    return (out, vjp_fn, wrap_tree(aux)) if has_aux else (out, vjp_fn)


def _jacobian(api, transform, fn, grad_position, has_aux):
    _check_fn(api, fn)

    def jac_fn(*args):
        positions, single = _normalize_positions(api, grad_position, len(args))
        for i in positions:
            if not isinstance(args[i], Tensor):
                raise TypeError(f"For '{api}', input {i} must be a Tensor.")
        stateful = _stateful(api, fn)

        def inner(*diff):
            call_args = list(args)
            for i, value in zip(positions, diff):
                call_args[i] = wrap(value)
            out, new_values = stateful([], *call_args)
            main, aux = _split(_values(out), has_aux)
            return main, (aux, new_values)

        diff = [args[i]._value for i in positions]
        argnums = 0 if single else tuple(range(len(diff)))
        jac, (aux, new_values) = transform(inner, argnums=argnums, has_aux=True)(*diff)
        stateful.commit(new_values)
        jac = wrap_tree(jac)
        return (jac, wrap_tree(aux)) if has_aux else jac

    return jac_fn


def jacfwd(fn, grad_position=0, has_aux=False):
    """A function computing the Jacobian of ``fn`` by forward mode, with respect to the inputs
    at ``grad_position`` (an int: one Jacobian; a tuple: a tuple).

    Examples:
        >>> import cellax as ms
        >>> def f(x):
        ...     return x * x
        >>> print(ms.ops.jacfwd(f)(ms.Tensor([1.0, 2.0])))
        [[2. 0.]
         [0. 4.]]
    """
    return _jacobian("jacfwd", jax.jacfwd, fn, grad_position, has_aux)


def jacrev(fn, grad_position=0, has_aux=False):
    """:func:`jacfwd` by reverse mode (cheaper when the output is smaller than the input).

    Examples:
        >>> import cellax as ms
        >>> def f(x, y):
        ...     return x * y
        >>> print(ms.ops.jacrev(f, grad_position=1)(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0, 4.0])))
        [[1. 0.]
         [0. 2.]]
    """
    return _jacobian("jacrev", jax.jacrev, fn, grad_position, has_aux)


def _plain(fn, differentiating: bool):
    """A function of arrays calling ``fn`` on Tensors (no state: for derivative and jet)."""
    user = _trace.user_code(fn, convert=True, differentiating=differentiating)

    def call(*arrays):
        return _values(user(*[wrap(a) for a in arrays]))

    return call


def derivative(fn, primals, order):
    """``fn(primals)`` and its ``order``-th derivative along the all-ones direction.

    Examples:
        >>> import cellax as ms
        >>> def f(x):
        ...     return x * x * x
        >>> out, second = ms.ops.derivative(f, ms.Tensor([1.0, 2.0]), 2)
        >>> print(out, second)
        [1. 8.] [ 6. 12.]
    """
    if isinstance(order, bool) or not isinstance(order, int) or order < 1:
        raise ValueError(f"For 'derivative', 'order' must be an int >= 1, but got {order!r}.")
    _check_fn("derivative", fn)
    arrays = _arrays("derivative", "primals", primals)
    base = _plain(fn, differentiating=True)
    step = base
    for _ in range(order):
        step = (lambda g: lambda *a: jax.jvp(g, a, tuple(jnp.ones_like(x) for x in a))[1])(step)
    return wrap_tree(base(*arrays)), wrap_tree(step(*arrays))


def jet(fn, primals, series):
    """Taylor-mode derivatives: ``fn(primals)`` and the derivatives of ``fn`` along the input
    curve whose derivatives are ``series`` (``series[k]``: the (k+1)-th derivative).

    Args:
        fn (Function): A function of Tensors.
        primals (Union[Tensor, tuple[Tensor]]): The point.
        series (Union[Tensor, tuple[Tensor]]): Per input, shape ``(order,) + input.shape``.

    Returns:
        ``(output, output_series)``, the series stacked like ``series``.

    Raises:
        NotImplementedError: If ``fn`` uses an operation JAX has no Taylor rule for.

    Examples:
        >>> import cellax as ms
        >>> def f(x):
        ...     return x * x
        >>> out, s = ms.ops.jet(f, ms.Tensor([3.0]), ms.Tensor([[1.0], [0.0]]))
        >>> print(out, s)
        [9.] [[6.]
         [2.]]
    """
    _check_fn("jet", fn)
    arrays = _arrays("jet", "primals", primals)
    terms = _arrays("jet", "series", series)
    if len(terms) != len(arrays) or any(t.shape[1:] != a.shape for t, a in zip(terms, arrays)):
        raise ValueError("For 'jet', 'series' must hold (order,) + shape of each primal.")
    try:
        out, out_terms = _jet.jet(
            _plain(fn, differentiating=False), arrays, tuple(list(t) for t in terms)
        )
    except NotImplementedError as error:
        raise NotImplementedError(f"For 'jet', JAX has no Taylor rule here: {error}") from None
    stack = jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *out_terms)
    return wrap_tree(out), wrap_tree(stack)


def get_grad(gradients, identifier):
    """The gradient in ``gradients`` (from ``grad(..., return_ids=True)``) of the input
    position or the Parameter ``identifier``.

    Raises:
        RuntimeError: If no gradient has that identifier.

    Examples:
        >>> import cellax as ms
        >>> def f(x, y):
        ...     return x * y
        >>> grads = ms.grad(f, (0, 1), return_ids=True)(ms.Tensor(2.0), ms.Tensor(3.0))
        >>> print(ms.ops.get_grad(grads, 1))
        2.0
    """
    key = identifier.name if isinstance(identifier, Parameter) else identifier
    if isinstance(key, bool) or not isinstance(key, (int, str)):
        raise TypeError(
            f"For 'get_grad', 'identifier' must be an int position or a Parameter, but got "
            f"{type(identifier).__name__}."
        )
    stack = [gradients]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple) and len(item) == 2 and not isinstance(item[0], tuple):
            if item[0] == key and isinstance(item[1], Tensor):
                return item[1]
        if isinstance(item, (tuple, list)):
            stack.extend(reversed(item))
    raise RuntimeError(f"For 'get_grad', no gradient has the identifier {key!r}.")
