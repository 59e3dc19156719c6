"""The implementation of ``cellax.ops``, one module per concept (``ops/README.md``)."""
