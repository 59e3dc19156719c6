"""Stateful code under JAX transforms: grad, jit, vmap, checkpoint, casts, custom gradients.

Each transform turns a stateful callable into ``pure(slot_values, *args) -> (out, new_values)``
by running it inside a frame (see ``cellax/_core/README.md``), hands ``pure`` to the JAX
transform, then commits the new slot values one level up. Every transform builds ``pure``
with ``_trace.functionalize``, which also sets up the user code it traces (conversion for Tensor
control flow, Tensors/arrays at the boundary, the differentiating mode) and stages backward
passes. One family per module: ``_grad`` (grad, value_and_grad, GradOperation), ``_forward``
(jvp, vjp, jacfwd, ...), ``_jit``, ``_map`` (vmap, checkpoint_call, recompute, scan),
``_control`` (call_with_param_dtype, call_if), ``_control_flow*`` (Tensor control flow) and
``_custom_vjp`` (gradient hooks, custom bprop).
"""

from ._control import call_if, call_with_param_dtype
from ._control_flow import autograph_source
from ._control_flow_errors import raise_if
from ._mutable import mutable
from ._functional_call import functional_call, load_state, state
from ._grad import GradOperation, differentiate, grad, value_and_grad
from ._grad_replay import Replay as GradReplay
from ._grad_replay import wanted as grad_replay_wanted
from ._forward import derivative, get_grad, jacfwd, jacrev, jet, jvp, linearize, vjp
from ._jit import UncarriedOutputError, _JitFunction, jit
from ._map import checkpoint_call, recompute, scan, vmap
from ._tape import call_op, kernel_jit, staged
from ._trace import call_converted

__all__ = [
    "grad",
    "value_and_grad",
    "jit",
    "UncarriedOutputError",
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
# differentiate, scan.
_INTERNAL = (call_if, call_with_param_dtype, differentiate, scan, _JitFunction)
_REPLAY = (GradReplay, grad_replay_wanted)  # nn.TrainOneStepCell under pynative_grad_replay
_CONTROL_FLOW = (call_converted,)  # nn.Cell converts construct inside a compiled trace
_CHECKED = (raise_if,)  # ops: errors raised after a compiled run (jit check_indices=True)
_EAGER = (staged, call_op, kernel_jit)  # ops: fused eager ops are one kernel on the gradient tape
