"""Compatibility shim: the functional layers now live in ``_conv``, ``_pool``, ``_norm`` and
``_resample``."""

from ._conv import *  # noqa: F401,F403
from ._conv import explicit_pads, ntuple  # noqa: F401
from ._norm import *  # noqa: F401,F403
from ._norm import normalize  # noqa: F401
from ._pool import *  # noqa: F401,F403
from ._pool import avg_pool, max_pool  # noqa: F401
from ._resample import *  # noqa: F401,F403
