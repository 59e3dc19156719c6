"""``cellax.alias_mindspore()``: run unmodified MindSpore code on cellax.

The hook makes ``import mindspore`` and ``import mindspore.X.Y`` resolve to cellax's modules:

- ``mindspore`` is a thin module whose ``__version__`` is the MindSpore API level cellax
  follows (``cellax.version.__version__``, ``"2.10.0"``) and whose other attributes are
  cellax's (``mindspore.nn is cellax.nn``);
- ``mindspore.X.Y`` is the module object ``cellax.X.Y`` itself, found by importing it (never
  via ``importlib.util.find_spec``), so classes, module globals and monkey-patches are shared;
- a path cellax lacks raises ``ModuleNotFoundError`` naming ``mindspore.X.Y``; it never falls
  through to a real MindSpore installation;
- ``importlib.metadata`` sees an in-memory ``mindspore`` distribution at that version (no
  ``dist-info`` on disk).

Setting ``CELLAX_ALIAS_MINDSPORE=1`` installs the hook at interpreter start-up (through the
``cellax_alias.pth`` file installed with cellax), so subprocesses alias too;
``python -m cellax run script.py`` sets it for you.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.metadata
import os
import sys
import types
import warnings

__all__ = ["alias_mindspore", "AliasHandle"]

_NAME = "mindspore"
ENV_VAR = "CELLAX_ALIAS_MINDSPORE"


def _mindspore_version() -> str:
    from .version import __version__

    return __version__


class _Distribution(importlib.metadata.Distribution):
    """The in-memory ``mindspore`` distribution reported while the alias is active."""

    def read_text(self, filename):
        if filename == "METADATA":
            return (
                "Metadata-Version: 2.1\n"
                f"Name: {_NAME}\n"
                f"Version: {_mindspore_version()}\n"
                "Summary: MindSpore API provided by cellax (import alias)\n"
            )
        if filename == "top_level.txt":
            return f"{_NAME}\n"
        return None

    def locate_file(self, path):
        import pathlib

        return pathlib.Path(os.path.dirname(os.path.abspath(__file__))) / path


class _Loader(importlib.abc.Loader):
    """Hands the import system an existing module object and leaves its attributes alone."""

    def __init__(self, module: types.ModuleType) -> None:
        self.module = module
        self.saved = {
            key: module.__dict__[key]
            for key in ("__spec__", "__loader__", "__path__", "__file__", "__package__")
            if key in module.__dict__
        }

    def create_module(self, spec):
        return self.module

    def exec_module(self, module) -> None:
        # The import system stamped the alias spec onto the module: put its own back.
        for key in ("__spec__", "__loader__", "__path__", "__file__", "__package__"):
            if key in self.saved:
                module.__dict__[key] = self.saved[key]
            else:
                module.__dict__.pop(key, None)


class _Finder(importlib.abc.MetaPathFinder):
    """Meta-path finder resolving ``mindspore[.X.Y]`` to cellax."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _NAME and not fullname.startswith(_NAME + "."):
            return None
        module = _top_module() if fullname == _NAME else _cellax_module(fullname)
        spec = importlib.machinery.ModuleSpec(
            fullname, _Loader(module), is_package=hasattr(module, "__path__")
        )
        return spec

    def find_distributions(self, context=importlib.metadata.DistributionFinder.Context()):
        name = getattr(context, "name", None)
        if name is None or name.replace("-", "_").lower() == _NAME:
            yield _Distribution()

    def invalidate_caches(self) -> None:
        pass


def _cellax_module(fullname: str) -> types.ModuleType:
    target = "cellax" + fullname[len(_NAME) :]
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if missing == target or target.startswith(missing + "."):
            raise ModuleNotFoundError(
                f"No module named '{fullname}': cellax does not provide '{target}', the module "
                f"that 'import {fullname}' resolves to under cellax.alias_mindspore().",
                name=fullname,
            ) from None
        raise


_top = None


def _top_module() -> types.ModuleType:
    """The thin ``mindspore`` module: own ``__version__``, everything else from cellax."""
    global _top
    if _top is None:
        import cellax

        module = types.ModuleType(_NAME, cellax.__doc__)
        module.__version__ = _mindspore_version()
        module.__file__ = cellax.__file__
        module.__path__ = []  # submodules come from the finder only
        module.__spec__ = importlib.machinery.ModuleSpec(
            _NAME, None, origin=cellax.__file__, is_package=True
        )
        module.__spec__.submodule_search_locations = []

        def __getattr__(name):
            return getattr(cellax, name)

        def __dir__():
            return sorted(set(dir(cellax)) | set(module.__dict__))

        module.__getattr__ = __getattr__
        module.__dir__ = __dir__
        _top = module
        # ``import mindspore`` loads Pillow's Image module (through mindspore.dataset), and
        # MindSpore code relies on it: ``import PIL`` then ``PIL.Image.open(...)``
        try:
            importlib.import_module("PIL.Image")
        except ImportError:
            pass
    return _top


class AliasHandle:
    """What :func:`alias_mindspore` returns: :meth:`remove` undoes the alias."""

    def __init__(self, finder: _Finder) -> None:
        self._finder = finder

    @property
    def active(self) -> bool:
        """Whether the hook is installed."""
        return self._finder in sys.meta_path

    def remove(self) -> None:
        """Uninstall the hook and forget every ``mindspore`` module it made."""
        global _handle
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)
        for name in [n for n in sys.modules if n == _NAME or n.startswith(_NAME + ".")]:
            del sys.modules[name]
        if _handle is self:
            _handle = None


_handle: AliasHandle | None = None


def _installed_mindspore() -> str | None:
    for finder in sys.meta_path:
        if isinstance(finder, _Finder):
            continue
        find = getattr(finder, "find_distributions", None)
        if find is None:
            continue
        context = importlib.metadata.DistributionFinder.Context(name=_NAME)
        for dist in find(context):
            return dist.version
    return None


def alias_mindspore() -> AliasHandle:
    """Make ``import mindspore`` (and every ``mindspore.X.Y``) resolve to cellax.

    Third-party MindSpore code then runs unmodified: ``import mindspore.nn as nn`` gives
    ``cellax.nn`` itself, ``mindspore.__version__`` is the MindSpore API level cellax follows
    (``"2.10.0"``) while ``cellax.__version__`` stays cellax's, and
    ``importlib.metadata.version("mindspore")`` reports that level. Calling it again returns
    the same handle.

    Returns:
        AliasHandle, whose ``remove()`` undoes the alias.

    Raises:
        RuntimeError: If a real MindSpore is already imported in this process.

    Warns:
        UserWarning: If a MindSpore distribution is installed (it is shadowed while the alias
            is active).

    Examples:
        >>> import cellax
        >>> handle = cellax.alias_mindspore()
        >>> import mindspore
        >>> from mindspore import nn
        >>> nn is cellax.nn, mindspore.__version__
        (True, '2.10.0')
        >>> handle.remove()

    Differences from MindSpore: ``importlib.util.find_spec("mindspore.X")`` for a path
    cellax lacks raises ``ModuleNotFoundError`` instead of returning ``None``. Setting an
    attribute on the top-level ``mindspore`` module does not set it on ``cellax``.
    """
    global _handle
    if _handle is not None and _handle.active:
        return _handle
    existing = sys.modules.get(_NAME)
    if existing is not None and existing is not _top:
        raise RuntimeError(
            f"For 'alias_mindspore', a real MindSpore ({getattr(existing, '__file__', '?')}) "
            "is already imported in this process; two frameworks cannot share it. Alias "
            "before anything imports mindspore."
        )
    version = _installed_mindspore()
    if version is not None:
        warnings.warn(
            f"A MindSpore distribution ({version}) is installed; while cellax.alias_mindspore() "
            "is active, 'import mindspore' gives cellax, never it.",
            UserWarning,
            stacklevel=2,
        )
    finder = _Finder()
    sys.meta_path.insert(0, finder)
    _handle = AliasHandle(finder)
    return _handle


def _startup() -> None:
    """Called by ``cellax_alias.pth`` at interpreter start when the variable is ``1``."""
    if os.environ.get(ENV_VAR) == "1":
        alias_mindspore()
