"""``mindspore.ops.auto_generate.pyboost_inner_prim``: the internal ``*_impl`` entry points of
MindSpore's PyNative kernels (Ascend's ``pyboost``). cellax runs every op through JAX and has
none of them; the module imports, and a name taken from it raises ``AttributeError`` saying
so."""

__all__: list = []


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    raise AttributeError(
        f"For 'mindspore.ops.auto_generate.pyboost_inner_prim', '{name}' is an entry point of "
        "MindSpore's PyNative kernel layer, which cellax does not have; call the public op "
        "(cellax.ops / cellax.mint) instead."
    )
