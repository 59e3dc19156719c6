"""``FilterWikipediaXML``, which needs ICU's regular expressions: it imports, and building one
raises."""

from __future__ import annotations

__all__ = ["FilterWikipediaXML"]

_REASON = {"FilterWikipediaXML": "it needs ICU's regular expressions"}


def _class(name: str) -> type:
    message = f"For '{name}', cellax does not have this transform: {_REASON[name]}."

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(message)

    namespace = {
        "__init__": __init__,
        "__doc__": f"MindSpore's ``text.{name}``; building one raises NotImplementedError "
        f"({_REASON[name]}).",
        "__module__": "cellax.dataset.text",
    }
    return type(name, (), namespace)


FilterWikipediaXML = _class("FilterWikipediaXML")
