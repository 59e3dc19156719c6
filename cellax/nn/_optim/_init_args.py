"""``opt_init_args_register``: MindSpore's decorator for optimizer ``__init__`` methods
(reached as ``nn.optim.optimizer.opt_init_args_register``)."""

from __future__ import annotations

import inspect

from ..._tensor import Tensor


def opt_init_args_register(fn):
    """Decorate an optimizer ``__init__``: record its arguments on the instance.

    Sets ``init_params`` (``{"params": ...}``, from ``params`` or a wrapped ``optimizer``),
    ``init_learning_rate`` (``None`` for a schedule Cell) and ``init_args`` (the other
    arguments), then runs ``fn``.

    Examples:
        >>> from cellax.nn.optim.optimizer import opt_init_args_register
        >>> class Opt:
        ...     @opt_init_args_register
        ...     def __init__(self, params, learning_rate=0.1, momentum=0.9):
        ...         pass
        >>> o = Opt([1, 2])
        >>> o.init_params, o.init_learning_rate, o.init_args
        ({'params': [1, 2]}, 0.1, {'momentum': 0.9})
    """

    # no functools.wraps: MindSpore's wrapper hides fn's signature, and zoo code depends on it
    # (mindocr's create_optimizer inspects the signature of its AdamW, which names a 'clip'
    # argument it asserts is absent)
    def deco(self, *args, **kwargs):
        from .._cell import Cell

        bound = inspect.signature(fn).bind(self, *args, **kwargs)
        bound.apply_defaults()
        arguments = dict(bound.arguments)
        arguments.pop("self")
        if "params" in arguments:
            self.init_params = {"params": arguments.pop("params")}
        if "optimizer" in arguments:
            self.init_params = {"params": arguments.pop("optimizer").init_params["params"]}
        if "learning_rate" in arguments:
            lr = arguments.pop("learning_rate")
            if isinstance(lr, Tensor):
                lr = lr.asnumpy().tolist()
            self.init_learning_rate = None if isinstance(lr, Cell) else lr
        self.init_args = arguments
        fn(self, *args, **kwargs)

    return deco
