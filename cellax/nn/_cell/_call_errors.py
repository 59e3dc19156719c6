"""Argument errors of ``Cell.__call__`` that name the Cell the user called."""

from __future__ import annotations

import inspect


def raise_if_unbound(cell, args: tuple, kwargs: dict) -> None:
    """After ``cell.construct(*args, **kwargs)`` raised a TypeError: when the arguments do not
    fit construct's signature, raise a TypeError naming the Cell (Python's own message names
    the class that defines construct, often a private base: ``_RNNBase.construct() takes...``)."""
    try:
        signature = inspect.signature(cell.construct)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*args, **kwargs)
    except TypeError as error:
        name = type(cell).__name__
        raise TypeError(
            f"For '{name}', the inputs must match construct{signature}, but got "
            f"{len(args)} positional and {sorted(kwargs)} keyword input(s): {error}."
        ) from None


def init_signature(cls):
    """The signature of ``cls(...)`` (its ``__init__`` without ``self``), or None."""
    try:
        signature = inspect.signature(cls.__init__)
    except (TypeError, ValueError):
        return None
    params = list(signature.parameters.values())[1:]
    return signature.replace(parameters=params, return_annotation=inspect.Signature.empty)


def raise_if_init_unbound(cls, args: tuple, kwargs: dict) -> None:
    """After ``cls(*args, **kwargs)`` raised a TypeError: when the arguments do not fit its
    ``__init__``, raise a TypeError naming ``cls`` (Python's message names the class defining
    ``__init__``, often a private base: ``_BatchNorm.__init__() got an unexpected ...``)."""
    signature = cls.__signature__
    if signature is None:
        return
    try:
        signature.bind(*args, **kwargs)
    except TypeError as error:
        raise TypeError(
            f"For '{cls.__name__}', the arguments must match {cls.__name__}{signature}: {error}."
        ) from None


class InitSignature:
    """``cls.__signature__`` of a Cell class: its ``__init__``'s, unless the class sets its own
    (a non-data descriptor on the metaclass, so a class attribute of that name wins)."""

    def __get__(self, cls, metaclass=None):
        return self if cls is None else init_signature(cls)
