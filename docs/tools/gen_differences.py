"""The "Differences from MindSpore" page, collected from the docstrings.

Every public object (and every public method of a public class) of the packages in
``gen_api.PACKAGES`` whose docstring has a paragraph starting with ``Differences from
MindSpore:`` contributes that paragraph, linked to its API entry. An object exported under
several names is listed once, under its home package (``gen_api``'s rule).
"""

from __future__ import annotations

import inspect

import gen_api

MARKER = "Differences from MindSpore:"


def paragraphs(doc: str) -> list[str]:
    """The "Differences from MindSpore:" paragraphs of a cleaned docstring, text only."""
    found = []
    for block in doc.split("\n\n"):
        text = " ".join(line.strip() for line in block.strip().splitlines())
        if text.startswith(MARKER):
            found.append(text[len(MARKER) :].strip())
    return found


def _static(cls, value) -> bool:
    """``value`` (a member of ``cls``) is written in a class body, where the API reference
    (griffe reads the source) gives it an entry of its own; a method attached at import (the
    Tensor methods registered by ``ops``) is shown in the class's member table instead."""
    func = value.fget if isinstance(value, property) else value
    owner = getattr(func, "__qualname__", "").rpartition(".")[0]
    return bool(owner) and any(owner == base.__qualname__ for base in cls.__mro__)


def documented(module):
    """(qualified name, object, link target) for the public objects that ``module``'s page
    documents (an object exported by several packages is documented, and listed here, on its
    home page)."""
    functions, classes, _ = gen_api.public_members(module)
    functions = [
        n for n in functions if gen_api.home_package(getattr(module, n)) == module.__name__
    ]
    classes = [n for n in classes if gen_api.home_package(getattr(module, n)) == module.__name__]
    for name in classes:
        cls = getattr(module, name)
        qualname = f"{module.__name__}.{name}"
        yield qualname, cls, qualname
        # The members its API entry shows: its own and those of private mixins.
        own = [
            a
            for a in vars(cls)
            if (not a.startswith("_") or a == "__call__") and a not in gen_api.HIDDEN_MEMBERS
        ]
        for attr in own + gen_api.mixin_members(cls):
            value = inspect.getattr_static(cls, attr)
            if isinstance(value, (staticmethod, classmethod)):
                value = value.__func__
            if inspect.isfunction(value) or isinstance(value, property):
                link = f"{qualname}.{attr}" if _static(cls, value) else qualname
                yield f"{qualname}.{attr}", value, link
    for name in functions:
        yield f"{module.__name__}.{name}", getattr(module, name), f"{module.__name__}.{name}"


def collect() -> dict[str, list[tuple[str, str, str]]]:
    """{package: [(qualified name, link target, paragraph)]} over the available packages."""
    seen: set[int] = set()
    out: dict[str, list[tuple[str, str]]] = {}
    for package, _ in gen_api.PACKAGES:
        module = gen_api.available(package)
        if module is None:
            continue
        entries = [(package, package, text) for text in paragraphs(inspect.getdoc(module) or "")]
        for qualname, value, link in documented(module):
            if id(value) in seen:
                continue
            seen.add(id(value))
            doc = inspect.getdoc(value) or ""
            entries += [(qualname, link, text) for text in paragraphs(doc)]
        if entries:
            out[package] = entries
    return out


def pages() -> dict[str, str]:
    collected = collect()
    total = sum(len(v) for v in collected.values())
    lines = [
        "# Differences from MindSpore",
        "",
        "cellax aims to run MindSpore 2.10 code unchanged and print the same results. Where an "
        "API behaves differently, its docstring says so in a paragraph starting with "
        f'"{MARKER}"; this page collects all {total} of them when the site is built '
        "(`docs/tools/gen_differences.py`). Names link to the API reference.",
        "",
    ]
    for package, entries in collected.items():
        lines += [f"## {package}", ""]
        for qualname, link, text in entries:
            # a package's own paragraph links to its page (its docstring heads it, no anchor)
            target = f"({gen_api.page_path(qualname)})" if qualname == package else f"[{link}]"
            lines += [f"- [`{qualname}`]{target}: {text}", ""]
    return {"differences.md": "\n".join(lines)}
