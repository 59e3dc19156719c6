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

from . import common as common
from .common.constant import AicoreMetrics, ProfilerActivity, ProfilerLevel
from .schedule import ProfilerAction
from .schedule import Schedule as schedule

__all__ = [
    "Profiler",
    "ProfilerLevel",
    "ProfilerActivity",
    "AicoreMetrics",
    "profile",
    "schedule",
    "tensorboard_trace_handler",
]

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


class _ExperimentalConfig:
    """The Ascend-specific options of :class:`profile` (``profiler_level``, ``aic_metrics``,
    ``l2_cache``...), recorded as attributes; XLA's trace does not use them."""

    def __init__(
        self,
        profiler_level=ProfilerLevel.Level0,
        aic_metrics=AicoreMetrics.AiCoreNone,
        l2_cache=False,
        mstx=False,
        data_simplification=True,
        export_type=None,
        mstx_domain_include=None,
        mstx_domain_exclude=None,
        sys_io=False,
        sys_interconnection=False,
        host_sys=None,
    ):
        self.profiler_level, self.aic_metrics, self.l2_cache = profiler_level, aic_metrics, l2_cache
        self.mstx, self.data_simplification = mstx, data_simplification
        self.export_type = export_type or ["text"]
        self.mstx_domain_include = mstx_domain_include or []
        self.mstx_domain_exclude = mstx_domain_exclude or []
        self.sys_io, self.sys_interconnection = sys_io, sys_interconnection
        self.host_sys = host_sys or []


class _TraceHandler:
    """What :func:`tensorboard_trace_handler` returns: where :class:`profile` writes."""

    def __init__(self, dir_name: str) -> None:
        self.dir_name = dir_name

    def __call__(self, prof) -> None:
        """Called when a recorded range ends: the JAX trace is already written."""


def tensorboard_trace_handler(
    dir_name: str | None = None, worker_name=None, analyse_flag=True, async_mode=False
):
    """The ``on_trace_ready`` handler of :class:`profile` that writes traces to ``dir_name``
    (default ``"./data"``), for TensorBoard's profile plugin."""
    return _TraceHandler(os.path.abspath(dir_name or "./data"))


class profile(Profiler):
    """``mindspore.profiler.profile``: a :class:`Profiler` driven by a :class:`schedule`.

    Without ``schedule`` it records from :meth:`start` to :meth:`stop`. With one, each
    :meth:`step` moves to the next step of the plan: recording runs through its warm-up and
    recorded steps, and stops (calling ``on_trace_ready(self)``) after its last one.

    Args:
        activities, with_stack, profile_memory, ...: MindSpore's options, recorded in
            :attr:`options`.
        start_profile (bool): Start at construction. Default: ``True``.
        schedule (schedule): The step plan. Default: ``None``.
        on_trace_ready (Callable): Called after each recorded range; a
            :func:`tensorboard_trace_handler` also sets the output folder. Default: ``None``.

    Examples:
        >>> import tempfile
        >>> import cellax as ms
        >>> from cellax.profiler import profile, schedule, tensorboard_trace_handler
        >>> with profile(schedule=schedule(wait=0, active=1),
        ...              on_trace_ready=tensorboard_trace_handler(tempfile.mkdtemp())) as prof:
        ...     for _ in range(2):
        ...         _ = ms.ops.exp(ms.Tensor([0.0]))
        ...         prof.step()
    """

    def __init__(
        self,
        activities=None,
        *,
        start_profile: bool = True,
        schedule=None,
        on_trace_ready=None,
        experimental_config=None,
        **kwargs,
    ):
        self.schedule, self.on_trace_ready = schedule, on_trace_ready
        self.experimental_config = experimental_config or _ExperimentalConfig()
        self._step = 0
        output = getattr(on_trace_ready, "dir_name", "./data")
        super().__init__(output, start_profile=False, activities=activities, **kwargs)
        if start_profile:
            self.start()

    def _action(self):
        return None if self.schedule is None else self.schedule(self._step)

    def start(self) -> None:
        """Begin (with a schedule: only if the current step is recorded)."""
        if self.schedule is None or self._action() is not ProfilerAction.NONE:
            super().start()

    def step(self) -> None:
        """Move to the next step of the schedule."""
        if self.schedule is None:
            return
        saved = self._action() is ProfilerAction.RECORD_AND_SAVE
        self._step += 1
        if saved and self._recording:
            self.stop()
        if self._action() is not ProfilerAction.NONE and not self._recording:
            super().start()

    def stop(self) -> None:
        """Stop recording; call ``on_trace_ready``."""
        was_recording = self._recording
        super().stop()
        if was_recording and self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def add_metadata(self, key: str, value: str) -> None:
        """Record a metadata entry."""
        self.options.setdefault("metadata", {})[key] = value

    def add_metadata_json(self, key: str, value: str) -> None:
        """Record a metadata entry given as JSON text."""
        self.add_metadata(key, value)


from .._module_paths import keep_attributes  # noqa: E402

keep_attributes(__name__, "schedule")
