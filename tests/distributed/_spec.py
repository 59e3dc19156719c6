"""One spelling of a sharding's partition spec across JAX versions (``P('d0', None)``)."""


def spec(value) -> str:
    """The PartitionSpec of a jax.Array (or of a Sharding) as ``P(...)``; older JAX versions
    print ``PartitionSpec(...)``, newer ones ``P(...)``."""
    sharding = getattr(value, "sharding", value)
    parts = getattr(sharding, "spec", None)
    if parts is None:
        return f"no spec: {type(sharding).__name__}"
    return "P" + repr(tuple(parts))
