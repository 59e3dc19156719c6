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
    commit,
    concrete,
    current_frame,
    is_tracer,
    read,
    read_master,
    run_in_frame,
    write,
)
from ._functional import guard_ids, guard_objects, is_array, slots_of, to_arrays
from ._registry import (
    PARAM_HOOKS,
    HookDict,
    HookHandle,
    Registry,
    add_hook,
    bump,
    param_hook_epoch,
    versioned,
)

__all__ = [
    "LOCAL",
    "CastFrame",
    "DiscoveringFrame",
    "Frame",
    "Slot",
    "SlotDiscovered",
    "commit",
    "concrete",
    "current_frame",
    "is_tracer",
    "read",
    "read_master",
    "run_in_frame",
    "write",
    "guard_ids",
    "guard_objects",
    "is_array",
    "slots_of",
    "to_arrays",
    "HookDict",
    "HookHandle",
    "add_hook",
    "PARAM_HOOKS",
    "Registry",
    "bump",
    "param_hook_epoch",
    "versioned",
]
