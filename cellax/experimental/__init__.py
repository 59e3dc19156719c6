"""``cellax.experimental``: MindSpore 2.10's ``mindspore.experimental`` (``optim.lr_scheduler``).

Examples:
    >>> from cellax.experimental.optim import lr_scheduler
    >>> lr_scheduler.StepLR.__name__
    'StepLR'
"""

from . import optim as optim
