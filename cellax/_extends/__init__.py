"""``mindspore._extends``: MindSpore's graph-compiler support code; model code takes
``cell_attr_register`` from here.

Examples:
    >>> import cellax as ms
    >>> from cellax._extends import cell_attr_register
    >>> class Scale(ms.nn.Cell):
    ...     @cell_attr_register
    ...     def __init__(self, k, bias=0.0):
    ...         super().__init__()
    ...         self.k = k
    >>> Scale(2.0).cell_init_args
    'Scaledict_values([2.0])'
"""

from __future__ import annotations

import functools
import inspect

__all__ = ["cell_attr_register"]


def cell_attr_register(fn=None, attrs=None):
    """Decorate a Cell's ``__init__`` so that the cell records its construction arguments in
    ``cell_init_args`` (``"ClassName"`` + the arguments given, or the values of the attributes named
    by ``attrs``, a name or a list of names)."""
    if attrs is not None and not isinstance(attrs, (str, list)):
        raise ValueError(
            f"For 'cell_attr_register', 'attrs' must be a str or a list of str, but got {attrs!r}."
        )

    def decorate(init):
        signature = inspect.signature(init)

        @functools.wraps(init)
        def wrapped(self, *args, **kwargs):
            arguments = dict(signature.bind(self, *args, **kwargs).arguments)
            del arguments["self"]
            init(self, *args, **kwargs)
            if attrs is None:  # the values given, printed as MindSpore prints them
                recorded = arguments.values()
            elif isinstance(attrs, str):
                recorded = getattr(self, attrs, [])
            else:
                for item in attrs:
                    if not isinstance(item, str):
                        raise ValueError(
                            f"For 'cell_attr_register', each attr must be a str, but got {item!r}."
                        )
                recorded = [getattr(self, item) for item in attrs if hasattr(self, item)]
            object.__setattr__(self, "cell_init_args", type(self).__name__ + str(recorded))

        return wrapped

    return decorate if fn is None else decorate(fn)
