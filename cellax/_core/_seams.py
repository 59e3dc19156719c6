"""Late-bound hooks: the places where a lower floor runs code that a higher floor provides.

cellax is layered (docs/architecture.md): a module imports only from its own floor or lower
ones. A few lower modules still need behaviour that exists only higher up; each such need is a
*seam*, declared here once with who fills it, who reads it and why. A seam is filled at the
filler's import through :meth:`Seam.fill`, never by assigning into another module;
``tests/test_layers.py`` checks that only the declared fillers fill each seam, that every
declared filler does, and that no module plants a hook in another module's namespace.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Seam:
    """One late-bound hook. A *slot* seam holds one value (the last fill); a *registry* seam
    holds a dict that each fill extends. A reader may ``listen`` to be called with each fill."""

    def __init__(self, name: str, *, filled_by: tuple, read_by: tuple, why: str, registry=False):
        self.name = name
        self.filled_by = filled_by
        self.read_by = read_by
        self.why = why
        self.value: Any = {} if registry else None
        self._listeners: list = []

    def fill(self, value) -> None:
        if isinstance(self.value, dict):
            self.value.update(value)
        else:
            self.value = value
        for listener in self._listeners:
            listener(value)

    def listen(self, callback: Callable) -> None:
        self._listeners.append(callback)

    def __getitem__(self, key):
        return self.value[key]

    def __repr__(self) -> str:
        return f"Seam({self.name}: {', '.join(self.filled_by)} -> {', '.join(self.read_by)})"


UNCONVERTED_REASON = Seam(
    "UNCONVERTED_REASON",
    filled_by=("cellax._transforms._control_flow",),
    read_by=("cellax._tensor",),
    why="bool() of a traced Tensor says why autograph did not convert the user's function "
    "((code) -> reason or None); the conversion rules live in _transforms, above Tensor.",
)
TRACED_INDEX_CHECK = Seam(
    "TRACED_INDEX_CHECK",
    filled_by=("cellax.ops._impl.utils",),
    read_by=("cellax._tensor_index",),
    why="Tensor[Tensor] under jit(check_indices=True) checks its traced indices with the ops' "
    "index checker, which records the error through _transforms (above Tensor).",
)
TENSOR_METHODS = Seam(
    "TENSOR_METHODS",
    filled_by=(
        "cellax.ops._impl.tensor_methods",
        "cellax.ops._impl.tensor_method_forms",
        "cellax.ops._impl.tensor_methods_runtime",
        "cellax.ops._impl.hook",
    ),
    read_by=("cellax._tensor",),
    why="Tensor's MindSpore methods (x.sum(), x.register_hook(...)) are the functional ops, "
    "defined above Tensor; Tensor attaches each name it does not define itself.",
    registry=True,
)
AUTOGRAPH_OPERATORS = Seam(
    "AUTOGRAPH_OPERATORS",
    filled_by=("cellax._transforms._control_flow",),
    read_by=("cellax._autograph._cache",),
    why="Converted user code calls run-time operators (if/while/for on Tensors) that need the "
    "state frame and JAX; the AST conversion sits below them. The value is their module.",
)
DATASET_NODES = Seam(
    "DATASET_NODES",
    filled_by=("cellax.dataset._nodes", "cellax.dataset._batch"),
    read_by=("cellax.dataset._dataset",),
    why="Dataset's chaining methods (map, batch, shuffle, ...) build node classes that derive "
    "from Dataset, so they are defined after it; keyed by class name.",
    registry=True,
)

SEAMS = (UNCONVERTED_REASON, TRACED_INDEX_CHECK, TENSOR_METHODS, AUTOGRAPH_OPERATORS, DATASET_NODES)
