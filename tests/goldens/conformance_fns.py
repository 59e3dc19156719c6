"""Named functions for the transform cases of conformance_more_cases.py: MindSpore 2.10 parses
a function's source, which code exec'd from a string does not have. ``ops`` is bound to the
framework under test by :func:`conformance_more_cases.functions`."""

ops = None


def g(x, y):
    return x * x * y


def f(x, y):
    return x * x * y, (x + y).sum()


def h(x):
    return ops.sin(x) * 2


def sq(x):
    return x * x


def m(x):
    return ops.matmul(x, x)


def c(x):
    return x * x * x
