"""``mindspore.utils``: fault-tolerance and hardware-check utilities of MindSpore's Ascend
clusters (``stress_detect``, ``sdc_detect``, the MindX ``_tft_handler``) and DLPack
conversion. The Ascend checks have no JAX counterpart and raise when called; the
fault-tolerance handler is present and disabled.

Examples:
    >>> from cellax.utils import _tft_handler
    >>> _tft_handler.get_tft() is None
    True
"""

from __future__ import annotations

from .._errors import unavailable

__all__ = ["stress_detect", "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result"]

_ASCEND = (
    "it runs a hardware check of Ascend AI cores, which cellax does not run on; "
    "JAX/XLA devices report their own errors"
)

stress_detect = unavailable(
    "stress_detect",
    f"For 'stress_detect', {_ASCEND}.",
    "Run an Ascend AI-core stress test (MindSpore); not available on JAX.",
    __name__,
)
sdc_detect_start = unavailable(
    "sdc_detect_start",
    f"For 'sdc_detect_start', {_ASCEND}.",
    "Start Ascend silent-data-corruption detection (MindSpore); not available on JAX.",
    __name__,
)
sdc_detect_stop = unavailable(
    "sdc_detect_stop",
    f"For 'sdc_detect_stop', {_ASCEND}.",
    "Stop Ascend silent-data-corruption detection (MindSpore); not available on JAX.",
    __name__,
)
get_sdc_detect_result = unavailable(
    "get_sdc_detect_result",
    f"For 'get_sdc_detect_result', {_ASCEND}.",
    "The Ascend silent-data-corruption detection result (MindSpore); not available on JAX.",
    __name__,
)


class _TftHandle:
    """MindX's training fault tolerance (TFT) hook: never enabled in cellax."""

    enable_mindx = False
    tft = None

    def init(self, **kwargs) -> None:
        """Accepted: there is no MindX controller to register with."""

    def get_tft(self):
        """The TFT module in use: none."""
        return None

    def unregister_tft(self) -> None:
        """Nothing is registered."""


_tft_handler = _TftHandle()
