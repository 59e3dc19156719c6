"""Collectives inside a per-rank program (jax.shard_map over 8 devices); prints JSON."""

import json

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

import cellax as ms
from cellax import ops

mesh = jax.make_mesh((8,), ("data",), axis_types=(jax.sharding.AxisType.Auto,))
x = jnp.arange(16.0, dtype=jnp.float32).reshape(8, 2) + 1.0  # rank r holds [2r + 1, 2r + 2]


def per_rank(fn):
    def body(local):
        return fn(ms.Tensor(local))._value

    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("data"), out_specs=P("data")))


result = {}
for op in ("sum", "max", "min", "prod", "avg"):
    out = per_rank(lambda t, op=op: ops.AllReduce(op)(t))(x)
    result[op] = np.asarray(out).tolist()
result["allgather"] = np.asarray(per_rank(lambda t: ops.AllGather()(t))(x)).shape
rs_in = jnp.tile(
    jnp.arange(8.0, dtype=jnp.float32)[:, None], (8, 1)
)  # each rank holds [0..7] as a column
result["reducescatter"] = np.asarray(per_rank(lambda t: ops.ReduceScatter()(t))(rs_in)).tolist()
result["broadcast"] = np.asarray(per_rank(lambda t: ops.Broadcast(3)((t,))[0])(x)).tolist()
a2a_in = jnp.arange(64.0, dtype=jnp.float32).reshape(8, 8)  # rank r holds row r
result["alltoall"] = np.asarray(per_rank(lambda t: ops.AlltoAll(8, 1, 0)(t))(a2a_in)).tolist()
# ops.communication (mint.distributed) in place inside the per-rank program
from cellax.ops import communication as dist  # noqa: E402


def in_place(t):
    dist.all_reduce(t, op="max")
    gathered = ms.Tensor(jnp.zeros((8, 2), jnp.float32))
    dist.all_gather_into_tensor(gathered, t)
    dist.broadcast(gathered, 5)
    return gathered


result["in_place"] = np.asarray(per_rank(in_place)(x)).tolist()
hlo = per_rank(lambda t: ops.AllReduce()(t)).lower(x).compile().as_text()
result["hlo_all_reduce"] = "all-reduce(" in hlo
print("RESULT" + json.dumps(result))
