"""MindSpore's module path ``mindspore.numpy.array_ops``: the same functions as cellax.numpy."""

from __future__ import annotations

import cellax.numpy as _package

from ._names import array_ops_module as __all__

globals().update({_name: getattr(_package, _name) for _name in __all__})
