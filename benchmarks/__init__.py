"""cellax benchmarks: cellax next to hand-written JAX + optax (Flax NNX, Equinox, PyTorch eager).

Run everything with ``make bench`` or ``python benchmarks/run.py`` (``--quick`` for a smoke
run). Each workload module (``w*_*.py``) runs on its own as
``python -m benchmarks.<module> --json`` and prints one JSON result; ``run.py`` starts one
fresh process per workload and prints the table.
"""
