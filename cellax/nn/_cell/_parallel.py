"""Distributed and Ascend-specific Cell methods (a mixin of nn.Cell).

Each validates its arguments like MindSpore and records the request on the Cell
(``cell.parallel_requests``). None of them changes the XLA program: on one device there is
nothing to shard, and multi-device layouts are set with ``jax.sharding`` on the inputs. So
each warns once per Cell instead of silently doing nothing.
"""

from __future__ import annotations

import warnings

from ..._errors import check_bool, check_int

__all__ = ["CellParallelMixin"]

_NO_EFFECT = (
    "For 'Cell.{api}', the request is recorded on the Cell (parallel_requests) but has no "
    "effect in cellax: {why}"
)


def _record(cell, api: str, why: str, **request) -> None:
    requests = cell.__dict__.setdefault("parallel_requests", {})
    requests[api] = request
    warned = cell.__dict__.setdefault("_parallel_warned", set())
    if api not in warned:
        warned.add(api)
        warnings.warn(_NO_EFFECT.format(api=api, why=why), UserWarning, stacklevel=3)


class CellParallelMixin:
    """shard, set_data_parallel, place, offload, pipeline_stage, ... for nn.Cell."""

    def shard(self, in_strategy, out_strategy=None, parameter_plan=None) -> None:
        """Set strategies for this Cell's inputs and outputs, and layouts for its Parameters.

        Under SEMI_AUTO/AUTO_PARALLEL over several devices each input (output) gets the
        sharding its strategy (a tuple of slice counts, or a ``parallel.Layout``) describes,
        and each Parameter named in ``parameter_plan`` is stored sharded; sharding
        propagation does the rest. In other modes the plan is kept and has no effect, as in
        MindSpore with one rank.

        Args:
            in_strategy (tuple): One strategy per input (``None`` skips an input).
            out_strategy (Union[None, tuple]): One strategy per output. Default: ``None``.
            parameter_plan (Union[dict, None]): ``{parameter name: strategy}``; names may
                start with ``"self."``. Default: ``None``.

        Raises:
            TypeError: If a strategy is not a tuple or ``parameter_plan`` not a dict.
            ValueError: When it applies, if a strategy does not fit its tensor or the
                device count, or ``parameter_plan`` names no Parameter of the Cell.

        Examples:
            >>> from cellax import nn
            >>> block = nn.Dense(4, 4)
            >>> print(block.shard(((2, 1),)))
            None

        Differences from MindSpore: the ``device`` and ``level`` arguments of older
        versions are gone in 2.10 and here.
        """
        from ._shard import set_shard

        set_shard(self, in_strategy, out_strategy, parameter_plan)

    def set_data_parallel(self) -> None:
        """Split this Cell's inputs on their first dimension over all devices (under
        SEMI_AUTO/AUTO_PARALLEL); its Parameters stay replicated.

        Examples:
            >>> from cellax import nn
            >>> nn.Dense(4, 4).set_data_parallel()
        """
        from ._shard import set_data_parallel

        set_data_parallel(self)

    def place(self, role: str, rank_id: int) -> None:
        """Request that this Cell runs on process ``rank_id`` of ``role``.

        Raises:
            ValueError: If ``role`` is not ``'MS_WORKER'`` or ``rank_id`` is negative.
            TypeError: If ``rank_id`` is not an int.
        """
        if role != "MS_WORKER":
            raise ValueError(f"For 'place', 'role' must be 'MS_WORKER', but got {role!r}.")
        if check_int("place", "rank_id", rank_id) < 0:
            raise ValueError(f"For 'place', 'rank_id' must be >= 0, but got {rank_id}.")
        _record(
            self,
            "place",
            "one JAX program runs on all devices of a process.",
            role=role,
            rank_id=rank_id,
        )

    def offload(self, backward_prefetch="Auto") -> None:
        """Request that activations of this Cell are kept on the host between passes.

        Raises:
            ValueError: If ``backward_prefetch`` is neither ``'Auto'`` nor an int >= 0.
        """
        if not (
            backward_prefetch == "Auto"
            or isinstance(backward_prefetch, int)
            and not isinstance(backward_prefetch, bool)
            and backward_prefetch >= 0
        ):
            raise ValueError(
                f"For 'offload', 'backward_prefetch' must be 'Auto' or an int >= 0, but got "
                f"{backward_prefetch!r}."
            )
        _record(
            self,
            "offload",
            "use recompute() (jax.checkpoint) to save activation memory.",
            backward_prefetch=backward_prefetch,
        )

    def set_comm_fusion(self, fusion_type: int, recurse: bool = True):
        """Set ``comm_fusion`` of the trainable Parameters; returns the Cell.

        Raises:
            TypeError: If ``fusion_type`` is not an int or ``recurse`` not a bool.
        """
        check_int("set_comm_fusion", "fusion_type", fusion_type)
        check_bool("set_comm_fusion", "recurse", recurse)
        for param in self.trainable_params(recurse):
            param.comm_fusion = fusion_type
        _record(
            self,
            "set_comm_fusion",
            "XLA schedules and fuses collectives itself.",
            fusion_type=fusion_type,
            recurse=recurse,
        )
        return self

    def set_param_ps(self, recurse: bool = True, init_in_server: bool = False) -> None:
        """Request that the trainable Parameters are updated on a parameter server.

        Raises:
            TypeError: If an argument is not a bool.
        """
        check_bool("set_param_ps", "recurse", recurse)
        check_bool("set_param_ps", "init_in_server", init_in_server)
        _record(
            self,
            "set_param_ps",
            "cellax has no parameter-server mode.",
            recurse=recurse,
            init_in_server=init_in_server,
        )

    def set_boost(self, boost_type: str):
        """Request a boost algorithm (``'less_bn'``); adds the flag; returns the Cell.

        Raises:
            ValueError: If ``boost_type`` is not ``'less_bn'``.
        """
        if boost_type != "less_bn":
            raise ValueError(
                f"For 'set_boost', 'boost_type' must be 'less_bn', but got {boost_type!r}."
            )
        self.add_flags_recursive(less_bn=True)
        _record(self, "set_boost", "cellax has no boost algorithm library.", boost_type=boost_type)
        return self

    def flatten_weights(self, fusion_size: int = 0) -> None:
        """Request contiguous memory for the weights (grouped by dtype).

        Raises:
            TypeError: If ``fusion_size`` is not an int.
            ValueError: If ``fusion_size`` is negative.
        """
        if check_int("flatten_weights", "fusion_size", fusion_size) < 0:
            raise ValueError(
                f"For 'flatten_weights', 'fusion_size' must be >= 0, but got {fusion_size}."
            )
        _record(
            self,
            "flatten_weights",
            "XLA allocates the program's buffers itself.",
            fusion_size=fusion_size,
        )

    def infer_param_pipeline_stage(self) -> list:
        """The Parameters of the current pipeline stage: all of them (one stage).

        Deprecated in MindSpore 2.3.
        """
        _record(self, "infer_param_pipeline_stage", "cellax runs one pipeline stage.")
        return list(self.get_parameters())

    @property
    def pipeline_stage(self) -> int:
        """The pipeline stage of this Cell (int >= 0; default 0)."""
        return self.__dict__.get("_pipeline_stage", 0)

    @pipeline_stage.setter
    def pipeline_stage(self, value: int) -> None:
        if check_int("Cell", "pipeline_stage", value) < 0:
            raise ValueError(f"For 'Cell', 'pipeline_stage' must be an int >= 0, but got {value}.")
        object.__setattr__(self, "_pipeline_stage", value)
        if value:
            _record(self, "pipeline_stage", "cellax runs one pipeline stage.", stage=value)

    @property
    def parameter_layout_dict(self) -> dict:
        """``{parameter name: layout}`` set by auto-parallel (empty on one device)."""
        return self.__dict__.setdefault("_parameter_layout_dict", {})

    @parameter_layout_dict.setter
    def parameter_layout_dict(self, value: dict) -> None:
        if not isinstance(value, dict):
            raise TypeError(
                f"For 'Cell', 'parameter_layout_dict' must be a dict, but got "
                f"{type(value).__name__}."
            )
        object.__setattr__(self, "_parameter_layout_dict", value)
