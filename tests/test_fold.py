"""Constant folding in compiled traces (``cellax/_transforms/_fold.py``) and the JAX internals
it relies on.

JAX has no public API for a scoped "folding off" or a per-op folding decision, so ``_fold``
uses two private names, guarded: the first test fails, naming what moved, when a JAX release
moves one of them; the fallback tests show that results stay correct without them.
"""

import importlib
import inspect

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import Tensor, nn, ops
from cellax._transforms import _fold

WHERE = "cellax/_transforms/_fold.py"


def test_the_jax_internals_fold_uses_are_where_it_expects_them():
    version = jax.__version__
    assert _fold.FLAG is not None, (
        f"JAX {version} moved or changed jax._src.config.eager_constant_folding (or "
        f"jax.ensure_compile_time_eval no longer sets it): cellax's compiled traces now fall "
        f"back to no constant folding (Tensor conditions on constants become lax.cond; those "
        f"whose branches differ in shape raise). Update _find_flag in {WHERE}."
    )
    assert _fold.HOOKED is not None, (
        f"JAX {version} moved jax._src.interpreters.partial_eval.DynamicJaxprTrace"
        f".process_primitive: cellax's compiled traces now fold constants of any size (results "
        f"stay correct, large constants become literals). Update _find_hooked in {WHERE}."
    )
    wrapped = _fold._original[0] if _fold._original else _fold.HOOKED.process_primitive
    parameters = list(inspect.signature(wrapped).parameters)
    assert parameters == ["self", "primitive", "tracers", "params"], (
        f"JAX {version} changed DynamicJaxprTrace.process_primitive's signature to "
        f"{parameters}: update _process_primitive in {WHERE}."
    )


def _concrete(fn):
    """Whether ``fn()`` gives a concrete value when traced by ``jax.make_jaxpr``."""
    box = []
    jax.make_jaxpr(lambda: box.append(not isinstance(fn(), jax.core.Tracer)) or 0)()
    return box[0]


def _small():
    return jnp.ones(4) + 1


def _large():  # more than FOLD_LIMIT elements
    return jnp.ones((64, 64)) + 1


def test_folding_folds_small_results_and_stages_large_ones():
    assert 64 * 64 > _fold.FOLD_LIMIT >= 4
    assert not _concrete(_small) and not _concrete(_large)  # plain tracing
    with _fold.folding():
        assert _concrete(_small)
        assert not _concrete(_large)
        with _fold.staged():
            assert not _concrete(_small)
        assert _concrete(_small)
    assert not _concrete(_small)


def test_concrete_computes_any_size_at_once():
    box = []

    def trace():
        with _fold.folding():
            box.append(_fold.concrete(_large))
        return 0

    jax.make_jaxpr(trace)()
    assert not isinstance(box[0], jax.core.Tracer)
    np.testing.assert_array_equal(np.asarray(box[0]), np.full((64, 64), 2.0))


class _Gate(nn.Cell):
    """A condition on a constant (folded: decided while tracing) and a large constant."""

    def __init__(self):
        super().__init__()
        self.scale = Tensor(np.array([2.0, 3.0], np.float32))

    def construct(self, x):
        big = ops.tril(ops.ones((64, 64), ms.float32)).sum()  # 2080
        if (self.scale > 0).all():
            x = x * self.scale
        else:
            x = x - self.scale
        return x + big


def _check_gate():
    x = Tensor(np.array([1.0, -1.0], np.float32))
    expected = np.array([2082.0, 2077.0], np.float32)
    np.testing.assert_allclose(_Gate()(x).asnumpy(), expected)
    np.testing.assert_allclose(ms.jit(_Gate())(x).asnumpy(), expected)
    gate = _Gate()
    grad = ms.jit(ms.grad(lambda x: gate(x).sum()))(x)
    np.testing.assert_allclose(grad.asnumpy(), [2.0, 3.0])


def test_results_with_the_internals():
    _check_gate()


def test_without_the_hook_point_every_size_folds_and_results_stay_correct(monkeypatch):
    monkeypatch.setattr(_fold, "HOOKED", None)
    with _fold.folding():
        assert _concrete(_small)
        assert _concrete(_large)  # no size limit: the optimisation is skipped
    _check_gate()


def test_without_the_flag_nothing_folds_and_results_stay_correct(monkeypatch):
    monkeypatch.setattr(_fold, "FLAG", None)
    with _fold.folding():
        assert not _concrete(_small)  # plain jax.jit tracing
        with _fold.staged():
            assert not _concrete(_small)
    _check_gate()


@pytest.mark.parametrize(
    "module, name, finder",
    [
        ("jax._src.config", "eager_constant_folding", "_find_flag"),
        ("jax._src.interpreters.partial_eval", "DynamicJaxprTrace", "_find_hooked"),
    ],
)
def test_a_moved_internal_is_found_missing_not_raised(monkeypatch, module, name, finder):
    monkeypatch.delattr(importlib.import_module(module), name)
    assert getattr(_fold, finder)() is None
