"""``mindspore.parallel.auto_parallel.AutoParallel``: run a network or step in the global view."""

from __future__ import annotations

import warnings

from .. import _parallel_state
from .._transforms import jit
from ..nn import Cell

__all__ = ["AutoParallel"]

_MODES = {
    "semi_auto": "semi_auto_parallel",
    "sharding_propagation": "auto_parallel",
    "recursive_programming": "auto_parallel",
}
_LEVELS = ("level1", "level2", "level3")


class AutoParallel(Cell):
    """Run ``network`` over all devices with its operator strategies (JAX's global view).

    Args:
        network (Union[Cell, Callable]): A network or a training-step function.
        parallel_mode (str): ``"semi_auto"`` (strategies as given, the rest propagated),
            ``"sharding_propagation"`` or ``"recursive_programming"`` (no JAX counterpart:
            warns once and propagates). Default: ``"semi_auto"``.

    Inputs:
        The inputs of ``network``; batch inputs are split on dim 0 over all devices unless
        :meth:`dataset_strategy` says otherwise.

    Outputs:
        The outputs of ``network``.

    Raises:
        ValueError: If ``parallel_mode`` is not one of these.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> from cellax.parallel.auto_parallel import AutoParallel
        >>> net = AutoParallel(nn.Dense(2, 1, weight_init="ones"), parallel_mode="semi_auto")
        >>> print(net(ms.ops.ones((4, 2))).shape)
        (4, 1)

    Differences from MindSpore: the network is compiled with ``cellax.jit``; pipeline
    stages, strategy files and communication fusion settings are accepted and ignored
    (a warning says which).
    """

    def __init__(self, network, parallel_mode="semi_auto") -> None:
        super().__init__(auto_prefix=False)
        if parallel_mode not in _MODES:
            raise ValueError(
                f"For 'AutoParallel', 'parallel_mode' must be one of {sorted(_MODES)}, but got "
                f"{parallel_mode!r}."
            )
        if parallel_mode == "recursive_programming":
            warnings.warn(
                "For 'AutoParallel', 'recursive_programming' has no JAX counterpart: "
                "unannotated operators follow XLA's sharding propagation.",
                UserWarning,
                stacklevel=2,
            )
        self.network = network
        self._parallel_mode = parallel_mode
        self._settings = {
            "parallel_mode": _MODES[parallel_mode],
            "dataset_strategy": "data_parallel",
            "full_batch": False,
        }
        self._step = jit(network) if not isinstance(network, Cell) else jit(network.__call__)

    def _warn(self, what: str) -> None:
        warnings.warn(
            f"For 'AutoParallel.{what}', the setting is accepted and has no effect in cellax.",
            UserWarning,
            stacklevel=3,
        )

    def dataset_strategy(self, config) -> None:
        """``"data_parallel"`` (split batches over all devices), ``"full_batch"`` (every
        device sees the whole batch) or a tuple of strategies, one per input.

        Raises:
            ValueError: If ``config`` is none of these.
        """
        if config not in ("data_parallel", "full_batch") and not isinstance(config, tuple):
            raise ValueError(
                "For 'AutoParallel.dataset_strategy', 'config' must be 'data_parallel', "
                f"'full_batch' or a tuple of strategies, but got {config!r}."
            )
        self._settings["dataset_strategy"] = config
        self._settings["full_batch"] = config == "full_batch"

    def hsdp(self, shard_size=-1, threshold=64, optimizer_level="level1") -> None:
        """Shard optimizer state (level1), gradients (level2) and weights (level3) over the
        data-parallel devices; Parameters under ``threshold`` KB stay replicated.

        Raises:
            ValueError: If ``optimizer_level`` is not level1/2/3.
        """
        if optimizer_level not in _LEVELS:
            raise ValueError(
                f"For 'AutoParallel.hsdp', 'optimizer_level' must be one of {_LEVELS}, but got "
                f"{optimizer_level!r}."
            )
        self._settings["enable_parallel_optimizer"] = True
        self._settings["parallel_optimizer_config"] = {
            "optimizer_level": optimizer_level,
            "parallel_optimizer_threshold": threshold,
            "optimizer_weight_shard_size": shard_size,
        }

    def pipeline(self, stages=1, output_broadcast=False, interleave=False, scheduler="1f1b"):
        """Pipeline settings; more than one stage runs as one stage (with a warning)."""
        if stages != 1 or interleave:
            self._warn("pipeline")
        self._stages = stages

    def get_pipeline_stages(self) -> int:
        """The number of pipeline stages set with :meth:`pipeline` (default 1)."""
        return getattr(self, "_stages", 1)

    def enable_gradients_mean(self) -> None:
        """Average (not sum) gradients over the data-parallel ranks."""
        self._settings["gradients_mean"] = True

    def save_param_strategy_file(self, file_path) -> None:
        """Strategy files do not exist in cellax (checkpoints reshard on load): warns."""
        self._warn("save_param_strategy_file")

    def comm_fusion(self, config) -> None:
        """Communication fusion: XLA fuses collectives itself (accepted, no effect)."""

    def disable_gradient_fp32_sync(self) -> None:
        """Accepted (gradients keep their dtype in the all-reduce)."""

    def __call__(self, *inputs):
        # the settings hold while the step is placed, traced and run
        _parallel_state.MODE_OVERRIDE.append(self._settings)
        try:
            return self._step(*inputs)
        finally:
            _parallel_state.MODE_OVERRIDE.pop()

    def construct(self, *inputs):
        return self.__call__(*inputs)
