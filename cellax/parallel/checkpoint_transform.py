"""``mindspore.parallel.checkpoint_transform``: merging sliced Parameters and checkpoints.

cellax's per-rank checkpoints (``save_checkpoint(..., integrated_save=False)``) name each
slice with its position (``name@start:stop,...``), so merging or resharding them needs no
strategy file: :func:`transform_checkpoints` merges the rank folders into one full
checkpoint, and ``load_distributed_checkpoint`` loads slices straight into any sharding.
The functions that only read or write MindSpore's strategy files raise NotImplementedError
when called.
"""

from __future__ import annotations

import glob
import os

import numpy as np

from .._errors import unavailable
from .._parameter import Parameter
from .._serialization import load_checkpoint, save_checkpoint
from .._serialization._sharded import merged_tensors
from .._tensor import Tensor

__all__ = [
    "merge_sliced_parameter",
    "load_segmented_checkpoints",
    "transform_checkpoints",
    "transform_checkpoint_by_rank",
    "rank_list_for_transform",
    "build_searched_strategy",
    "restore_group_info_list",
    "merge_pipeline_strategys",
    "set_op_strategy_config",
    "sync_pipeline_shared_parameters",
    "unified_safetensors",
]


def merge_sliced_parameter(sliced_parameters, strategy=None):
    """Merge Parameter slices (in rank order) into one Parameter, on axis 0.

    Args:
        sliced_parameters (list[Parameter]): The slices, all with the same name and the same
            shape apart from axis 0.
        strategy (dict): MindSpore's slice strategies (from a strategy file). Default:
            ``None`` (concatenate on axis 0).

    Returns:
        Parameter, named like the slices, with their ``requires_grad`` and
        ``layerwise_parallel``.

    Raises:
        TypeError: If ``sliced_parameters`` is not a list of Parameters.
        ValueError: If it is empty, or names or shapes (apart from axis 0) differ.
        NotImplementedError: If a non-empty ``strategy`` is given.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax.parallel import merge_sliced_parameter
        >>> parts = [ms.Parameter(ms.Tensor(np.full((1, 2), i, np.float32)), "w") for i in range(2)]
        >>> print(merge_sliced_parameter(parts).asnumpy())
        [[0. 0.]
         [1. 1.]]

    Differences from MindSpore: a strategy dict (MindSpore's strategy-file layouts) is not
    supported; cellax's sliced checkpoints carry their positions instead.
    """
    api = "merge_sliced_parameter"
    if not isinstance(sliced_parameters, list):
        raise TypeError(
            f"For '{api}', the argument 'sliced_parameters' should be list, but got "
            f"{type(sliced_parameters)}."
        )
    if not sliced_parameters:
        raise ValueError(f"For '{api}', the argument 'sliced_parameters' should not be empty.")
    for index, param in enumerate(sliced_parameters):
        if not isinstance(param, Parameter):
            raise TypeError(
                f"For '{api}', the element in 'sliced_parameters' should be 'Parameter', but "
                f"got {type(param)} at index {index}."
            )
    if strategy:
        raise NotImplementedError(
            f"For '{api}', slice strategies from MindSpore strategy files are not supported "
            "by cellax; merge on axis 0 (strategy=None), or load cellax's per-rank "
            "checkpoints with load_distributed_checkpoint."
        )
    first = sliced_parameters[0]
    expected = (first.name, len(first.shape), tuple(first.shape[1:]))
    for index, param in enumerate(sliced_parameters[1:], 1):
        got = (param.name, len(param.shape), tuple(param.shape[1:]))
        if got != expected:
            raise ValueError(
                f"For '{api}', please make sure that the elements in 'slice_parameters' have "
                "the same name, dimension length and shape except 0 axis. The name, dimension "
                "length, shape except 0 axis should be {}, {}, {}, but got name: {}, dimension "
                "length: {}, shape except 0 axis: {} at index {}.".format(*expected, *got, index)
            )
    data = np.concatenate([p.asnumpy() for p in sliced_parameters], axis=0)
    return Parameter(
        Tensor(data),
        name=first.name,
        requires_grad=first.requires_grad,
        layerwise_parallel=first.layerwise_parallel,
    )


def load_segmented_checkpoints(
    ckpt_file_dir,
    net=None,
    strict_load=False,
    filter_prefix=None,
    dec_key=None,
    dec_mode="AES-GCM",
    specify_prefix=None,
    choice_func=None,
):
    """Load every checkpoint file of a folder into one dict (and into ``net`` if given).

    Args:
        ckpt_file_dir (str): The folder of ``.ckpt`` files.
        net (Cell): Load the Parameters into it. Default: ``None``.
        strict_load, filter_prefix, dec_key, dec_mode, specify_prefix, choice_func: As for
            ``load_checkpoint`` / ``load_param_into_net``.

    Returns:
        dict, ``{name: Parameter}`` from all files.

    Raises:
        ValueError: If ``ckpt_file_dir`` is not a folder or holds no ``.ckpt`` file.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> from cellax import nn
        >>> from cellax.parallel import load_segmented_checkpoints
        >>> folder = tempfile.mkdtemp()
        >>> ms.save_checkpoint(nn.Dense(2, 1), os.path.join(folder, "part.ckpt"))
        >>> sorted(load_segmented_checkpoints(folder))
        ['bias', 'weight']
    """
    api = "load_segmented_checkpoints"
    if not isinstance(ckpt_file_dir, str) or not os.path.isdir(ckpt_file_dir):
        raise ValueError(
            f"For '{api}', 'ckpt_file_dir' must be a folder, but got {ckpt_file_dir!r}."
        )
    files = sorted(glob.glob(os.path.join(ckpt_file_dir, "*.ckpt")))
    if not files:
        raise ValueError(f"For '{api}', the folder {ckpt_file_dir!r} holds no .ckpt file.")
    merged: dict = {}
    for path in files:
        merged.update(
            load_checkpoint(
                path,
                filter_prefix=filter_prefix,
                dec_key=dec_key,
                dec_mode=dec_mode,
                specify_prefix=specify_prefix,
                choice_func=choice_func,
            )
        )
    if net is not None:
        from .._serialization import load_param_into_net

        load_param_into_net(net, merged, strict_load=strict_load)
    return merged


def _rank_files(src_dir: str, fmt: str) -> list:
    ext = ".safetensors" if fmt == "safetensors" else ".ckpt"
    folders = sorted(glob.glob(os.path.join(src_dir, "rank_*")))
    files = []
    for folder in folders:
        found = sorted(glob.glob(os.path.join(folder, "*" + ext)))
        files += found[-1:]  # as MindSpore: the last file of a rank folder by name
    return files


def transform_checkpoints(
    src_checkpoints_dir,
    dst_checkpoints_dir,
    ckpt_prefix,
    src_strategy_file=None,
    dst_strategy_file=None,
    process_num=1,
    output_format="ckpt",
):
    """Merge the per-rank checkpoints of ``src_checkpoints_dir/rank_*/`` into one full
    checkpoint ``dst_checkpoints_dir/rank_0/<ckpt_prefix>0.<ckpt|safetensors>``.

    Args:
        src_checkpoints_dir (str): The folder with one ``rank_<id>`` folder per rank, each
            holding that rank's checkpoint (cellax slice files or full files; of several
            files, the last by name).
        dst_checkpoints_dir (str): Where to write.
        ckpt_prefix (str): The name prefix of the written file.
        src_strategy_file (str): Not needed (slices carry their positions). Default: ``None``.
        dst_strategy_file (str): Must be ``None``: the result is one full checkpoint (load it
            into any sharding). Default: ``None``.
        process_num (int): Accepted. Default: ``1``.
        output_format (str): ``"ckpt"`` or ``"safetensors"``. Default: ``"ckpt"``.

    Raises:
        ValueError: If there are no rank folders with a checkpoint, or the slices do not
            cover a tensor.
        NotImplementedError: If a strategy file is given.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> from cellax import nn
        >>> from cellax.parallel import transform_checkpoints
        >>> src, dst = tempfile.mkdtemp(), tempfile.mkdtemp()
        >>> os.makedirs(os.path.join(src, "rank_0"))
        >>> ms.save_checkpoint(nn.Dense(2, 1), os.path.join(src, "rank_0", "net.ckpt"),
        ...                    integrated_save=False)
        >>> transform_checkpoints(src, dst, "merged")
        >>> sorted(ms.load_checkpoint(os.path.join(dst, "rank_0", "merged0.ckpt")))
        ['bias', 'weight']

    Differences from MindSpore: no strategy files; the result is always one full checkpoint.
    """
    api = "transform_checkpoints"
    if src_strategy_file is not None or dst_strategy_file is not None:
        raise NotImplementedError(
            f"For '{api}', MindSpore strategy files are not read by cellax: its per-rank "
            "checkpoints carry their slice positions. Pass no strategy files to merge them "
            "into one full checkpoint, or load them with load_distributed_checkpoint."
        )
    if output_format not in ("ckpt", "safetensors"):
        raise ValueError(
            f"For '{api}', 'output_format' must be 'ckpt' or 'safetensors', but got "
            f"{output_format!r}."
        )
    files = []
    for fmt in ("ckpt", "safetensors"):
        found = _rank_files(src_checkpoints_dir, fmt)
        if found:
            files, src_format = found, fmt
            break
    if not files:
        raise ValueError(
            f"For '{api}', no rank_<id> folder with a checkpoint was found in "
            f"{src_checkpoints_dir!r}."
        )
    tensors = merged_tensors(files, src_format)
    folder = os.path.join(dst_checkpoints_dir, "rank_0")
    os.makedirs(folder, exist_ok=True)
    ext = "safetensors" if output_format == "safetensors" else "ckpt"
    save_checkpoint(
        [{"name": name, "data": Tensor(value)} for name, value in tensors.items()],
        os.path.join(folder, f"{ckpt_prefix}0.{ext}"),
        format=output_format,
    )


def _needs_strategy_files(api: str, module: str = __name__):
    return unavailable(
        api,
        f"For '{api}', MindSpore strategy files are not used by cellax (XLA places the "
        "tensors; per-rank checkpoints carry their slice positions). Use "
        "transform_checkpoints without strategy files, or load_distributed_checkpoint.",
        f"MindSpore's ``{api}`` (strategy files); raises NotImplementedError in cellax.\n\n"
        "    Raises:\n        NotImplementedError: Always (cellax writes no strategy files).\n",
        module,
    )


transform_checkpoint_by_rank = _needs_strategy_files("transform_checkpoint_by_rank")
rank_list_for_transform = _needs_strategy_files("rank_list_for_transform")
build_searched_strategy = _needs_strategy_files("build_searched_strategy")
restore_group_info_list = _needs_strategy_files("restore_group_info_list")
merge_pipeline_strategys = _needs_strategy_files("merge_pipeline_strategys")
set_op_strategy_config = _needs_strategy_files("set_op_strategy_config")
unified_safetensors = _needs_strategy_files("unified_safetensors")


def sync_pipeline_shared_parameters(net) -> None:
    """Synchronise Parameters shared between pipeline stages: with one stage (cellax) they
    are one object already, so nothing is done.

    Args:
        net (Cell): The network.

    Raises:
        TypeError: If ``net`` is not a Cell.

    Examples:
        >>> from cellax import nn
        >>> from cellax.parallel import sync_pipeline_shared_parameters
        >>> sync_pipeline_shared_parameters(nn.Dense(2, 1))
    """
    from ..nn import Cell

    if not isinstance(net, Cell):
        raise TypeError(
            f"For 'sync_pipeline_shared_parameters', 'net' must be a Cell, but got {type(net)}."
        )
