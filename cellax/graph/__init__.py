"""``mindspore.graph``: MindSpore 2.10's new home of graph-mode helpers; code imports
``graph.api._no_grad`` from here."""

from . import api as api

__all__ = ["api"]
