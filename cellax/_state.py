"""Compatibility shim: the state frame now lives in :mod:`cellax._core`."""

from ._core._frame import *  # noqa: F401,F403
from ._core._frame import LOCAL as _local  # noqa: F401
