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
