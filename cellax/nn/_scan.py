"""The scan form of a stack of identical blocks (``nn.ScanCell``) and ``lazy_inline``.

A deep network of identically-structured blocks written as a Python loop is traced and compiled
once per block: compile time grows with depth. :class:`ScanCell` runs the blocks as one
``jax.lax.scan`` instead, tracing one block. It stores the blocks' Parameters pre-stacked (one
``[depth, ...]`` slot per Parameter position; each block Parameter becomes a row view of it,
``cellax/_stacked.py``), so the compiled program scans over its inputs as hand-written
``lax.scan`` does. Buffers (and Parameters shared between blocks, which can not be rows of one stack) stay
per block and are stacked inside the traced function; written ones are unstacked back.
"""

from __future__ import annotations

import functools as ft


from .. import _core, _transforms
from ._cell import Cell
from ._container import CellList
from .._stacked import is_row, stack_rows

__all__ = ["ScanCell", "lazy_inline"]


def _block_slots(block: Cell) -> list:
    slots = list(block.get_parameters())
    slots.extend(b for b in block.buffers() if isinstance(b, _core.Slot))
    return slots


def _signature(block: Cell) -> list:
    return [(tuple(s._data.shape), str(s._data.dtype)) for s in _block_slots(block)]


def _has_hooks(cell: Cell) -> bool:
    return any(
        c._forward_pre_hooks or c._forward_hooks or c._backward_hooks or c._backward_pre_hooks
        for _, c in cell.cells_and_names()
    )


class ScanCell(Cell):
    """Run identically-structured blocks one after the other as a single ``lax.scan``.

    ``ScanCell(blocks)(x, *args)`` computes ``x = block(x, *args)`` for every block in order,
    like a Python loop over a CellList, but traces and compiles one block, so compile time
    stays flat as depth grows. The blocks' Parameters are stored stacked, one ``[depth, ...]``
    array per Parameter position, and each block Parameter (the same object as before) reads and
    writes its row: names (``blocks.0.weight``...), ``parameters_and_names()``,
    ``trainable_params()``, ``state_dict``, checkpoints, hooks and optimizers see one Parameter
    per block as in a CellList, while the compiled program takes one input per stack.
    ``recompute()`` on the ScanCell (or on the blocks) recomputes
    each block's activations in the backward pass; ``recompute(policy=...)`` takes a
    ``jax.checkpoint_policies`` policy (e.g. ``jax.checkpoint_policies.dots_saveable``).

    Args:
        blocks (Union[CellList, list[Cell]]): Blocks of one class whose Parameters and buffers
            have the same names, shapes and dtypes.
        auto_prefix (bool): As for :class:`Cell`. Default: ``True``.

    Inputs:
        - **x** (Union[Tensor, tuple[Tensor]]) - The carried value; every block returns a value
          of the same structure, shapes and dtypes.
        - **args** - Further inputs passed unchanged to every block.

    Outputs:
        The value returned by the last block.

    Raises:
        TypeError: If ``blocks`` is empty, holds non-Cells or Cells of different classes.
        ValueError: If the blocks' Parameters differ in structure, shape or dtype.
        NotImplementedError: If a block writes state other than its own Parameters/buffers
            (e.g. draws random numbers), or a block other than the first has hooks.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn
        >>> blocks = nn.CellList([nn.Dense(4, 4, weight_init="ones") for _ in range(3)])
        >>> net = nn.ScanCell(blocks)
        >>> x = ms.Tensor(np.ones((1, 4), np.float32))
        >>> print(net(x).shape)
        (1, 4)
        >>> grads = ms.grad(net, None, net.trainable_params())(x)
        >>> print(len(grads), grads[0].shape)
        6 (4, 4)
    """

    def __init__(self, blocks, auto_prefix: bool = True) -> None:
        super().__init__(auto_prefix)
        items = list(blocks) if isinstance(blocks, (CellList, list, tuple)) else None
        if not items:
            raise TypeError(
                f"For 'ScanCell', 'blocks' must be a non-empty CellList or list of Cells, but got "
                f"{blocks!r}."
            )
        for i, block in enumerate(items):
            if not isinstance(block, Cell):
                raise TypeError(
                    f"For 'ScanCell', every block must be a Cell, but block {i} is "
                    f"{type(block).__name__}."
                )
            if type(block) is not type(items[0]):
                raise TypeError(
                    f"For 'ScanCell', every block must be of one class, but block 0 is "
                    f"'{type(items[0]).__name__}' and block {i} is '{type(block).__name__}'."
                )
        reference = _signature(items[0])
        for i, block in enumerate(items[1:], 1):
            if _signature(block) != reference:
                raise ValueError(
                    f"For 'ScanCell', every block must have Parameters and buffers of the same "
                    f"shapes and dtypes, but block 0 has {reference} and block {i} has "
                    f"{_signature(block)}."
                )
        self.blocks = blocks if isinstance(blocks, CellList) else CellList(items)
        columns = [list(column) for column in zip(*(list(b.get_parameters()) for b in items))]
        flat = [id(p) for column in columns for p in column]
        if len(set(flat)) == len(flat) and not any(is_row(p) for c in columns for p in c):
            # pre-stacked storage: one [depth, ...] slot per Parameter position
            stacks = stack_rows(columns)
        else:  # a Parameter shared between blocks: each block keeps its own, stacked per call
            stacks = None
        object.__setattr__(self, "_stacks", stacks)

    def _construct_call(self, *args, **kwargs):
        # recompute() applies per block inside the scan, not around the whole scan
        return self._construct_plain(*args, **kwargs)

    def construct(self, x, *args, **kwargs):
        blocks = list(self.blocks)
        template = blocks[0]
        for i, block in enumerate(blocks[1:], 1):
            if _has_hooks(block):
                raise NotImplementedError(
                    f"For 'ScanCell', only the first block's hooks run (it is the one traced), "
                    f"but block {i} has hooks: register them on block 0."
                )
        stacks = self._stacks
        if stacks is None:
            columns = [list(c) for c in zip(*(_block_slots(block) for block in blocks))]
        else:
            buffers = [
                [b for b in block.buffers() if isinstance(b, _core.Slot)] for block in blocks
            ]
            columns = list(stacks) + [list(c) for c in zip(*buffers)]
        return _transforms.scan(
            lambda carry: template._run(carry, *args, **kwargs),
            columns,
            x,
            len(blocks),
            policy=self._recompute_policy,
            api="ScanCell",
            name=type(template).__name__,
        )


def lazy_inline(fn=None, attrs=None, policy=None):
    """Mark a Cell class as a reusable block (``mindspore.lazy_inline``), for ``__init__``.

    MindSpore compiles a ``@lazy_inline`` block once and calls it for every instance. The
    cellax form of that reuse is :class:`ScanCell`: a stack of such blocks is traced once and run
    as one ``lax.scan``. The decorator records the ``__init__`` arguments in
    ``cell_init_args`` (as MindSpore does) and sets ``cell.lazy_inline = True``; a
    :class:`ScanCell` accepts any blocks, marked or not.

    Args:
        fn (function): The ``__init__`` of a Cell subclass.
        attrs (Union[list[str], str]): Accepted for compatibility. Default: ``None``.
        policy (Callable): Accepted for compatibility. Default: ``None``.

    Returns:
        The wrapped ``__init__`` (or a decorator when called with arguments only).

    Raises:
        TypeError: If the decorated function is not callable.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> class Block(nn.Cell):
        ...     @ms.lazy_inline
        ...     def __init__(self, width):
        ...         super().__init__()
        ...         self.dense = nn.Dense(width, width)
        ...     def construct(self, x):
        ...         return self.dense(x)
        >>> net = nn.ScanCell([Block(4) for _ in range(3)])
        >>> print(net.blocks[0].lazy_inline, net.blocks[0].cell_init_args)
        True (4,)
    """
    if fn is None:
        return ft.partial(lazy_inline, attrs=attrs, policy=policy)
    if not callable(fn):
        raise TypeError(f"For 'lazy_inline', the decorated object must be __init__, got {fn!r}.")

    @ft.wraps(fn)
    def init(self, *args, **kwargs):
        fn(self, *args, **kwargs)
        object.__setattr__(self, "cell_init_args", args + tuple(kwargs.items()))
        object.__setattr__(self, "lazy_inline", True)

    return init
