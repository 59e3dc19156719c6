"""Pipeline wrappers: PipelineCell, PipelineGradReducer, MicroBatchInterleaved (one stage).

GSPMD has no automatic pipelining: cellax runs every stage in one program. The arithmetic of
MindSpore's wrappers is kept: the batch is cut into micro-batches on dimension 0 and their
outputs (losses) are added.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._tensor import Tensor
from ._cell import Cell

__all__ = [
    "PipelineCell",
    "PipelineGradReducer",
    "MicroBatchInterleaved",
    "GradAccumulationCell",
]  # GradAccumulation: parallel.nn


def _check_int(api: str, name: str, value) -> int:
    if not isinstance(value, int):
        raise TypeError(
            f"For '{api}', the argument '{name}' must be integer, but got the type : {type(value)}."
        )
    if value <= 0:
        raise ValueError(
            f"For '{api}', the argument '{name}' must be large than 0, but got {value}."
        )
    return int(value)


def _check_network(api: str, network):
    if not isinstance(network, Cell):
        raise TypeError(
            f"For '{api}', the argument 'network' must cell type, but got the type : "
            f"{type(network)}."
        )
    return network


def _configure(network, config, attr: str, arg: str) -> None:
    """Set ``attr`` on the cells ``config`` names (``{cell name: value}``; the network itself
    by its string form); a name that matches no cell is a KeyError, as in MindSpore."""
    left = dict(config)
    with warnings.catch_warnings():  # PipelineCell warned once that stages run as one
        warnings.simplefilter("ignore")
        for name, cell in network.cells_and_names():
            if name and name in left:
                setattr(cell, attr, left.pop(name))
        if str(network) in left:
            setattr(network, attr, left.pop(str(network)))
    if left:
        raise KeyError(
            f"For 'PipelineCell', the argument '{arg}' : {left} is not found in 'network' : "
            f"{network}"
        )


def _split_sum(api: str, network, inputs, parts: int):
    size = None
    for x in inputs:
        if isinstance(x, Tensor) and x.ndim:
            size = x.shape[0] if size is None else size
            if x.shape[0] % parts:
                raise ValueError(
                    f"For '{api}', the batch dimension {x.shape[0]} of an input can not be cut "
                    f"into {parts} micro-batches."
                )
    if size is None:
        return network(*inputs)
    step = size // parts
    total = None
    for i in range(parts):
        piece = [
            x[i * step : (i + 1) * step] if isinstance(x, Tensor) and x.ndim else x for x in inputs
        ]
        out = network(*piece)
        total = out if total is None else total + out
    return total


class PipelineCell(Cell):
    """Run ``network`` on ``micro_size`` micro-batches and add the outputs (the losses).

    Args:
        network (Cell): The network with its loss.
        micro_size (int): The number of micro-batches (divides the batch).
        stage_config (dict): ``{cell name: stage}``: sets the cells' ``pipeline_stage``
            (stages run as one). Default: ``None``.
        segment_config (dict): ``{cell name: segment}``: sets the cells'
            ``pipeline_segment``. Default: ``None``.

    Inputs:
        The inputs of ``network``; Tensors are cut on dimension 0.

    Outputs:
        The sum of the micro-batch outputs.

    Raises:
        TypeError: If ``network`` is not a Cell or ``micro_size`` not an int.
        ValueError: If ``micro_size`` is not positive, or a batch does not divide into
            ``micro_size`` pieces.
        KeyError: If ``stage_config`` or ``segment_config`` names no cell of ``network``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> cell = nn.PipelineCell(nn.ReLU(), 2)
        >>> print(cell(ms.Tensor([[1.0], [2.0], [-3.0], [4.0]])))
        [[1.]
         [6.]]

    Differences from MindSpore: pipeline stages are not split over devices (one program).
    """

    def __init__(self, network, micro_size, stage_config=None, segment_config=None) -> None:
        super().__init__(auto_prefix=False)
        self.network = _check_network("PipelineCell", network)
        self.micro_size = _check_int("PipelineCell", "micro_size", micro_size)
        if stage_config:
            warnings.warn(
                "For 'PipelineCell', 'stage_config' is ignored: cellax runs all pipeline "
                "stages as one stage.",
                UserWarning,
                stacklevel=2,
            )
            _configure(network, stage_config, "pipeline_stage", "stage_config")
        if segment_config is not None:
            _configure(network, segment_config, "pipeline_segment", "segment_config")
        self.stage_config = stage_config
        self.segment_config = segment_config

    def construct(self, *inputs):
        return _split_sum("PipelineCell", self.network, inputs, self.micro_size)


class GradAccumulation(Cell):
    """Gradient accumulation: run ``network`` on ``micro_size`` micro-batches (dimension 0)
    and add the outputs, so that the gradients of the result are the accumulated ones
    (``mindspore.parallel.nn.GradAccumulation``).

    Args:
        network (Cell): The network with its loss.
        micro_size (int): The number of micro-batches (divides the batch).

    Inputs:
        The inputs of ``network``; Tensors are cut on dimension 0.

    Outputs:
        The sum of the micro-batch outputs.

    Raises:
        TypeError: If ``network`` is not a Cell or ``micro_size`` not an int.
        ValueError: If ``micro_size`` is not positive, or a batch does not divide.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> from cellax.parallel.nn import GradAccumulation
        >>> cell = GradAccumulation(nn.ReLU(), 2)
        >>> print(cell(ms.Tensor([[1.0], [2.0], [-3.0], [4.0]])))
        [[1.]
         [6.]]

    Differences from MindSpore: the micro-batches run in one compiled program, one after the
    other in its data flow (MindSpore schedules them on Ascend only).
    """

    _api = "GradAccumulation"

    def __init__(self, network, micro_size) -> None:
        super().__init__(auto_prefix=False)
        self.network = _check_network(self._api, network)
        self.micro_size = _check_int(self._api, "micro_size", micro_size)

    def construct(self, *inputs):
        return _split_sum(self._api, self.network, inputs, self.micro_size)


class GradAccumulationCell(GradAccumulation):
    """``mindspore.nn.GradAccumulationCell``: :class:`GradAccumulation` under its ``nn`` name.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> cell = nn.GradAccumulationCell(nn.ReLU(), 2)
        >>> print(cell(ms.Tensor([[1.0], [2.0], [-3.0], [4.0]])))
        [[1.]
         [6.]]
    """

    _api = "GradAccumulationCell"


class _MicroBatch(Cell):
    """Micro-batch ``i`` of each input: slice ``i`` of ``micro_size`` equal slices of
    dimension 0 (MindSpore's pipeline helper, ``construct(i, *inputs)``)."""

    def __init__(self, micro_size: int) -> None:
        super().__init__()
        self.micro_size = _check_int("_MicroBatch", "micro_size", micro_size)

    def construct(self, i, *inputs):
        pieces = []
        for x in inputs:
            if x.shape[0] % self.micro_size:
                raise ValueError(
                    f"For '_MicroBatch', the batch dimension {x.shape[0]} of an input can not "
                    f"be cut into {self.micro_size} micro-batches."
                )
            step = x.shape[0] // self.micro_size
            pieces.append(x[i * step : (i + 1) * step])
        return tuple(pieces)


class _VirtualDatasetCell(Cell):
    """Runs ``backbone`` on the inputs. (MindSpore inserts a virtual dataset operator here so
    that its parallel compiler splits the batch; under cellax the data-parallel step places
    its batch itself.)"""

    def __init__(self, backbone) -> None:
        super().__init__(auto_prefix=False)
        self._backbone = backbone

    def construct(self, *inputs):
        return self._backbone(*inputs)


class MicroBatchInterleaved(Cell):
    """Run ``network`` on ``interleave_num`` slices of the batch and add the outputs.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> cell = nn.MicroBatchInterleaved(nn.ReLU(), 2)
        >>> print(cell(ms.Tensor([1.0, 2.0])))
        [3.]
    """

    def __init__(self, network, interleave_num=2) -> None:
        super().__init__(auto_prefix=False)
        self.network = network
        self.interleave_num = _check_int("MicroBatchInterleaved", "interleave_num", interleave_num)

    def construct(self, *inputs):
        return _split_sum("MicroBatchInterleaved", self.network, inputs, self.interleave_num)


class PipelineGradReducer(Cell):
    """The gradient reducer of pipeline training: with one stage the gradients of the summed
    micro-batch loss are already complete, so they pass through unchanged.

    Args:
        parameters (list[Parameter]): The Parameters.
        scale_sense (float): Accepted (loss scaling is done by the caller). Default: ``1.0``.
        opt_shard (bool): Accepted. Default: ``None``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1)
        >>> grads = (ms.ops.ones((1, 2)), ms.ops.ones((1,)))
        >>> print(nn.PipelineGradReducer(net.trainable_params())(grads)[0])
        [[1. 1.]]
    """

    def __init__(self, parameters, scale_sense=1.0, opt_shard=None) -> None:
        super().__init__(auto_prefix=False)
        self.scale_sense = float(np.asarray(scale_sense))
        self.opt_shard = opt_shard
        self._count = len(list(parameters))

    def construct(self, grads):
        return grads
