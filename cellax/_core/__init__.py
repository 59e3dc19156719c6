"""The state frame: slots, frames, the functional protocol and registries (see README.md).

From cellax this package imports only ``_dtype`` and ``_errors``; everything else builds on it.
"""

from ._frame import (
    LOCAL,
    CastFrame,
    DiscoveringFrame,
    Frame,
    Slot,
    SlotDiscovered,
    bump_structure_version,
    commit,
    concrete,
    current_frame,
    is_tracer,
    read,
    read_master,
    run_in_frame,
    structure_version,
    write,
)
from ._functional import guard_ids, guard_objects, is_array, slots_of, to_arrays
from ._registry import HookDict, HookHandle, add_hook

__all__ = [
    "LOCAL",
    "CastFrame",
    "DiscoveringFrame",
    "Frame",
    "Slot",
    "SlotDiscovered",
    "bump_structure_version",
    "commit",
    "concrete",
    "current_frame",
    "is_tracer",
    "read",
    "read_master",
    "run_in_frame",
    "structure_version",
    "write",
    "guard_ids",
    "guard_objects",
    "is_array",
    "slots_of",
    "to_arrays",
    "HookDict",
    "HookHandle",
    "add_hook",
]
