"""Cell methods that query or rename what a Cell holds (a mixin of nn.Cell).

parameters_dict, named_buffers, get_sub_cell, get_buffer, param_prefix, update_*_name,
check_names, init_parameters_data. Every walk goes through ``cells_and_names`` /
``parameters_and_names`` of nn.Cell.
"""

from __future__ import annotations

from collections import OrderedDict

from ..._errors import check_bool, check_type

__all__ = ["CellAccessMixin"]


class CellAccessMixin:
    """Query and naming methods of nn.Cell."""

    def parameters_dict(self, recurse: bool = True) -> OrderedDict:
        """OrderedDict ``{param.name: Parameter}``.

        When two Parameters have the same name (children of an ``auto_prefix=False`` cell), the
        later one replaces the earlier, as in MindSpore.
        """
        result: OrderedDict = OrderedDict()
        for param in self.get_parameters(expand=recurse):
            result[param.name] = param
        return result

    def parameters_broadcast_dict(self, recurse: bool = True) -> OrderedDict:
        """Like :meth:`parameters_dict`, restricted to Parameters that are broadcast (all)."""
        return OrderedDict(
            (p.name, p) for p in self.get_parameters(expand=recurse) if not p.layerwise_parallel
        )

    def named_buffers(self, prefix: str = "", recurse: bool = True, remove_duplicate=True):
        """Yield ``(path, buffer)`` pairs."""
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        seen: set = set()
        for cell_prefix, cell in cells:
            for name, buffer in cell._buffers.items():
                if buffer is None or (remove_duplicate and id(buffer) in seen):
                    continue
                seen.add(id(buffer))
                yield (f"{cell_prefix}.{name}" if cell_prefix else name), buffer

    def buffers(self, recurse: bool = True):
        """Yield the buffers."""
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def get_sub_cell(self, target: str):
        """The descendant at the dotted path ``target`` ('' is this Cell).

        Raises:
            AttributeError: If a path component is missing or not a Cell.

        Examples:
            >>> from cellax import nn
            >>> net = nn.SequentialCell(nn.SequentialCell(nn.Dense(5, 3)))
            >>> print(net.get_sub_cell("0.0"))
            Dense(input_channels=5, output_channels=3, has_bias=True)
        """
        check_type("get_sub_cell", "target", target, str)
        cell = self
        if not target:
            return cell
        for part in target.split("."):
            if not hasattr(cell, part):
                raise AttributeError(
                    f"For 'get_sub_cell', {type(cell).__name__} has no attribute `{part}` "
                    f"(target '{target}')."
                )
            cell = getattr(cell, part)
            if not isinstance(cell, CellAccessMixin):
                raise AttributeError(
                    f"For 'get_sub_cell', `{part}` is not an nn.Cell (target '{target}')."
                )
        return cell

    def get_buffer(self, target: str):
        """The buffer at the dotted path ``target``.

        Raises:
            AttributeError: If the path or the buffer does not exist.
        """
        check_type("get_buffer", "target", target, str)
        cell_path, _, name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if not hasattr(cell, name):
            raise AttributeError(
                f"For 'get_buffer', {type(cell).__name__} has no attribute `{name}` "
                f"(target '{target}')."
            )
        if name not in cell._buffers:
            raise AttributeError(f"For 'get_buffer', `{name}` is not a buffer (target '{target}').")
        return cell._buffers[name]

    # -- names --------------------------------------------------------------------------------
    @property
    def param_prefix(self) -> str:
        """The name prefix of this Cell (set by :meth:`update_cell_prefix`)."""
        return self._param_prefix

    def update_cell_prefix(self) -> None:
        """Set the ``param_prefix`` of this Cell and every descendant to its attribute path.

        Examples:
            >>> from cellax import nn
            >>> net = nn.SequentialCell(nn.Dense(2, 2))
            >>> net.update_cell_prefix()
            >>> net[0].param_prefix
            '0'
        """
        for name, cell in self.cells_and_names():
            object.__setattr__(cell, "_param_prefix", name)

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Rename every Parameter to ``prefix`` + its attribute path in this Cell.

        Examples:
            >>> from cellax import nn
            >>> net = nn.Dense(2, 2)
            >>> net.update_parameters_name("pre.")
            >>> [p.name for p in net.get_parameters()]
            ['pre.weight', 'pre.bias']
        """
        check_type("update_parameters_name", "prefix", prefix, str)
        for path, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + path
        cells = self.cells_and_names() if recurse else [("", self)]
        for path, cell in cells:
            object.__setattr__(cell, "_name_prefix", f"{prefix}{path}." if path else prefix)

    def check_names(self) -> None:
        """Check that no two Parameters share a name.

        Raises:
            ValueError: If two different Parameters have the same name.
        """
        names: dict = {}
        for path, param in self.parameters_and_names():
            if param.name in names:
                raise ValueError(
                    f"For 'check_names', the Parameter at '{path}' has the name '{param.name}' "
                    f"that the Parameter at '{names[param.name]}' already has. Give the "
                    f"Parameters unique names (or use auto_prefix=True)."
                )
            names[param.name] = path

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> dict:
        """Initialize the Parameters; returns ``{param: param}`` (cellax initializes eagerly).

        Examples:
            >>> from cellax import nn
            >>> mapping = nn.Dense(2, 2).init_parameters_data()
            >>> all(k is v for k, v in mapping.items()), len(mapping)
            (True, 2)
        """
        check_bool("init_parameters_data", "auto_parallel_mode", auto_parallel_mode)
        return {param: param.init_data() for param in self.get_parameters()}
