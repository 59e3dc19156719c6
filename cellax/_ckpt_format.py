"""Compatibility shim: the ``.ckpt`` format now lives in :mod:`cellax._serialization._format`."""

from ._serialization._format import *  # noqa: F401,F403
