"""Process-wide parallel state: the auto-parallel settings, the world mesh and input placement.

This module sits on the lowest floor (it imports only JAX and NumPy) so that ``jit``,
``ops`` and ``nn`` can read the parallel mode. The public API lives in ``cellax.context``
(the settings), ``cellax.communication`` (ranks) and ``cellax.parallel`` (layouts).

Ground rules (docs/distributed.md): a MindSpore rank is a JAX process; a program runs over
every device of every process (the "global view"). Under ``DATA_PARALLEL`` and
``HYBRID_PARALLEL`` a compiled step places its batch inputs on ``P('data')`` over the world
mesh and its state (Parameters, optimizer state, random key) replicated, so XLA inserts the
gradient all-reduce itself. Under ``DATA_PARALLEL`` with several processes the step is run
per rank (:func:`per_rank`): each rank computes on its own batch and returns its own outputs,
and the gradient reducer's all-reduce is an explicit collective over the ranks.
"""

from __future__ import annotations

import weakref

import numpy as np

__all__ = [
    "AUTO_PARALLEL",
    "COMM",
    "DATA_AXIS",
    "active",
    "batch_mode",
    "world_mesh",
    "place",
    "STATE_PLACERS",
    "world_size",
    "world_rank",
    "mode",
    "global_view",
    "MODE_OVERRIDE",
    "setting",
    "OPTIMIZER_STATE",
    "host_array",
    "output_sharding",
    "per_rank",
    "collective_axis",
    "rank_sharding",
    "own_row",
]

DATA_AXIS = "data"

# The storage of ``cellax.context``'s auto-parallel settings (filled there with the defaults).
AUTO_PARALLEL: dict = {}


class _Comm:
    """Whether ``communication.init()`` ran, and the groups created since."""

    __slots__ = ("inited", "groups")

    def __init__(self) -> None:
        self.inited = False
        self.groups: dict = {}


COMM = _Comm()

# Called as ``placer(slot, array)`` for each state slot of a compiled step under a parallel
# mode; returns the array on its sharding or None (the default: replicated). Registered by
# higher floors (optimizer-state sharding).
STATE_PLACERS: list = []

# Optimizer state Parameters (moments...), registered by nn.Optimizer, by id: the slots
# ``enable_parallel_optimizer`` shards.
OPTIMIZER_STATE: weakref.WeakValueDictionary = weakref.WeakValueDictionary()

_DISTRIBUTED_MODES = ("data_parallel", "hybrid_parallel", "semi_auto_parallel", "auto_parallel")
_mesh_cache: dict = {}


def host_array(value) -> np.ndarray:
    """A writable NumPy copy of ``value``; an array spread over several processes (a batch
    split over all ranks) is gathered from every process first."""
    if getattr(value, "is_fully_addressable", True) or value.is_fully_replicated:
        return np.array(value)
    from jax.experimental import multihost_utils

    return np.array(multihost_utils.process_allgather(value, tiled=True))


def world_size() -> int:
    """The number of ranks (JAX processes) after ``communication.init()``; 1 before."""
    if not COMM.inited:
        return 1
    import jax

    return jax.process_count()


def world_rank() -> int:
    """This process's rank after ``communication.init()``; 0 before."""
    if not COMM.inited:
        return 0
    import jax

    return jax.process_index()


# ``AutoParallel(net, ...)`` pushes its settings (a dict) here while it runs.
MODE_OVERRIDE: list = []
_DEFAULT = {"parallel_mode": "stand_alone", "dataset_strategy": "data_parallel"}


def setting(key: str):
    """An auto-parallel setting in force (an ``AutoParallel`` call's, else the context's)."""
    if MODE_OVERRIDE and key in MODE_OVERRIDE[-1]:
        return MODE_OVERRIDE[-1][key]
    return AUTO_PARALLEL.get(key, _DEFAULT.get(key))


def mode() -> str:
    """The parallel mode in force."""
    return setting("parallel_mode")


def global_view() -> bool:
    """True when operator strategies apply: SEMI_AUTO/AUTO_PARALLEL over several devices."""
    return mode() in ("semi_auto_parallel", "auto_parallel") and active()


def active() -> bool:
    """True when a parallel mode is set and more than one device takes part."""
    if mode() not in _DISTRIBUTED_MODES:
        return False
    import jax

    return jax.device_count() > 1


def per_rank() -> bool:
    """True when a compiled step runs once per rank on the rank's own batch, as MindSpore's
    ranks do: DATA_PARALLEL over several processes (a process is a rank). Its outputs are
    the rank's own (the loss of its batch); the gradient reducer all-reduces."""
    return mode() == "data_parallel" and world_size() > 1


_WORLD_NAMES = ("hccl_world_group", "nccl_world_group", "mccl_world_group")


def collective_axis(group: str):
    """The bound axis a collective over ``group`` reduces over (a per-rank program:
    ``jax.shard_map``, or a per-rank step), or None in JAX's global view and eagerly.

    The world group and groups from ``create_group`` (all ranks) are the ``'data'`` axis;
    any other name is taken as a mesh axis name.
    """
    from jax import lax

    world = group in _WORLD_NAMES or group in COMM.groups
    name = DATA_AXIS if world else group
    try:
        lax.axis_size(name)
    except NameError:
        return None
    return name


def rank_sharding():
    """Outputs stacked per rank on dim 0: row r on the devices of process r."""
    import jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec

    devices = sorted(jax.devices(), key=lambda d: (d.process_index, d.id))
    key = ("ranks", tuple(d.id for d in devices))
    mesh = _mesh_cache.get(key)
    if mesh is None:
        grid = np.array(devices, dtype=object).reshape(jax.process_count(), -1)
        mesh = _mesh_cache[key] = Mesh(grid, ("ranks", "local"))
    return NamedSharding(mesh, PartitionSpec("ranks"))


def own_row(array):
    """This process's row of an output stacked per rank (:func:`rank_sharding`)."""
    return array.addressable_shards[0].data[0]


def batch_mode() -> bool:
    """True when inputs are split on their first dimension (data-parallel feeding)."""
    if mode() in ("data_parallel", "hybrid_parallel"):
        return True
    return not setting("full_batch") and setting("dataset_strategy") == "data_parallel"


def world_mesh(shape=None, names=(DATA_AXIS,)):
    """A Mesh over every device (process by process), with ``Auto`` axes.

    Args:
        shape: The device-matrix shape; default one axis of all devices.
        names: The axis names.
    """
    import jax
    from jax.sharding import AxisType, Mesh

    devices = jax.devices()
    shape = (len(devices),) if shape is None else tuple(shape)
    key = (tuple(d.id for d in devices), shape, tuple(names))
    mesh = _mesh_cache.get(key)
    if mesh is None:
        grid = np.array(devices, dtype=object).reshape(shape)
        mesh = Mesh(grid, tuple(names), axis_types=(AxisType.Auto,) * len(names))
        _mesh_cache[key] = mesh
    return mesh


def output_sharding(ndim: int):
    """Global view: an unconstrained sharding of ``ndim`` dims on the prime-factor mesh, or None.

    A compiled step whose output layout came from sharding propagation over several operator
    meshes gets that layout named on one input's mesh by JAX, which fails (``IndivisibleError``)
    when that mesh cannot express it (a 2-way split on an 8-device axis). Marking each output
    with this sharding makes JAX name the layout on a mesh of one axis per prime factor of the
    device count in order, which expresses every row-major split of a prime-power count.
    Changes no layout (every dim is unconstrained). None when there is nothing to do.
    """
    import jax
    from jax.sharding import NamedSharding, PartitionSpec

    count = jax.device_count()
    if ndim == 0 or count == 1:
        return None
    factors, rest, p = [], count, 2
    while rest > 1:
        while rest % p == 0:
            factors.append(p)
            rest //= p
        p += 1
    if len(set(factors)) != 1:
        return None  # several primes: no single order expresses every split; JAX decides
    mesh = world_mesh(tuple(factors), tuple(f"u{i}" for i in range(len(factors))))
    return NamedSharding(mesh, PartitionSpec(*[PartitionSpec.UNCONSTRAINED] * ndim))


def _on_world(array) -> bool:
    import jax

    sharding = getattr(array, "sharding", None)
    return sharding is not None and len(sharding.device_set) == jax.device_count()


def _replicate(array):
    import jax
    from jax.sharding import NamedSharding, PartitionSpec

    sharding = NamedSharding(world_mesh(), PartitionSpec())
    if jax.process_count() > 1:
        local = np.asarray(array)
        return jax.make_array_from_process_local_data(sharding, local, local.shape)
    return jax.device_put(array, sharding)


def _split_batch(array):
    import jax
    from jax.sharding import NamedSharding, PartitionSpec

    mesh = world_mesh()
    shape = np.shape(array)
    if jax.process_count() > 1:
        # every process holds its own rank's slice: the global batch is their concatenation
        local = np.asarray(array)
        if not shape:
            return _replicate(array)  # a scalar: the same on every rank
        if shape[0] % jax.local_device_count():
            raise ValueError(
                f"For 'jit', under data parallelism each process's batch is split over its "
                f"{jax.local_device_count()} local devices, but an input has batch dimension "
                f"{shape[0]}. Feed per-rank batches that divide, or set full_batch=True."
            )
        sharding = NamedSharding(mesh, PartitionSpec(DATA_AXIS))
        global_shape = (shape[0] * jax.process_count(),) + tuple(shape[1:])
        return jax.make_array_from_process_local_data(sharding, local, global_shape)
    if not shape or shape[0] % mesh.size:
        return _replicate(array)
    return jax.device_put(array, NamedSharding(mesh, PartitionSpec(DATA_AXIS)))


def _shard_dim0(array, n_bytes_min: int):
    import jax
    from jax.sharding import NamedSharding, PartitionSpec

    mesh = world_mesh()
    shape = np.shape(array)
    nbytes = int(np.prod(shape)) * np.dtype(array.dtype).itemsize if shape else 0
    if not shape or shape[0] % mesh.size or nbytes < n_bytes_min:
        return None
    sharding = NamedSharding(mesh, PartitionSpec(DATA_AXIS))
    if jax.process_count() > 1:
        host = np.asarray(array)
        return jax.make_array_from_callback(shape, sharding, lambda index: host[index])
    return jax.device_put(array, sharding)


def _optimizer_placer(slot, array):
    """``enable_parallel_optimizer``: optimizer state (level1/2), and weights (level3), split
    on dim 0 over all devices when it divides and the tensor reaches the threshold (KB)."""
    if not setting("enable_parallel_optimizer"):
        return None
    config = setting("parallel_optimizer_config") or {}
    level = config.get("optimizer_level", "level1")
    is_state = id(slot) in OPTIMIZER_STATE
    is_weight = level == "level3" and getattr(slot, "requires_grad", False)
    if not (is_state or is_weight) or not getattr(slot, "parallel_optimizer", True):
        return None
    threshold = config.get("parallel_optimizer_threshold", 64)
    return _shard_dim0(array, int(threshold * 1024))


STATE_PLACERS.append(_optimizer_placer)


def place(slots, dynamic: list, store) -> list:
    """Place a compiled step's state and inputs for the current parallel mode.

    State slots not yet on every device become replicated (or what a registered placer
    says), written with ``store(slot, value)`` (``_core.store``); array inputs are split on
    dim 0 over ``'data'`` when :func:`batch_mode` holds and the batch divides, else
    replicated. Arrays already spanning every device are kept.
    """
    for slot in slots:
        value = slot._data
        if _on_world(value):
            continue
        placed = None
        for placer in STATE_PLACERS:
            placed = placer(slot, value)
            if placed is not None:
                break
        store(slot, _replicate(value) if placed is None else placed)
    split = batch_mode()
    return [d if _on_world(d) else (_split_batch(d) if split else _replicate(d)) for d in dynamic]
