"""set_context / get_context: MindSpore's global execution settings.

Only ``mode`` changes what cellax does (GRAPH_MODE compiles top-level Cell calls with
``cellax.jit``); the other documented keys are accepted and stored so scripts run unchanged.
"""

from __future__ import annotations

import copy
import os
import re

import jax

from ._context_defaults import DEFAULTS
from ._device import warn_once

__all__ = [
    "GRAPH_MODE",
    "PYNATIVE_MODE",
    "STRICT",
    "COMPATIBLE",
    "LAX",
    "set_context",
    "get_context",
    "get_mode",
]

GRAPH_MODE = 0
PYNATIVE_MODE = 1
# set_context(jit_syntax_level=...): how much Python MindSpore's graph compiler accepts. cellax
# traces Python with JAX, so every level runs the same code; the value is stored only.
STRICT = 0
COMPATIBLE = 1
LAX = 2

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
# Further keys MindSpore 2.10 accepts (its context parameter table): MindSpore's compiler,
# Ascend/GE and parallel-pass switches. cellax stores them and warns once that XLA decides.
_NO_EFFECT_KEYS = {
    "aoe_job_type",
    "bias_add_comm_swap",
    "compute_communicate_fusion_level",
    "conv_allow_tf32",
    "conv_dgrad_algo",
    "conv_fprop_algo",
    "conv_wgrad_algo",
    "cur_step_num",
    "dataset_broadcast_opt_level",
    "enable_allreduce_slice_to_reducescatter",
    "enable_begin_end_inline_opt",
    "enable_concat_eliminate_opt",
    "enable_flash_attention_load_balance",
    "enable_fused_cast_add_opt",
    "enable_grad_comm_opt",
    "enable_interleave_parallel_branch",
    "enable_interleave_split_concat_branch",
    "enable_offloading_packed_experts",
    "enable_opt_shard_comm_opt",
    "enable_parallel_split",
    "enable_profiling",
    "enable_task_opt",
    "exec_order",
    "hccl_watchdog",
    "infer_boost",
    "interleaved_layernorm_comm",
    "interleaved_matmul_comm",
    "jit_level",
    "last_triggered_step",
    "matmul_allow_tf32",
    "matmul_grad_comm_overlap",
    "need_ckpt",
    "pp_1f1b_overlap",
    "profiling_options",
    "recompute_allgather_overlap_fagrad",
    "recompute_comm_overlap",
    "save_checkpoint_steps",
    "topo_order",
    # long-standing keys: MindSpore's graph-compiler settings and Ascend-only ones
    "jit_config",
    "ascend_config",
    "enable_reduce_precision",
    "variable_memory_max_size",
    "op_timeout",
    "aoe_tune_mode",
    "aoe_config",
}
_KNOWN_KEYS |= _NO_EFFECT_KEYS
# MindSpore takes these only inside ascend_config and rejects them as keys of their own
_ASCEND_CONFIG_ONLY = {
    "precision_mode",
    "jit_compile",
    "atomic_clean_policy",
    "matmul_allow_hf32",
    "conv_allow_hf32",
    "op_precision_mode",
    "host_scheduling_max_threshold",
    "ge_options",
    "op_debug_option",
}
# MindSpore's argument types for set_context (a wrong type is a TypeError there too)
_TYPES = {
    "mode": int,
    "device_target": str,
    "device_id": int,
    "save_graphs": (bool, int),
    "save_graphs_path": str,
    "aoe_tune_mode": str,
    "aoe_config": dict,
    "enable_reduce_precision": bool,
    "variable_memory_max_size": str,
    "enable_auto_mixed_precision": bool,
    "inter_op_parallel_num": int,
    "enable_graph_kernel": bool,
    "reserve_class_name_in_scope": bool,
    "check_bprop": bool,
    "max_device_memory": str,
    "print_file_path": str,
    "max_call_depth": int,
    "env_config_path": str,
    "graph_kernel_flags": str,
    "save_compile_cache": bool,
    "runtime_num_threads": int,
    "load_compile_cache": bool,
    "pynative_synchronize": bool,
    "mempool_block_size": str,
    "disable_format_transform": bool,
    "op_timeout": int,
    "deterministic": str,
    "ascend_config": dict,
    "jit_syntax_level": int,
    "debug_level": int,
    "gpu_config": dict,
    "jit_config": dict,
    "enable_compile_cache": bool,
}
_CHOICES = {
    "memory_optimize_level": ("O0", "O1"),
    "jit_syntax_level": (STRICT, COMPATIBLE, LAX),
}

_DEVICE_TARGETS = {"cpu": "CPU", "gpu": "GPU", "ascend": "Ascend", "tpu": "TPU"}
# set_context takes these, but MindSpore 2.10's get_context does not know them (ValueError)
_SET_ONLY_KEYS = {
    "affinity_cpu_list",
    "auto_tune_mode",
    "enable_auto_mixed_precision",
    "enable_sparse",
    "grad_for_scalar",
    "load_compile_cache",
    "memory_offload",
    "precompile_only",
    "recompute",
    "save_compile_cache",
}
# cellax's own keys and their defaults
_CELLAX_DEFAULTS = {
    "pynative_grad_replay": False,
    "pynative_grad_tape": True,
    "jit_hook_backward": False,
}
_GB = re.compile(r"^\d+(\.\d+)?GB$")


def _default_device_target() -> str:
    platform = jax.default_backend()
    return {"cpu": "CPU", "gpu": "GPU", "cuda": "GPU", "rocm": "GPU", "tpu": "TPU"}.get(
        platform, platform.upper()
    )


def _default_device_id() -> int:
    """The launcher's ``DEVICE_ID`` (msrun and ``cellax.launch`` set one per local process),
    MindSpore's default ``device_id``; 0 without one."""
    value = os.environ.get("DEVICE_ID", "")
    return int(value) if value.isdigit() else 0


_settings: dict = {
    "mode": PYNATIVE_MODE,
    "device_id": _default_device_id(),
    "jit_syntax_level": LAX,
}
# [True] while every eager op waits for its result (pynative_synchronize, launch_blocking);
# read by cellax._tensor.wrap, which wraps eager op results
BLOCKING = [False]


def _gigabytes(key: str, value: str) -> float:
    if not _GB.match(value) or float(value[:-2]) == 0:
        raise ValueError(
            f"For 'context.set_context', the argument '{key}' should be in correct format! "
            f"It must be a string ending with 'GB' with a positive number before it, such as "
            f'"5GB" or "3.5GB", but got {value}.'
        )
    return float(value[:-2])


def _stored_values(key: str, value) -> dict:
    """The get_context values one set_context key stores (MindSpore's conversions)."""
    if key == "save_graphs":
        value = 2 if value is True else 0 if value is False else value
        if not 0 <= value <= 3:
            raise ValueError(f"value for save_graphs should be 0-3 but got '{value}'")
    elif key == "memory_optimize_level":
        value = 0 if value == "O0" else 1
    elif key in ("max_device_memory", "mempool_block_size"):
        value = _gigabytes(key, value)
    elif key == "jit_config":
        stored = {k: value[k] for k in ("jit_level", "infer_boost") if k in value}
        return {key: dict(value), **stored}
    return {key: value}


def get_mode() -> int:
    """The current mode (read by the top-level Cell call; nothing else branches on it)."""
    return _settings["mode"]


def set_context(**kwargs) -> None:
    """Set global execution settings, e.g. ``set_context(mode=GRAPH_MODE)``.

    Args:
        **kwargs: MindSpore's context keys. ``mode`` (``GRAPH_MODE`` or ``PYNATIVE_MODE``)
            makes top-level Cell calls compile (GRAPH_MODE) or run eagerly (PYNATIVE_MODE, the
            default). ``device_target`` names the MindSpore target (``"CPU"``, ``"GPU"``,
            ``"Ascend"``, or ``"TPU"``); ``get_context`` reports it. ``pynative_synchronize``
            makes every eager op wait for its result (the same switch as
            :func:`cellax.runtime.launch_blocking`).
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
        TypeError: If a value has the wrong type (MindSpore's checks, e.g. ``mode="graph"``).
        ValueError: If a key is unknown, is one MindSpore accepts only inside
            ``ascend_config`` (``precision_mode``...), or ``mode`` / ``device_target`` /
            ``jit_syntax_level`` / ``memory_optimize_level`` has a bad value.

    Examples:
        >>> import cellax as ms
        >>> ms.set_context(mode=ms.GRAPH_MODE)
        >>> ms.get_context("mode") == ms.GRAPH_MODE
        True
        >>> ms.set_context(mode=ms.PYNATIVE_MODE)

    ``enable_compile_cache=True`` saves every compiled program (``jit``, GRAPH_MODE and the
    eager tape's per-op kernels) in XLA's persistent compilation cache, under
    ``<compile_cache_path>/cellax_compile_cache`` (default path: the working folder), and
    later runs load them instead of compiling (``MS_COMPILER_CACHE_ENABLE=1`` and
    ``MS_COMPILER_CACHE_PATH`` in the environment do the same at import).

    Differences from MindSpore: keys other than ``mode``, ``device_target``,
    ``pynative_synchronize`` and the two compile-cache keys are recorded only; XLA chooses memory, threading, kernels and
    compiler passes itself. ``device_target="Ascend"``, ``jit_level``, ``jit_config``,
    ``ascend_config`` and the other MindSpore compiler and Ascend switches are accepted
    with one ``UserWarning`` per key saying so, and cellax computes on JAX's default device.
    cellax adds ``pynative_grad_replay``, ``pynative_grad_tape`` and ``jit_hook_backward``
    (run ``ops.HookBackward`` inside ``jit`` / GRAPH_MODE, where MindSpore 2.10 skips it).
    """
    _set_context(kwargs, "set_context")


def _set_context(kwargs: dict, api: str, stacklevel: int = 4) -> None:
    stored = {}
    for key, value in kwargs.items():
        _check_key(key, value)
        stored.update(_stored_values(key, value))
    for key, value in kwargs.items():
        if key == "device_target":
            value = stored[key] = _DEVICE_TARGETS[value.lower()]
            if value == "Ascend":
                warn_once(
                    api,
                    "device 'Ascend' has no XLA counterpart: cellax computes on JAX's default "
                    "device (CPU, GPU or TPU, whichever JAX found); get_context('device_target') "
                    "reports 'Ascend'.",
                    key="device_target=Ascend",
                    stacklevel=stacklevel,
                )
        elif key in _NO_EFFECT_KEYS:
            warn_once(
                "set_context",
                f"'{key}' ({value!r}) selects MindSpore compiler, Ascend or parallel-pass "
                f"behaviour that has no XLA counterpart: XLA compiles each jit/GRAPH_MODE "
                f"function whole and chooses its own kernels. The value is stored for "
                f"get_context and has no effect.",
                key=f"context:{key}",
                stacklevel=stacklevel,
            )
        elif key == "pynative_synchronize":
            BLOCKING[0] = bool(value)
    _settings.update(stored)
    if {"enable_compile_cache", "compile_cache_path"} & kwargs.keys():
        _apply_compile_cache(
            _settings.get("enable_compile_cache"), _settings.get("compile_cache_path")
        )


def _apply_compile_cache(enabled, path) -> None:
    """``enable_compile_cache`` as XLA's persistent compilation cache: every compiled program
    (``jit``, GRAPH_MODE, the eager tape's per-op kernels) is saved under
    ``<compile_cache_path>/cellax_compile_cache`` and later processes load it instead of
    compiling again. Off (``False``/``None``), no program is saved or loaded."""
    from jax._src import compilation_cache

    if enabled:
        folder = os.path.join(os.path.abspath(path or "."), "cellax_compile_cache")
        jax.config.update("jax_compilation_cache_dir", folder)
        jax.config.update("jax_enable_compilation_cache", True)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    else:
        jax.config.update("jax_compilation_cache_dir", None)
    compilation_cache.reset_cache()  # the next compile opens the cache anew


def _check_key(key: str, value) -> None:
    if key in _ASCEND_CONFIG_ONLY:
        raise ValueError(
            f"Please set '{key}' through parameter ascend_config: as in MindSpore, "
            f"set_context takes it only inside ascend_config={{'{key}': ...}}."
        )
    if key not in _KNOWN_KEYS:
        raise ValueError(
            f"For 'set_context', the key '{key}' is not a MindSpore context key. "
            f"Known keys: {sorted(_KNOWN_KEYS)}."
        )
    kind = _TYPES.get(key)
    if kind is not None and not isinstance(value, kind):
        raise TypeError(f"The parameter '{key}' must be {kind}, but got {type(value)}")
    if key == "jit_level" and not isinstance(value, str):
        # MindSpore's C++ context table rejects it with a RuntimeError
        raise RuntimeError(
            f"For 'set_context', 'jit_level' must be a str ('O0', 'O1' or 'O2'), but got "
            f"{value!r} of type {type(value).__name__}."
        )
    if key == "mode" and value not in (GRAPH_MODE, PYNATIVE_MODE):
        raise ValueError(
            f"For 'set_context', 'mode' must be GRAPH_MODE (0) or PYNATIVE_MODE (1), "
            f"but got {value!r}."
        )
    if key == "device_target" and str(value).lower() not in _DEVICE_TARGETS:
        raise ValueError(
            f"For 'set_context', 'device_target' must be one of 'CPU', 'GPU', 'Ascend', "
            f"'TPU', but got {value!r}."
        )
    if key in _CHOICES and value not in _CHOICES[key]:
        raise ValueError(
            f"For 'set_context', the argument '{key}' must be one of {list(_CHOICES[key])}, "
            f"but got {value!r}."
        )


def get_context(attr_key: str):
    """Return one context setting: the value ``set_context`` stored, else MindSpore's default.

    Args:
        attr_key (str): A key of MindSpore 2.10's context table (``"mode"``,
            ``"device_id"``, ``"max_call_depth"``, ``"jit_level"``, ``"save_graphs"``...) or
            one of cellax's own keys (see :func:`set_context`).

    Returns:
        The setting, in MindSpore's form: ``set_context(save_graphs=True)`` reads back ``2``,
        ``memory_optimize_level="O1"`` reads back ``1``, ``max_device_memory="3.5GB"``
        reads back ``3.5``, and ``jit_config={"jit_level": "O1"}`` also sets ``jit_level``.
        A key never set reads MindSpore 2.10's default (``max_call_depth`` ``1000``,
        ``device_id`` ``0``, ``jit_level`` ``""``, ``save_graphs`` ``0``...).

    Raises:
        ValueError: If ``attr_key`` is not a key MindSpore's ``get_context`` reads (this
            includes keys ``set_context`` takes only for compatibility, e.g.
            ``enable_sparse`` or ``memory_offload``).

    Examples:
        >>> import cellax as ms
        >>> ms.get_context("mode") == ms.PYNATIVE_MODE
        True
        >>> ms.get_context("max_call_depth"), ms.get_context("jit_level")
        (1000, '')

    Differences from MindSpore: ``device_target`` is the device JAX computes on
    (``"CPU"``, ``"GPU"`` or ``"TPU"``) unless ``set_context`` named one.
    ``runtime_num_threads`` defaults to the host's CPU count, at most 30 (MindSpore 2.10
    reports the host's hardware threads on CPU; its documented default is 30). MindSpore on
    CPU ignores ``max_device_memory``, ``mempool_block_size``, ``print_file_path``,
    ``variable_memory_max_size``, ``enable_reduce_precision``, ``disable_format_transform``,
    ``ascend_config`` and ``gpu_config`` (they keep their defaults); cellax stores them on
    every device.
    """
    if attr_key == "device_target":
        # lazily: asking JAX for its backend starts it (communication.init() must come first)
        target = _settings.get("device_target")
        return _default_device_target() if target is None else target
    if attr_key in _settings and attr_key not in _SET_ONLY_KEYS:
        return copy.copy(_settings[attr_key])
    if attr_key in DEFAULTS:
        return copy.copy(DEFAULTS[attr_key])
    if attr_key in _CELLAX_DEFAULTS:
        return _CELLAX_DEFAULTS[attr_key]
    if attr_key == "runtime_num_threads":
        return min(30, os.cpu_count() or 1)
    raise ValueError(
        f"For 'context.get_context', the argument {attr_key} is not recognized: "
        f"'{attr_key}' is not a context key MindSpore's get_context reads."
    )


if os.environ.get("MS_COMPILER_CACHE_ENABLE") == "1":  # MindSpore's switch, read at start
    _set_context(
        {
            "enable_compile_cache": True,
            "compile_cache_path": os.environ.get("MS_COMPILER_CACHE_PATH", ""),
        },
        "set_context",
    )
