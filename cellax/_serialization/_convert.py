"""ckpt_to_safetensors and safetensors_to_ckpt: convert checkpoint files between formats."""

from __future__ import annotations

import os
import re

from .._errors import type_name
from ._common import _fspath
from ._load import _read_entries
from ._save import _write_file

__all__ = ["ckpt_to_safetensors", "safetensors_to_ckpt"]


# -- conversion -------------------------------------------------------------------------------
def _convert_file(src: str, dst: str, name_map, src_format: str, dst_format: str) -> None:
    api = "ckpt_to_safetensors" if dst_format == "safetensors" else "safetensors_to_ckpt"
    entries = _read_entries(src, src_format, None, False, api)
    if not entries:
        raise ValueError(f"For '{api}', the file '{src}' holds no entries.")
    if name_map is not None:
        entries = {name_map.get(k, k): v for k, v in entries.items()}
    _write_file(dst, list(entries.items()), dst_format, False, None)


def _convert(file_path, save_path, name_map, file_name_regex, processes_num, dst_format):
    src_format = "ckpt" if dst_format == "safetensors" else "safetensors"
    api = "ckpt_to_safetensors" if dst_format == "safetensors" else "safetensors_to_ckpt"
    src_suffix, dst_suffix = f".{src_format}", f".{dst_format}"
    file_path = _fspath(api, "file_path", file_path)
    if save_path is not None:
        save_path = _fspath(api, "save_path", save_path)
    if not os.path.isdir(file_path) and not os.path.isfile(file_path):
        raise ValueError(
            f"For '{api}', the input path must be a valid path or file, but got {file_path!r}."
        )
    if save_path and os.path.splitext(save_path)[1]:
        raise ValueError(f"For '{api}', the save_path must be a directory, but got {save_path!r}.")
    if name_map is not None and not isinstance(name_map, dict):
        raise ValueError(
            f"For '{api}', the type of 'name_map' must be dict, but got {type_name(name_map)}."
        )
    if isinstance(processes_num, bool) or not isinstance(processes_num, int) or processes_num < 1:
        raise ValueError(
            f"For '{api}', 'processes_num' must be a positive int, but got {processes_num!r}."
        )
    if os.path.isfile(file_path):
        if not file_path.endswith(src_suffix):
            raise ValueError(
                f"For '{api}', the input file must be a {src_suffix} file, but got {file_path!r}."
            )
        if file_name_regex is not None and not re.findall(file_name_regex, file_path):
            raise ValueError(f"For '{api}', the input file does not match the regular expression.")
        if save_path:
            os.makedirs(save_path, exist_ok=True)
        base = os.path.basename(file_path).replace(src_suffix, dst_suffix)
        directory = save_path or os.path.dirname(file_path)
        _convert_file(file_path, os.path.join(directory, base), name_map, src_format, dst_format)
        return
    rank_dirs = sorted(
        d
        for d in os.listdir(file_path)
        if d.startswith("rank") and os.path.isdir(os.path.join(file_path, d))
    )
    if not rank_dirs:
        raise ValueError(f"For '{api}', no directories starting with 'rank' found in {file_path}.")
    for rank_dir in rank_dirs:
        source_dir = os.path.join(file_path, rank_dir)
        target_dir = os.path.join(save_path, rank_dir) if save_path is not None else source_dir
        os.makedirs(target_dir, exist_ok=True)
        for file in sorted(os.listdir(source_dir)):
            if file.endswith(src_suffix) and (
                file_name_regex is None or re.search(file_name_regex, file)
            ):
                target = os.path.join(target_dir, file.replace(src_suffix, dst_suffix))
                _convert_file(
                    os.path.join(source_dir, file), target, name_map, src_format, dst_format
                )


def ckpt_to_safetensors(
    file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1
) -> None:
    """Convert ``.ckpt`` files to ``.safetensors`` files.

    Args:
        file_path (str): A ``.ckpt`` file, or a folder whose ``rank*`` sub-folders hold them.
        save_path (str): The output folder (the same layout is created in it). Default: ``None``
            (next to each source file).
        name_map (dict): Renames entries, ``{old name: new name}``. Default: ``None``.
        file_name_regex (str): Convert only the files whose names match. Default: ``None``.
        processes_num (int): Accepted for compatibility; cellax converts the files one after
            another, streaming each. Default: ``1``.

    Raises:
        ValueError: If ``file_path`` does not exist or is not a ``.ckpt`` file, ``save_path`` is
            not a folder name, a folder has no ``rank*`` sub-folders, or a file is invalid.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> folder = tempfile.mkdtemp()
        >>> ms.save_checkpoint(ms.nn.Dense(2, 1), os.path.join(folder, "d.ckpt"))
        >>> ms.ckpt_to_safetensors(os.path.join(folder, "d.ckpt"))
        >>> sorted(ms.load_checkpoint(os.path.join(folder, "d.safetensors"), format="safetensors"))
        ['bias', 'weight']

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.ckpt_to_safetensors.html
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "safetensors")


def safetensors_to_ckpt(
    file_path, save_path=None, name_map=None, file_name_regex=None, processes_num=1
) -> None:
    """Convert ``.safetensors`` files to MindSpore ``.ckpt`` files.

    Args:
        file_path (str): A ``.safetensors`` file, or a folder whose ``rank*`` sub-folders hold
            them.
        save_path (str): The output folder. Default: ``None`` (next to each source file).
        name_map (dict): Renames entries, ``{old name: new name}``. Default: ``None``.
        file_name_regex (str): Convert only the files whose names match. Default: ``None``.
        processes_num (int): Accepted for compatibility. Default: ``1``.

    Raises:
        ValueError: As :func:`ckpt_to_safetensors`.

    Examples:
        >>> import os, tempfile
        >>> import cellax as ms
        >>> folder = tempfile.mkdtemp()
        >>> path = os.path.join(folder, "d.safetensors")
        >>> ms.save_checkpoint(ms.nn.Dense(2, 1), path, format="safetensors")
        >>> ms.safetensors_to_ckpt(path, save_path=os.path.join(folder, "out"))
        >>> sorted(ms.load_checkpoint(os.path.join(folder, "out", "d.ckpt")))
        ['bias', 'weight']

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.safetensors_to_ckpt.html
    """
    _convert(file_path, save_path, name_map, file_name_regex, processes_num, "ckpt")
