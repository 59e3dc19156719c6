"""Embedding: a lookup table of vectors indexed by integer ids."""

from __future__ import annotations

import jax
import jax.numpy as jnp

from .. import _dtype
from .._errors import check_bool, check_positive_int
from .._initializer import initializer
from .._parameter import Parameter
from ..ops._impl import resample
from ..ops._impl.utils import arr, wrap
from ._cell import Cell

__all__ = ["Embedding"]


class Embedding(Cell):
    r"""A table of ``vocab_size`` vectors of size ``embedding_size``, looked up by integer ids.

    Args:
        vocab_size (int): The number of rows.
        embedding_size (int): The vector size.
        use_one_hot (bool): Look up by a one-hot matmul (same result). Default: ``False``.
        embedding_table (Union[Tensor, str, Initializer, numbers.Number]): Initializer of the
            table. Default: ``'normal'``.
        dtype (cellax.dtype): Default: ``cellax.float32``.
        padding_idx (int): This row of the table starts at zero. As in MindSpore, it is
            trained like any other row afterwards (MindSpore's ``nn.Embedding`` is a plain
            gather; only ``ops.embedding`` keeps the row out of the gradient).
            Default: ``None``.

    Inputs:
        - **ids** (Tensor) - Integer ids of any shape, in ``[0, vocab_size)``.

    Outputs:
        Tensor of shape ``ids.shape + (embedding_size,)``.

    Raises:
        TypeError: If ``ids`` is not an integer Tensor.
        ValueError: If ``padding_idx`` is out of range.

    Examples:
        >>> import cellax as ms
        >>> net = ms.nn.Embedding(20000, 768, True)
        >>> net(ms.ops.ones((8, 128), ms.int32)).shape
        (8, 128, 768)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.Embedding.html
    """

    def __init__(
        self,
        vocab_size,
        embedding_size,
        use_one_hot=False,
        embedding_table="normal",
        dtype=_dtype.float32,
        padding_idx=None,
    ) -> None:
        super().__init__()
        self.vocab_size = check_positive_int("Embedding", "vocab_size", vocab_size)
        self.embedding_size = check_positive_int("Embedding", "embedding_size", embedding_size)
        self.use_one_hot = check_bool("Embedding", "use_one_hot", use_one_hot)
        self.dtype = dtype
        if padding_idx is not None and (
            isinstance(padding_idx, bool)
            or not isinstance(padding_idx, int)
            or not -vocab_size <= padding_idx < vocab_size
        ):
            raise ValueError(
                f"For 'Embedding', 'padding_idx' must be an int in [{-vocab_size}, {vocab_size}), "
                f"but got {padding_idx!r}."
            )
        self.padding_idx = padding_idx
        table = initializer(embedding_table, (vocab_size, embedding_size), dtype)
        if padding_idx is not None:
            table = wrap(table._value.at[padding_idx].set(0))
        self.embedding_table = Parameter(table, name="embedding_table")

    def construct(self, ids):
        value = arr(ids, tensor=True)
        if not _dtype.is_integer(jnp.asarray(value).dtype):
            raise TypeError(
                f"For 'Embedding', 'ids' must be an integer Tensor, but got dtype "
                f"{jnp.asarray(value).dtype}."
            )
        if self.use_one_hot:
            table = self.embedding_table._value
            one_hot = jax.nn.one_hot(value, self.vocab_size, dtype=table.dtype)
            return wrap(one_hot @ table)
        return resample.embedding(ids, self.embedding_table)

    def extend_repr(self) -> str:
        return (
            f"vocab_size={self.vocab_size}, embedding_size={self.embedding_size}, "
            f"use_one_hot={self.use_one_hot}, embedding_table={self.embedding_table!r}, "
            f"dtype={self.dtype}, padding_idx={self.padding_idx}"
        )
