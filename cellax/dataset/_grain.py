"""Import grain without configuring the root logger.

grain imports orbax, whose import logs through absl; absl calls ``logging.basicConfig()`` when
the root logger has no handler yet. That handler would turn a later
``logging.basicConfig(level=logging.INFO)`` in the user's script into a no-op, and the script's
INFO lines would vanish (MindSpore's own ``mindspore.dataset`` leaves the root logger alone).
A placeholder handler during the import keeps absl from doing it.
"""

from __future__ import annotations

import logging

_root = logging.getLogger()
_placeholder = logging.NullHandler()
_root.addHandler(_placeholder)
try:
    import grain as grain
finally:
    _root.removeHandler(_placeholder)
