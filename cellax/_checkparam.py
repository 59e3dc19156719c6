"""``mindspore._checkparam``: the module-level argument checks that MindSpore code imports
(``from mindspore import _checkparam as validator``; ``validator.check_positive_int(...)``).

MindSpore 2.10 has no ``Validator`` class; these functions and the relation constants
(``EQ``... ``INC_BOTH``) are the whole API. Each returns the checked value and raises
``TypeError``/``ValueError`` with MindSpore's messages.

Examples:
    >>> from cellax import _checkparam as validator
    >>> validator.check_positive_int(3, "k", "Conv2d"), validator.twice(3)
    (3, (3, 3))
    >>> validator.check_int_range(5, 0, 3, validator.INC_LEFT, "k", "Op")
    Traceback (most recent call last):
    ...
    ValueError: For 'Op', the 'k' must be in range of [0, 3), but got 5 with type 'int'.
"""

from __future__ import annotations

import functools
import inspect

EQ, NE, LT, LE, GT, GE = 1, 2, 3, 4, 5, 6
INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH = 7, 8, 9, 10
IN, NOT_IN = 11, 12

_REL = {
    EQ: ("=", lambda a, b: a == b),
    NE: ("!=", lambda a, b: a != b),
    LT: ("<", lambda a, b: a < b),
    LE: ("<=", lambda a, b: a <= b),
    GT: (">", lambda a, b: a > b),
    GE: (">=", lambda a, b: a >= b),
}
_RANGE = {
    INC_NEITHER: ("(", ")", lambda v, lo, hi: lo < v < hi),
    INC_LEFT: ("[", ")", lambda v, lo, hi: lo <= v < hi),
    INC_RIGHT: ("(", "]", lambda v, lo, hi: lo < v <= hi),
    INC_BOTH: ("[", "]", lambda v, lo, hi: lo <= v <= hi),
}


def _prefix(prim_name, arg_name) -> str:
    """ "For 'Op', the 'x'" or "The 'x'"."""
    if prim_name:
        return f"For '{prim_name}', the '{arg_name}'"
    return f"The '{arg_name}'"


def _number_prefix(prim_name, arg_name) -> str:
    """_prefix, with MindSpore's "input value" for a number check given no name."""
    if arg_name:
        return _prefix(prim_name, arg_name)
    return f"For '{prim_name}', the input value" if prim_name else "The input value"


def _type_prefix(prim_name) -> str:
    return f"For '{prim_name}', the type of" if prim_name else "The type of"


def _check_number(arg_value, value, rel, kind, arg_name, prim_name):
    if isinstance(arg_value, bool) or not isinstance(arg_value, kind):
        raise TypeError(
            f"{_number_prefix(prim_name, arg_name)} must be {kind.__name__}, "
            f"but got '{type(arg_value).__name__}'"
        )
    sign, ok = _REL[rel]
    if not ok(arg_value, value):
        raise ValueError(
            f"{_number_prefix(prim_name, arg_name)} must be {kind.__name__} and must {sign} {value}, "
            f"but got '{arg_value}' with type '{type(arg_value).__name__}'."
        )
    return arg_value


def _check_sign(arg_value, value, rel, kind, arg_name, prim_name):
    if isinstance(arg_value, bool):
        sign = _REL[rel][0]
        raise TypeError(
            f"{_number_prefix(prim_name, arg_name)} must be {kind.__name__} and must {sign} {value}, "
            f"but got '{arg_value}' with type 'bool'."
        )
    return _check_number(arg_value, value, rel, kind, arg_name, prim_name)


def check_int(arg_value, value, rel, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int with ``arg_value <rel> value``."""
    return _check_sign(arg_value, value, rel, int, arg_name, prim_name)


def check_float(arg_value, value, rel, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float with ``arg_value <rel> value``."""
    return _check_sign(arg_value, value, rel, float, arg_name, prim_name)


def check_positive_int(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int > 0."""
    return _check_sign(arg_value, 0, GT, int, arg_name, prim_name)


def check_negative_int(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int < 0."""
    return _check_sign(arg_value, 0, LT, int, arg_name, prim_name)


def check_non_positive_int(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int <= 0."""
    return _check_sign(arg_value, 0, LE, int, arg_name, prim_name)


def check_non_negative_int(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int >= 0."""
    return _check_sign(arg_value, 0, GE, int, arg_name, prim_name)


def check_equal_int(arg_value, value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int equal to ``value``."""
    return _check_sign(arg_value, value, EQ, int, arg_name, prim_name)


def check_positive_float(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float > 0."""
    return _check_sign(arg_value, 0, GT, float, arg_name, prim_name)


def check_negative_float(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float < 0."""
    return _check_sign(arg_value, 0, LT, float, arg_name, prim_name)


def check_non_positive_float(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float <= 0."""
    return _check_sign(arg_value, 0, LE, float, arg_name, prim_name)


def check_non_negative_float(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float >= 0."""
    return _check_sign(arg_value, 0, GE, float, arg_name, prim_name)


def check_number(arg_name, arg_value, value, rel, prim_name):
    """Check the number ``arg_value <rel> value``."""
    sign, ok = _REL[rel]
    if not ok(arg_value, value):
        raise ValueError(
            f"For '{prim_name}', the argument '{arg_name}' must {sign} {value}, but got {arg_value}."
        )
    return arg_value


def check_is_int(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int (not a bool)."""
    if isinstance(arg_value, int) and not isinstance(arg_value, bool):
        return arg_value
    raise TypeError(
        f"{_type_prefix(prim_name)} '{arg_name}' must be 'int', "
        f"but got '{type(arg_value).__name__}'."
    )


def check_is_float(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a float."""
    if isinstance(arg_value, float):
        return arg_value
    raise TypeError(
        f"{_type_prefix(prim_name)} '{arg_name}' must be 'float', "
        f"but got '{type(arg_value).__name__}'."
    )


def check_is_number(arg_value, arg_type, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int or float (not a bool)."""
    if isinstance(arg_value, (int, float)) and not isinstance(arg_value, bool):
        return arg_value
    raise TypeError(
        f"{_type_prefix(prim_name)} '{arg_name}' must be 'int' or 'float', "
        f"but got '{type(arg_value).__name__}'."
    )


def _check_range(arg_value, lower, upper, rel, kinds, arg_name, prim_name):
    if isinstance(arg_value, bool) or not isinstance(arg_value, kinds):
        raise TypeError(
            f"{_type_prefix(prim_name)} '{arg_name}' must be "
            f"{' or '.join(k.__name__ for k in kinds)}, but got '{type(arg_value).__name__}'."
        )
    left, right, ok = _RANGE[rel]
    if not ok(arg_value, lower, upper):
        raise ValueError(
            f"{_prefix(prim_name, arg_name)} must be in range of {left}{lower}, {upper}{right}, "
            f"but got {arg_value} with type '{type(arg_value).__name__}'."
        )
    return arg_value


def check_int_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """Check ``arg_value`` is an int inside the range (``rel``: ``INC_LEFT``...)."""
    return _check_range(arg_value, lower_limit, upper_limit, rel, (int,), arg_name, prim_name)


def check_float_range(arg_value, lower_limit, upper_limit, rel, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a number inside the range (``rel``: ``INC_LEFT``...)."""
    return _check_range(arg_value, lower_limit, upper_limit, rel, (float, int), arg_name, prim_name)


def check_number_range(
    arg_value, lower_limit, upper_limit, rel, value_type, arg_name=None, prim_name=None
):
    """Check ``arg_value`` is a ``value_type`` inside the range."""
    kinds = value_type if isinstance(value_type, tuple) else (value_type,)
    if float in kinds:
        kinds = (*kinds, int)
    return _check_range(arg_value, lower_limit, upper_limit, rel, kinds, arg_name, prim_name)


def check_bool(arg_value, arg_name=None, prim_name=None):
    """Check ``arg_value`` is a bool."""
    if not isinstance(arg_value, bool):
        raise TypeError(
            f"{_prefix(prim_name, arg_name)} must be a bool, but got {type(arg_value).__name__}."
        )
    return arg_value


def check_string(arg_value, valid_values, arg_name=None, prim_name=None):
    """Check ``arg_value`` is one of the strings ``valid_values``."""
    if isinstance(arg_value, str) and arg_value in valid_values:
        return arg_value
    raise ValueError(
        f"{_prefix(prim_name, arg_name)} must be str and must be in '{valid_values}', "
        f"but got '{arg_value}'."
    )


def check_value_type(arg_name, arg_value, valid_types, prim_name=None):
    """Check ``arg_value`` is an instance of one of ``valid_types`` (a bool is not an int)."""
    valid = tuple(valid_types) if isinstance(valid_types, (list, tuple)) else (valid_types,)
    ok = isinstance(arg_value, valid) and not (isinstance(arg_value, bool) and bool not in valid)
    if ok:
        return arg_value
    names = [t.__name__ for t in valid]
    expected = f"'{names[0]}'" if len(names) == 1 else f"one of {names}"
    raise TypeError(
        f"{_type_prefix(prim_name)} '{arg_name}' should be {expected}, "
        f"but got type '{type(arg_value).__name__}'."
    )


def check_isinstance(arg_name, arg_value, classes):
    """Check ``isinstance(arg_value, classes)``."""
    if not isinstance(arg_value, classes):
        raise ValueError(
            f"The parameter '{arg_name}' must be isinstance of {classes}, but got {arg_value}."
        )
    return arg_value


def check(arg_name, arg_value, value_name, value, rel=EQ, prim_name=None, excp_cls=ValueError):
    """Check ``arg_value <rel> value`` for two named arguments."""
    sign, ok = _REL[rel]
    if not ok(arg_value, value):
        prefix = f"For '{prim_name}', the" if prim_name else "The"
        raise excp_cls(
            f"{prefix} '{arg_name}' should be {sign} {value_name}: {value}, but got {arg_value}."
        )
    return arg_value


def _check_sequence(sequence, arg_name, prim_name, check_one):
    if not isinstance(sequence, (tuple, list)):
        raise TypeError(
            f"{_type_prefix(prim_name)} '{arg_name}' must be 'tuple' or 'list', "
            f"but got '{type(sequence).__name__}'."
        )
    for i, value in enumerate(sequence):
        check_one(value, f"{arg_name}[{i}]", prim_name)
    return sequence


def check_positive_int_sequence(sequence, arg_name=None, prim_name=None):
    """Check every element is an int > 0."""
    return _check_sequence(sequence, arg_name, prim_name, check_positive_int)


def check_non_negative_int_sequence(sequence, arg_name=None, prim_name=None):
    """Check every element is an int >= 0."""
    return _check_sequence(sequence, arg_name, prim_name, check_non_negative_int)


def check_positive_float_sequence(sequence, arg_name=None, prim_name=None):
    """Check every element is a float > 0."""
    return _check_sequence(sequence, arg_name, prim_name, check_positive_float)


def _dtype_names(types) -> str:
    return "[" + ", ".join(str(t) for t in types) + "]"


def check_type_name(arg_name, arg_type, valid_types, prim_name):
    """Check the dtype ``arg_type`` is one of ``valid_types``."""
    if arg_type in valid_types:
        return arg_type
    raise TypeError(
        f"For '{prim_name}', the '{arg_name}' should be one of {_dtype_names(valid_types)}, "
        f"but got '{arg_type}'."
    )


def check_subclass(arg_name, type_, template_types, prim_name, addition_error_info=None):
    """Check the dtype ``type_`` is one of ``template_types``."""
    types = template_types if isinstance(template_types, (list, tuple)) else [template_types]
    if type_ in types:
        return type_
    raise TypeError(
        f"For '{prim_name}', the element of '{arg_name}' must be "
        f"{' or '.join(str(t) for t in types)}, but got {type_}."
    )


def check_tensor_dtype_valid(arg_name, arg_type, valid_dtypes, prim_name):
    """Check a Tensor dtype is one of ``valid_dtypes``."""
    if arg_type in valid_dtypes:
        return arg_type
    raise TypeError(
        f"For '{prim_name}', the element of '{arg_name}' must be "
        f"Tensor[{' or '.join(str(t) for t in valid_dtypes)}], but got {arg_type}."
    )


def check_types_same_and_valid(args, valid_values, prim_name):
    """Check the dtypes in the dict ``args`` are equal and in ``valid_values``."""
    types = list(args.items())
    for name, value in types:
        check_tensor_dtype_valid(name, value, valid_values, prim_name)
    first_name, first = types[0] if types else (None, None)
    for name, value in types[1:]:
        if value != first:
            raise TypeError(
                f"For '{prim_name}', the dtype of '{name}' should be the same as "
                f"'{first_name}', but got {value} and {first}."
            )
    return first


def _repeat(n: int, name: str):
    def expand(m):
        if isinstance(m, (tuple, list)):
            if len(m) != n:
                raise ValueError(f"For '{name}', the length must be {n}, but got {len(m)}.")
            return tuple(m)
        return (m,) * n

    expand.__name__ = name
    expand.__doc__ = f"``m`` repeated to a {n}-tuple (a sequence of length {n} kept)."
    return expand


once = _repeat(1, "once")
twice = _repeat(2, "twice")
triple = _repeat(3, "triple")


def args_type_check(*type_args, **type_kwargs):
    """Decorator checking the types of a function's arguments (``TypeError`` on mismatch)."""

    def deco(fn):
        sig = inspect.signature(fn)
        expected = sig.bind_partial(*type_args, **type_kwargs).arguments

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            for name, value in sig.bind(*args, **kwargs).arguments.items():
                if name in expected and value is not None and not isinstance(value, expected[name]):
                    raise TypeError(
                        f"The parameter '{name}' must be {expected[name]}, but got {type(value)}"
                    )
            return fn(*args, **kwargs)

        return wrapper

    return deco
