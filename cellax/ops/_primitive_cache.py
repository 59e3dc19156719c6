"""``mindspore.ops._primitive_cache``: ``_get_cache_prim(PrimClass)(*attrs)`` returns one
instance per class and attributes (private MindSpore helper that real code calls)."""

from __future__ import annotations

import functools

_CACHE: dict = {}


def _get_cache_prim(cls):
    """A constructor for ``cls`` that reuses the instance built with the same arguments."""

    @functools.wraps(cls)
    def make(*args, **kwargs):
        try:
            key = (cls, args, tuple(sorted(kwargs.items())))
            hash(key)
        except TypeError:
            return cls(*args, **kwargs)
        if key not in _CACHE:
            _CACHE[key] = cls(*args, **kwargs)
        return _CACHE[key]

    return make
