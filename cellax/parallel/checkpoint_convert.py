"""``mindspore.parallel.checkpoint_convert``: the ``convert_*`` names of the checkpoint
transforms (see :mod:`cellax.parallel.checkpoint_transform`)."""

from __future__ import annotations

from .checkpoint_transform import _needs_strategy_files, transform_checkpoints

__all__ = ["convert_checkpoints", "convert_checkpoint_by_rank", "rank_list_for_convert"]


def convert_checkpoints(
    src_checkpoints_dir,
    dst_checkpoints_dir,
    ckpt_prefix,
    src_strategy_file=None,
    dst_strategy_file=None,
    process_num=1,
    output_format="ckpt",
):
    """:func:`~cellax.parallel.transform_checkpoints` under its ``convert_`` name: merge the
    per-rank checkpoints of ``src_checkpoints_dir/rank_*/`` into one full checkpoint.

    Args:
        src_checkpoints_dir (str): The folder holding ``rank_*/`` checkpoint folders.
        dst_checkpoints_dir (str): Where the merged checkpoint is written.
        ckpt_prefix (str): The file name prefix of the merged checkpoint.
        src_strategy_file (str): Must be None (cellax writes no strategy files).
        dst_strategy_file (str): Must be None.
        process_num (int): Accepted for compatibility; merging runs in this process.
        output_format (str): ``"ckpt"`` or ``"safetensors"``.

    Raises:
        ValueError: If no rank folder holds a checkpoint.
        NotImplementedError: If a strategy file is given.

    Examples:
        >>> from cellax.parallel import convert_checkpoints, transform_checkpoints
        >>> convert_checkpoints.__doc__ is not None
        True
    """
    transform_checkpoints(
        src_checkpoints_dir,
        dst_checkpoints_dir,
        ckpt_prefix,
        src_strategy_file,
        dst_strategy_file,
        process_num,
        output_format,
    )


convert_checkpoint_by_rank = _needs_strategy_files("convert_checkpoint_by_rank", __name__)
rank_list_for_convert = _needs_strategy_files("rank_list_for_convert", __name__)
