"""set_context / get_context: MindSpore's global execution settings.

Only ``mode`` changes what cellax does (GRAPH_MODE compiles top-level Cell calls with
``cellax.jit``); the other documented keys are accepted and stored so scripts run unchanged.
"""

from __future__ import annotations

import jax

__all__ = ["GRAPH_MODE", "PYNATIVE_MODE", "set_context", "get_context", "get_mode"]

GRAPH_MODE = 0
PYNATIVE_MODE = 1

_KNOWN_KEYS = {
    "mode",
    "device_target",
    "device_id",
    "deterministic",
    "max_call_depth",
    "save_graphs",
    "save_graphs_path",
    "enable_dump",
    "save_dump_path",
    "print_file_path",
    "max_device_memory",
    "variable_memory_max_size",
    "mempool_block_size",
    "enable_graph_kernel",
    "graph_kernel_flags",
    "enable_reduce_precision",
    "check_bprop",
    "precompile_only",
    "reserve_class_name_in_scope",
    "pynative_synchronize",
    "runtime_num_threads",
    "inter_op_parallel_num",
    "jit_syntax_level",
    "jit_config",
    "memory_optimize_level",
    "memory_offload",
    "ascend_config",
    "gpu_config",
    "disable_format_transform",
    "op_timeout",
    "aoe_tune_mode",
    "aoe_config",
    "debug_level",
    "enable_compile_cache",
    "compile_cache_path",
    "env_config_path",
    "auto_tune_mode",
    "enable_auto_mixed_precision",
    "enable_sparse",
    "grad_for_scalar",
    "save_compile_cache",
    "load_compile_cache",
    "support_binary",
    "affinity_cpu_list",
    "recompute",
    # cellax's own: PyNative grad/value_and_grad replay a compiled gradient (_grad_replay)
    "pynative_grad_replay",
    # cellax's own: PyNative gradients on the eager tape (_tape); False: jax.vjp per call
    "pynative_grad_tape",
    # cellax's own: ops.HookBackward also runs inside jit / GRAPH_MODE (MindSpore skips it)
    "jit_hook_backward",
}

_DEVICE_TARGETS = {"cpu": "CPU", "gpu": "GPU", "ascend": "Ascend", "tpu": "TPU"}


def _default_device_target() -> str:
    platform = jax.default_backend()
    return {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU", "tpu": "TPU"}.get(
        platform, platform.upper()
    )


_settings: dict = {"mode": PYNATIVE_MODE, "device_id": 0}


def get_mode() -> int:
    """The current mode (read by the top-level Cell call; nothing else branches on it)."""
    return _settings["mode"]


def set_context(**kwargs) -> None:
    """Set global execution settings, e.g. ``set_context(mode=GRAPH_MODE)``.

    Args:
        **kwargs: MindSpore's context keys. ``mode`` (``GRAPH_MODE`` or ``PYNATIVE_MODE``)
            makes top-level Cell calls compile (GRAPH_MODE) or run eagerly (PYNATIVE_MODE, the
            default). ``device_target`` must name a platform JAX has.
            ``pynative_grad_replay`` (cellax's own, default off): PyNative ``grad`` /
            ``value_and_grad`` / ``GradOperation`` functions and ``nn.TrainOneStepCell``
            steps whose first call printed nothing and called no hook replay a compiled
            program on later calls (docs/performance.md). ``pynative_grad_tape`` (cellax's
            own, default on): PyNative gradients run on the eager tape of compiled per-op
            kernels; ``False`` re-linearizes the function with ``jax.vjp`` on every call
            (the reference the tape is tested against). ``jit_hook_backward``
            (cellax's own, default off): ``ops.HookBackward`` also runs inside ``cellax.jit``
            and GRAPH_MODE (docs/hooks.md); by default it is left out there, as MindSpore
            2.10 leaves it out of graphs. Other documented keys are stored and have no
            effect on XLA.

    Raises:
        ValueError: If a key is unknown or ``mode`` / ``device_target`` has a bad value.

    Examples:
        >>> import cellax as ms
        >>> ms.set_context(mode=ms.GRAPH_MODE)
        >>> ms.get_context("mode") == ms.GRAPH_MODE
        True
        >>> ms.set_context(mode=ms.PYNATIVE_MODE)

    Differences from MindSpore: keys other than ``mode`` and ``device_target`` are recorded
    only; XLA chooses memory, threading and kernels itself. cellax adds
    ``pynative_grad_replay``, ``pynative_grad_tape`` and ``jit_hook_backward`` (run
    ``ops.HookBackward`` inside ``jit`` / GRAPH_MODE, where MindSpore 2.10 skips it).
    """
    for key, value in kwargs.items():
        if key not in _KNOWN_KEYS:
            raise ValueError(
                f"For 'set_context', the key '{key}' is not a MindSpore context key. "
                f"Known keys: {sorted(_KNOWN_KEYS)}."
            )
        if key == "mode" and value not in (GRAPH_MODE, PYNATIVE_MODE):
            raise ValueError(
                f"For 'set_context', 'mode' must be GRAPH_MODE (0) or PYNATIVE_MODE (1), "
                f"but got {value!r}."
            )
        if key == "device_target":
            if not isinstance(value, str) or value.lower() not in _DEVICE_TARGETS:
                raise ValueError(
                    f"For 'set_context', 'device_target' must be one of 'CPU', 'GPU', 'Ascend', "
                    f"'TPU', but got {value!r}."
                )
            value = _DEVICE_TARGETS[value.lower()]
    _settings.update(kwargs)


def get_context(attr_key: str):
    """Return one context setting.

    Raises:
        ValueError: If ``attr_key`` is not a context key.

    Examples:
        >>> import cellax as ms
        >>> ms.get_context("mode") == ms.PYNATIVE_MODE
        True
    """
    if attr_key == "device_target":
        # lazily: asking JAX for its backend starts it (communication.init() must come first)
        target = _settings.get("device_target")
        return _default_device_target() if target is None else target
    if attr_key not in _KNOWN_KEYS:
        raise ValueError(f"For 'get_context', '{attr_key}' is not a context key.")
    return _settings.get(attr_key)
