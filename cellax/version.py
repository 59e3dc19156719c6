"""``mindspore.version``: the MindSpore API level cellax follows.

``cellax.version.__version__`` (and ``mindspore.__version__`` under
:func:`cellax.alias_mindspore`) is the MindSpore release whose API cellax implements;
``cellax.__version__`` is cellax's own release.

Examples:
    >>> from cellax import version
    >>> version.__version__
    '2.10.0'
"""

__version__ = "2.10.0"
