"""``MSContext``: the C++ context singleton, as far as model code queries it."""

from __future__ import annotations

__all__ = ["MSContext"]


class MSContext:
    """MindSpore's C++ context object; ``MSContext.get_instance()`` returns the one instance.

    Examples:
        >>> from cellax._c_expression import MSContext
        >>> MSContext.get_instance().get_ascend_soc_version()
        ''
    """

    _instance: MSContext | None = None

    @classmethod
    def get_instance(cls) -> MSContext:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def get_ascend_soc_version(self) -> str:
        """The Ascend chip's name (``"ascend910b"``...); ``""`` as on MindSpore's CPU and GPU
        builds, since cellax never runs on an Ascend chip."""
        return ""

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(
            f"For 'MSContext', '{name}' is part of MindSpore's C++ context, which cellax does "
            "not provide. Use cellax.get_context / cellax.set_context."
        )
