"""mint's random functions with ``generator=``: reproducible per Generator state, independent
of the global seed, and advancing the generator's offset."""

import numpy as np
import pytest

import cellax as ms
from cellax import mint

DRAWS = {
    "rand": lambda g: mint.rand(2, 3, generator=g),
    "rand_like": lambda g: mint.rand_like(mint.ones((3,)), generator=g),
    "randn": lambda g: mint.randn(4, generator=g),
    "randn_like": lambda g: mint.randn_like(mint.ones((2, 2)), generator=g),
    "randint": lambda g: mint.randint(0, 100, (5,), generator=g),
    "randint_like": lambda g: mint.randint_like(mint.ones((3,)), 0, 50, generator=g),
    "randperm": lambda g: mint.randperm(8, generator=g),
    "normal": lambda g: mint.normal(1.0, 2.0, (3,), generator=g),
    "bernoulli": lambda g: mint.bernoulli(mint.full((6,), 0.5), generator=g),
    "multinomial": lambda g: mint.multinomial(mint.ones((5,)), 3, generator=g),
}


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_generator_reproduces_draws(name):
    draw = DRAWS[name]
    g = ms.Generator().manual_seed(7)
    state = g.get_state()
    ms.set_seed(1)
    first = draw(g).asnumpy()
    ms.set_seed(2)  # the global seed does not matter when a generator is given
    g.set_state(state)
    np.testing.assert_array_equal(draw(g).asnumpy(), first)
    assert g.get_state().asnumpy().tolist() != state.asnumpy().tolist()  # offset advanced


def test_successive_draws_differ_and_bad_generator():
    g = ms.Generator().manual_seed(3)
    assert not np.array_equal(
        mint.rand(8, generator=g).asnumpy(), mint.rand(8, generator=g).asnumpy()
    )
    with pytest.raises(TypeError, match="generator"):
        mint.rand(2, generator=3)
