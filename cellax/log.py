"""``mindspore.log``: MindSpore's logger (``from mindspore import log as logger``).

Messages go to the standard ``logging`` logger named ``"mindspore"`` on stderr. The level
comes from the ``GLOG_v`` environment variable as in MindSpore (0 DEBUG, 1 INFO, 2 WARNING,
the default, 3 ERROR, 4 CRITICAL).

Examples:
    >>> from cellax import log as logger
    >>> logger.get_level()
    '2'
    >>> logger.info("not shown at the default level")
"""

from __future__ import annotations

import logging
import os
import sys

__all__ = ["debug", "info", "warning", "error", "critical", "exception", "get_level"]

_LEVELS = {"0": logging.DEBUG, "1": logging.INFO, "2": logging.WARNING, "3": logging.ERROR}
_LEVELS["4"] = logging.CRITICAL
_logger = None


def _get_logger() -> logging.Logger:
    global _logger
    if _logger is None:
        logger = logging.getLogger("mindspore")
        level = os.environ.get("GLOG_v", "2")
        logger.setLevel(_LEVELS.get(level, logging.WARNING))
        if not logger.handlers:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(
                logging.Formatter("[%(levelname)s] ME(%(process)d):%(asctime)s %(message)s")
            )
            logger.addHandler(handler)
        logger.propagate = False
        _logger = logger
    return _logger


def debug(msg, *args, **kwargs) -> None:
    """Log a DEBUG message."""
    _get_logger().debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs) -> None:
    """Log an INFO message."""
    _get_logger().info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs) -> None:
    """Log a WARNING message."""
    _get_logger().warning(msg, *args, **kwargs)


def error(msg, *args, **kwargs) -> None:
    """Log an ERROR message."""
    _get_logger().error(msg, *args, **kwargs)


def critical(msg, *args, **kwargs) -> None:
    """Log a CRITICAL message."""
    _get_logger().critical(msg, *args, **kwargs)


def exception(msg, *args, **kwargs) -> None:
    """Log an ERROR message with the current exception's traceback."""
    _get_logger().exception(msg, *args, **kwargs)


def get_level() -> str:
    """The log level as MindSpore's ``GLOG_v`` digit string (``'2'`` is WARNING)."""
    level = _get_logger().level
    for key, value in _LEVELS.items():
        if value == level:
            return key
    return "2"
