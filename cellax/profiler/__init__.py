"""``mindspore.profiler``: :class:`Profiler` records a real JAX/XLA trace
(``jax.profiler``), viewable in TensorBoard's profile plugin or Perfetto.

Examples:
    >>> import tempfile, os
    >>> import cellax as ms
    >>> out = tempfile.mkdtemp()
    >>> with ms.Profiler(output_path=out) as prof:
    ...     _ = ms.ops.add(ms.Tensor([1.0]), ms.Tensor([2.0]))
    >>> any(f.endswith(".xplane.pb") for _, _, fs in os.walk(out) for f in fs)
    True
"""

from __future__ import annotations

import os

__all__ = ["Profiler", "ProfilerLevel"]


class ProfilerLevel:
    """Detail levels (accepted for compatibility; XLA's trace has one level)."""

    LevelNone = "LevelNone"
    Level0 = "Level0"
    Level1 = "Level1"
    Level2 = "Level2"


_active = None


class Profiler:
    """Record a performance trace of everything cellax runs (``mindspore.Profiler``).

    Args:
        output_path (str): Directory of the trace. Default: ``"./data"``.
        start_profile (bool): Start at construction. Default: ``True``.
        **kwargs: MindSpore's other options (``profiler_level``, ``activities``,
            ``profile_memory``...), accepted and recorded in :attr:`options`.

    Raises:
        RuntimeError: If another Profiler is recording.

    Differences from MindSpore: the trace is JAX's (``<output_path>/plugins/profile/<run>/
    *.xplane.pb``, read by TensorBoard's profile plugin or ``xprof``), not MindSpore's
    timeline files; :meth:`analyse` only makes sure the trace is written.

    Examples:
        >>> import tempfile
        >>> import cellax as ms
        >>> prof = ms.Profiler(output_path=tempfile.mkdtemp(), start_profile=False)
        >>> prof.start()
        >>> _ = ms.ops.exp(ms.Tensor([0.0]))
        >>> prof.stop()
        >>> prof.analyse()
    """

    def __init__(self, output_path: str = "./data", start_profile: bool = True, **kwargs):
        self.output_path = os.path.abspath(output_path)
        self.options = dict(kwargs)
        self._recording = False
        if start_profile:
            self.start()

    def start(self) -> None:
        """Begin recording."""
        global _active
        import jax

        if _active is not None:
            raise RuntimeError(
                "For 'Profiler.start', another Profiler is recording; stop it first."
            )
        os.makedirs(self.output_path, exist_ok=True)
        jax.profiler.start_trace(self.output_path)
        _active, self._recording = self, True

    def stop(self) -> None:
        """Stop recording and write the trace."""
        global _active
        import jax

        if not self._recording:
            return
        jax.effects_barrier()
        jax.profiler.stop_trace()
        _active, self._recording = None, False

    def step(self) -> None:
        """Mark a step boundary (accepted; the JAX trace records every op)."""

    def analyse(self, offline_path=None, pretty=False, step_list=None, mode="sync") -> None:
        """Finish the trace (stops recording if still on)."""
        self.stop()

    @staticmethod
    def offline_analyse(path: str, pretty=False, step_list=None, data_simplification=True):
        """Accepted for compatibility: the JAX trace needs no offline analysis."""

    def __enter__(self):
        if not self._recording:
            self.start()
        return self

    def __exit__(self, *exc):
        self.stop()
        return False
