"""Debugging tools: where do the eager and the compiled run of a step part ways?

``compare_modes`` runs a step op by op (PyNative) and as one XLA program (``jit`` /
GRAPH_MODE) from the same state, records every Cell call on both paths and names the first
Cell whose outputs differ. ``check_numerics`` names the first Cell producing NaN or Inf.
"""

from ._compare import Difference, ModeReport, compare_modes
from ._numerics import check_numerics
from ._observe import CallRecord

__all__ = ["compare_modes", "check_numerics", "ModeReport", "Difference", "CallRecord"]
