"""``mindspore.parallel.Layout``: a device matrix with named axes, and tensor maps onto it.

Construction, calls and ``to_dict`` follow MindSpore 2.10 (its checks, messages and dicts);
:meth:`Layout.sharding` turns a called Layout into the ``NamedSharding`` that
``cellax.ops._sharding`` applies (docs/distributed.md, "the strategy rule").
"""

from __future__ import annotations

import copy
import math
import warnings

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec

_INTERLEAVED = "interleaved_parallel"


def _check_args(device_matrix, alias_name, rank_list) -> None:
    if not isinstance(device_matrix, tuple):
        raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
    if not isinstance(alias_name, tuple):
        raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
    if len(device_matrix) != len(alias_name):
        raise ValueError("device_matrix length should be equal to alias_name length")
    for dim in device_matrix:
        if not isinstance(dim, int):
            raise TypeError(f"The element of device_matrix must be int type, but got:{type(dim)}")
    for name in alias_name:
        if not isinstance(name, str):
            raise TypeError(f"The element of alias_name must be str type, but got:{type(name)}")
        if name == "None":
            raise ValueError(
                "The element of alias_name can not set 'None', because 'None' means no sharding."
            )
    if len(set(alias_name)) != len(alias_name):
        raise ValueError(f"Each element of alias_name {alias_name} should be different")
    if _INTERLEAVED in alias_name[:-1]:
        raise ValueError(
            f"When alias_name {alias_name} contains keyword '{_INTERLEAVED}', it should be at "
            "the last dim of alias_name, which means the virtual sharding."
        )
    if rank_list is None:
        return
    if not isinstance(rank_list, list):
        raise TypeError(f"The rank_list should be a list, but got {type(rank_list).__name__}.")
    for rank in rank_list:
        if not isinstance(rank, int):
            raise TypeError(
                f"The element of rank_list should be int, but got {type(rank).__name__}."
            )
    if len(rank_list) != math.prod(device_matrix):
        raise ValueError(
            "The length of rank_list should be equal to the product of device_matrix, but got "
            f"{len(rank_list)} and {math.prod(device_matrix)}."
        )


class Layout:
    """A device matrix with one name per axis; calling it maps tensor dimensions onto axes
    (``mindspore.parallel.Layout``).

    Args:
        device_matrix (tuple[int]): The device arrangement, e.g. ``(2, 4)``.
        alias_name (tuple[str]): One distinct name per axis (not ``"None"``); an axis named
            ``"interleaved_parallel"`` must be the last one.
        rank_list (list[int]): The devices, in matrix order, ``prod(device_matrix)`` of them.
            Default: ``None`` (``0 .. prod - 1``).

    Inputs (of a call):
        - **tensor_map** (Union[str, tuple[str]]) - Per tensor dimension: an axis name, a tuple
          of names (split over several axes) or ``"None"`` (not split).

    Outputs (of a call):
        A copy of the Layout carrying the tensor map (the Layout itself keeps it too, as in
        MindSpore); :meth:`to_dict` describes it.

    Raises:
        TypeError: If ``device_matrix``/``alias_name`` is not a tuple, ``rank_list`` not a list,
            or an element has the wrong type.
        ValueError: If the names repeat, include ``"None"``, do not match the matrix, the
            interleaved axis is not last, ``rank_list`` has the wrong length, or a tensor map
            names an unknown axis or one axis twice.

    Examples:
        >>> from cellax.parallel import Layout
        >>> layout = Layout((2, 2, 2), ("dp", "sp", "mp"))
        >>> layout("dp", "mp").to_dict()["tensor_map"]
        (2, 0)
        >>> layout(("dp", "sp"), "None").to_dict()["tensor_map"]
        ((2, 1), -1)

    Differences from MindSpore: an ``"interleaved_parallel"`` axis (micro-interleaving on one
    device) has no JAX counterpart; a Layout using it warns when it shards a tensor and treats
    it as an ordinary device axis.
    """

    def __init__(self, device_matrix, alias_name, rank_list=None) -> None:
        _check_args(device_matrix, alias_name, rank_list)
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._rank_list = list(range(math.prod(device_matrix))) if rank_list is None else rank_list
        self._tensor_map = None
        self._dims = None  # per tensor dimension: the names of the axes that split it

    def _axis(self, name, used: list) -> int:
        if name == "None":
            return -1
        if not isinstance(name, str) or name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        if name in used:
            raise ValueError(f"The axis {name} has been set more than one in {self._alias_name}")
        used.append(name)
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        used: list = []
        mapped = tuple(
            tuple(self._axis(name, used) for name in entry)
            if isinstance(entry, tuple)
            else self._axis(entry, used)
            for entry in tensor_map
        )
        self._tensor_map = mapped
        self._dims = [
            tuple(n for n in (entry if isinstance(entry, tuple) else (entry,)) if n != "None")
            for entry in tensor_map
        ]
        return copy.deepcopy(self)

    def to_dict(self) -> dict:
        """The layout as MindSpore's dict: ``device_matrix``, ``tensor_map``,
        ``interleaved_parallel``, ``alias_name``, ``rank_list``.

        Raises:
            ValueError: If the layout was not called with a tensor map yet.
        """
        if self._tensor_map is None:
            raise ValueError("The tensor_map of layout is None")
        return {
            "device_matrix": self._device_shape,
            "tensor_map": self._tensor_map,
            "interleaved_parallel": _INTERLEAVED in self._alias_name,
            "alias_name": self._alias_name,
            "rank_list": self._rank_list,
        }

    def _repr_dict(self) -> dict:
        info = self.to_dict()
        del info["rank_list"]
        return info

    def sharding(self, api: str, shape) -> NamedSharding:
        """The NamedSharding of a tensor of ``shape`` under this called layout (checked)."""
        if self._dims is None:
            raise ValueError(f"For '{api}', a Layout must be called with a tensor map.")
        if any(d < 1 for d in self._device_shape):
            raise ValueError(
                f"For '{api}', the layout's device_matrix must hold positive ints, but got "
                f"{self._device_shape}."
            )
        if len(self._dims) != len(shape):
            raise ValueError(
                f"For '{api}', the layout maps {len(self._dims)} dimension(s), but the tensor "
                f"has shape {tuple(shape)}."
            )
        sizes = dict(zip(self._alias_name, self._device_shape))
        for dim, (axes, n) in enumerate(zip(self._dims, shape)):
            split = math.prod(sizes[a] for a in axes)
            if n % split:
                raise ValueError(
                    f"For '{api}', dimension {dim} (size {n}) can not be split into {split} "
                    f"slices by the layout axes {axes}."
                )
        count = jax.device_count()
        if len(self._rank_list) != count or sorted(self._rank_list) != list(range(count)):
            raise ValueError(
                f"For '{api}', the layout's rank_list {self._rank_list} (device matrix "
                f"{self._device_shape}) must name each of the job's {count} devices once."
            )
        if _INTERLEAVED in self._alias_name:
            warnings.warn(
                f"For '{api}', the Layout axis '{_INTERLEAVED}' (micro-interleaving on one "
                "device) has no JAX counterpart: it is treated as an ordinary device axis.",
                UserWarning,
                stacklevel=3,
            )
        devices = np.array(jax.devices(), dtype=object)[self._rank_list]
        mesh = jax.sharding.Mesh(
            devices.reshape(self._device_shape),
            self._alias_name,
            axis_types=(jax.sharding.AxisType.Auto,) * len(self._alias_name),
        )
        spec = [None if not axes else axes[0] if len(axes) == 1 else axes for axes in self._dims]
        return NamedSharding(mesh, PartitionSpec(*spec))
