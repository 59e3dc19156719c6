"""``mindspore.device_context``: per-backend device settings (``cpu``, ``gpu``, ``ascend``).

On cellax, ``cpu`` and ``gpu`` report JAX's CPU and GPU devices, and
``gpu.op_precision.matmul_allow_tf32`` sets JAX's default matmul precision. Ascend has no XLA
counterpart: ``ascend.is_available()`` is ``False`` and its settings check their arguments
as MindSpore does, then give one ``UserWarning`` each and change nothing.

Examples:
    >>> import cellax as ms
    >>> ms.device_context.cpu.is_available(), ms.device_context.ascend.is_available()
    (True, False)
"""

from . import ascend as ascend
from . import cpu as cpu
from . import gpu as gpu
