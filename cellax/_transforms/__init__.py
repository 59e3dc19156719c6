"""Stateful code under JAX transforms: grad, jit, vmap, checkpoint, casts, custom gradients.

Each transform turns a stateful callable into ``pure(slot_values, *args) -> (out, new_values)``
by running it inside a frame (see ``cellax/_core/README.md``), hands ``pure`` to the JAX
transform, then commits the new slot values one level up. One family per module:
``_grad`` (grad, value_and_grad, GradOperation), ``_jit``, ``_map`` (vmap, checkpoint_call,
recompute), ``_control`` (call_with_param_dtype, call_if) and ``_custom_vjp`` (gradient hooks,
custom bprop).
"""

from .._core import CastFrame as _CastFrame
from .._core import is_array as _is_array
from .._core import slots_of as _scan_roots
from .._core import to_arrays as _to_arrays
from .._tensor import wrap_tree as _to_tensors
from ._control import call_if, call_with_param_dtype
from ._control_flow import autograph_source, call_converted
from ._control_flow_errors import raise_if
from ._mutable import mutable
from ._functional_call import functional_call, load_state, state
from ._grad import GradOperation, differentiate, grad, value_and_grad
from ._grad_replay import Replay as GradReplay
from ._grad_replay import wanted as grad_replay_wanted
from ._forward import derivative, get_grad, jacfwd, jacrev, jet, jvp, linearize, vjp
from ._jit import _JitFunction, jit
from ._map import checkpoint_call, recompute, scan, vmap

_differentiate = differentiate  # old private name

__all__ = [
    "grad",
    "value_and_grad",
    "jit",
    "vmap",
    "checkpoint_call",
    "recompute",
    "GradOperation",
    "functional_call",
    "state",
    "load_state",
    "mutable",
    "autograph_source",
    "jvp",
    "vjp",
    "jacfwd",
    "jacrev",
    "linearize",
    "derivative",
    "jet",
    "get_grad",
]
# Public-internal names (used by nn/, not star-exported): call_if, call_with_param_dtype,
# differentiate; the private aliases above keep older imports working.
_INTERNAL = (call_if, call_with_param_dtype, differentiate, scan, _JitFunction, _differentiate)
_REPLAY = (GradReplay, grad_replay_wanted)  # nn.TrainOneStepCell under pynative_grad_replay
_CONTROL_FLOW = (call_converted,)  # nn.Cell converts construct inside a compiled trace
_CHECKED = (raise_if,)  # ops: errors raised after a compiled run (jit check_indices=True)
_ALIASES = (_CastFrame, _is_array, _scan_roots, _to_arrays, _to_tensors)
