"""Source conversion of user functions for Tensor control flow (pure AST work, no frames).

``convert(fn)`` returns a function whose ``if``/``while``/``for``, ternaries, ``and``/``or``/
``not``, ``in`` and calls go through the run-time operators of
``cellax._transforms._control_flow`` (the AUTOGRAPH_OPERATORS seam of ``_core/_seams.py``), or None
with the reason when ``fn`` is not converted. Conversion is cached per code object.
"""

from ._cache import (
    autograph_source,
    convert,
    is_converted,
    reason_for_code,
    reason_not_converted,
)

__all__ = [
    "convert",
    "is_converted",
    "reason_not_converted",
    "reason_for_code",
    "autograph_source",
]
