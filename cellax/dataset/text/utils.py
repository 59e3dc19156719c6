"""``mindspore.dataset.text.utils``: the vocabulary class and the bytes/str helpers."""

from __future__ import annotations

import numpy as np

from ._text import Vocab

__all__ = ["Vocab", "to_bytes", "to_str"]


def to_bytes(array, encoding: str = "utf8") -> np.ndarray:
    """A NumPy array of ``str`` as an array of ``bytes`` (encoded with ``encoding``).

    Examples:
        >>> from cellax.dataset.text.utils import to_bytes
        >>> to_bytes(["ab", "c"]).tolist()
        [b'ab', b'c']
    """
    return np.char.encode(np.asarray(array, dtype=np.str_), encoding)


def to_str(array, encoding: str = "utf8") -> np.ndarray:
    """A NumPy array of ``bytes`` as an array of ``str`` (decoded with ``encoding``).

    Raises:
        TypeError: If ``array`` is not a NumPy array.

    Examples:
        >>> import numpy as np
        >>> from cellax.dataset.text.utils import to_str
        >>> to_str(np.array([b"ab", b"c"])).tolist()
        ['ab', 'c']
    """
    if not isinstance(array, np.ndarray):
        raise TypeError(
            f"For 'to_str', 'array' must be a NumPy array, but got {type(array).__name__}."
        )
    return np.char.decode(array, encoding)
