import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops
from cellax._tensor import wrap


def test_embedding_lookup_one_hot_and_repr():
    net = nn.Embedding(5, 3, padding_idx=0)
    assert [p.name for p in net.get_parameters()] == ["embedding_table"]
    np.testing.assert_array_equal(net.embedding_table.asnumpy()[0], 0)
    ids = ms.Tensor([[1, 4], [0, 2]], ms.int32)
    table = net.embedding_table.asnumpy()
    np.testing.assert_allclose(net(ids).asnumpy(), table[[[1, 4], [0, 2]]])
    one_hot = nn.Embedding(5, 3, use_one_hot=True, embedding_table=ms.Tensor(table))
    np.testing.assert_allclose(one_hot(ids).asnumpy(), table[[[1, 4], [0, 2]]], rtol=1e-6)
    assert repr(nn.Embedding(10, 3)) == (
        "Embedding(vocab_size=10, embedding_size=3, use_one_hot=False, embedding_table=Parameter "
        "(name=embedding_table, shape=(10, 3), dtype=Float32, requires_grad=True), "
        "dtype=Float32, padding_idx=None)"
    )


def test_embedding_padding_idx_row_is_trained_as_in_mindspore():
    net = nn.Embedding(4, 2, padding_idx=1)
    ids = ms.Tensor([1, 2, 2], ms.int32)
    (grad,) = ms.grad(
        lambda i: wrap(jnp.sum(net(i)._value)), grad_position=None, weights=net.trainable_params()
    )(ids)
    # MindSpore's nn.Embedding zeroes the row at init only; its gradient flows (issue 23).
    np.testing.assert_array_equal(grad.asnumpy(), [[0, 0], [1, 1], [2, 2], [0, 0]])


def test_dropout_train_and_eval():
    net = nn.Dropout(p=0.25)
    x = ops.ones((200, 50))
    np.testing.assert_array_equal(net(x).asnumpy(), 1)
    net.set_train()
    out = net(x).asnumpy()
    assert set(np.unique(out)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((out == 0).mean() - 0.25) < 0.02
    assert repr(net) == "Dropout(p=0.25)" and repr(nn.Dropout()) == "Dropout(keep_prob=0.5)"
    ms.set_seed(3)
    a = net(x).asnumpy()
    ms.set_seed(3)
    b = ms.jit(lambda v: net(v))(x).asnumpy()
    assert not np.array_equal(a, net(x).asnumpy())
    assert b.shape == a.shape and abs((b == 0).mean() - 0.25) < 0.02


@pytest.mark.parametrize(
    "cls,shape",
    [(nn.Dropout1d, (4, 30, 5)), (nn.Dropout2d, (4, 30, 2, 3)), (nn.Dropout3d, (2, 30, 2, 2, 2))],
)
def test_channel_dropout_zeroes_whole_channels(cls, shape):
    net = cls(p=0.5)
    net.set_train()
    out = net(ops.ones(shape)).asnumpy().reshape(shape[0], shape[1], -1)
    per_channel = out.min(-1) == out.max(-1)
    assert per_channel.all() and 0 < (out[..., 0] == 0).mean() < 1


def test_dropout_errors():
    with pytest.raises(
        ValueError,
        match=r"For 'Dropout', 'keep_prob' must be in \(0, 1\], but "
        r"got 0",
    ):
        nn.Dropout(keep_prob=0)
    with pytest.raises(ValueError, match=r"For 'Dropout', 'keep_prob' must be in \(0, 1\]"):
        nn.Dropout(keep_prob=1.5)
    with pytest.raises(ValueError, match=r"For 'Dropout2d', the drop probability 'p' must be in"):
        nn.Dropout2d(p=1.0)
    with pytest.raises(TypeError, match="For 'Embedding', 'ids' must be an integer Tensor"):
        nn.Embedding(4, 2)(ms.Tensor([1.0]))
    with pytest.raises(ValueError, match="For 'Embedding', 'padding_idx' must be an int in"):
        nn.Embedding(4, 2, padding_idx=4)
