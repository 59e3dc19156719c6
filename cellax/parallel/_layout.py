"""``mindspore.parallel.Layout``: a device matrix with named axes, and tensor maps onto it."""

from __future__ import annotations

import math

_INTERLEAVED = "interleaved_parallel"


class Layout:
    """A device matrix with one name per axis; calling it maps tensor dimensions onto axes
    (``mindspore.parallel.Layout``).

    Args:
        device_matrix (tuple[int]): The device arrangement, e.g. ``(2, 4)``.
        alias_name (tuple[str]): One distinct name per axis (not ``"None"``); an axis named
            ``"interleaved_parallel"`` must be the last one.
        rank_list (list[int]): The ranks, ``prod(device_matrix)`` of them. Default: ``None``
            (``0 .. prod - 1``).

    Inputs (of a call):
        - **tensor_map** (Union[str, tuple[str]]) - Per tensor dimension: an axis name, a tuple
          of names (split over several axes) or ``"None"`` (not split).

    Outputs (of a call):
        A new Layout carrying the tensor map; :meth:`to_dict` describes it.

    Raises:
        TypeError: If ``device_matrix`` or ``alias_name`` is not a tuple.
        ValueError: If the names repeat, include ``"None"``, do not match the matrix, or a
            tensor map names an unknown axis.

    Examples:
        >>> from cellax.parallel import Layout
        >>> layout = Layout((2, 4), ("dp", "mp"))
        >>> layout("dp", "None").to_dict()["tensor_map"]
        (1, -1)
    """

    def __init__(self, device_matrix, alias_name, rank_list=None):
        if not isinstance(device_matrix, tuple):
            raise TypeError(f"device_matrix must be tuple type, but got:{type(device_matrix)}")
        if not isinstance(alias_name, tuple):
            raise TypeError(f"alias_name must be tuple type, but got:{type(alias_name)}")
        if len(device_matrix) != len(alias_name):
            raise ValueError("device_matrix length should be equal to alias_name length")
        for dim in device_matrix:
            if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
                raise ValueError(
                    f"device_matrix elements must be positive ints, got {device_matrix}"
                )
        if any(not isinstance(name, str) for name in alias_name):
            raise TypeError(f"The element of alias_name must be str, but got {alias_name}.")
        if len(set(alias_name)) != len(alias_name):
            raise ValueError(f"Each element of alias_name {alias_name} should be different")
        if "None" in alias_name:
            raise ValueError(
                "The element of alias_name can not set 'None', because 'None' means no sharding."
            )
        if _INTERLEAVED in alias_name[:-1]:
            raise ValueError(
                f"When alias_name {alias_name} contains keyword '{_INTERLEAVED}', it should be "
                "at the last dim of alias_name, which means the virtual sharding."
            )
        size = math.prod(device_matrix)
        if rank_list is None:
            rank_list = list(range(size))
        elif len(rank_list) != size:
            raise ValueError(
                "The length of rank_list should be equal to the product of device_matrix, but "
                f"got {len(rank_list)} and {size}."
            )
        self._device_shape = device_matrix
        self._alias_name = alias_name
        self._rank_list = list(rank_list)
        self._tensor_map = None

    def _axis(self, name):
        if name == "None":
            return -1
        if name not in self._alias_name:
            raise ValueError(f"The axis {name} is not found in {self._alias_name}")
        return len(self._alias_name) - 1 - self._alias_name.index(name)

    def __call__(self, *tensor_map):
        new = Layout(self._device_shape, self._alias_name, self._rank_list)
        mapped = []
        for item in tensor_map:
            if isinstance(item, tuple):
                mapped.append(tuple(self._axis(name) for name in item))
            else:
                mapped.append(self._axis(item))
        new._tensor_map = tuple(mapped)
        return new

    def to_dict(self) -> dict:
        """The layout as a dict (``device_matrix``, ``tensor_map``, ``interleaved_parallel``,
        ``alias_name``, ``rank_list``).

        Raises:
            ValueError: If the layout has no tensor map yet (call it first).
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
