"""``mindspore.ops.operations._inner_ops``: the primitive classes MindSpore 2.10 defines there."""

from .._impl.reexport import export

__all__ = export(__name__, "operations._inner_ops", classes_only=True)

from .._impl.primitive import Primitive as _Primitive  # noqa: E402


class Generator(_Primitive):
    """MindSpore's stateful random-number generator primitive (``Generator(seed, offset)``,
    called with a command code). cellax's random state is :class:`cellax.Generator` (JAX keys);
    instances build and raise ``NotImplementedError`` when called."""

    def __init__(self, seed, offset) -> None:
        super().__init__("Generator")
        self.add_prim_attr("seed", seed)
        self.add_prim_attr("offset", offset)

    def __call__(self, cmd, inputs):
        raise NotImplementedError(
            "For 'Generator', cellax can not run MindSpore's generator primitive (its state is a "
            "device-side seed and offset); use cellax.Generator or ops.* random functions instead."
        )


__all__ += ["Generator"]
