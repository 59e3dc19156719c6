"""The API reference pages: one page per cellax package, generated from its docstrings.

To publish a new package, add its dotted name to ``PACKAGES``. A package that does not import
(not written yet) gets no page and no navigation entry, so the list may name packages that are
still being built.
"""

from __future__ import annotations

import importlib
import inspect
import sys

# (module, page title) in navigation order.
PACKAGES = [
    ("cellax", "cellax"),
    ("cellax.nn", "cellax.nn"),
    ("cellax.ops", "cellax.ops"),
    ("cellax.amp", "cellax.amp"),
    ("cellax.train", "cellax.train"),
    ("cellax.dataset", "cellax.dataset"),
    ("cellax.dataset.vision", "cellax.dataset.vision"),
    ("cellax.dataset.transforms", "cellax.dataset.transforms"),
    ("cellax.dataset.text", "cellax.dataset.text"),
    ("cellax.communication", "cellax.communication"),
    ("cellax.mint", "cellax.mint"),
    ("cellax.numpy", "cellax.numpy"),
    ("cellax.debug", "cellax.debug"),
]


def available(name: str):
    """The imported module ``name``, or None when it does not exist (yet)."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name and (name == error.name or name.startswith(error.name + ".")):
            return None
        raise  # the package exists but one of its own imports is broken: fail the build


def public_members(module) -> tuple[list[str], list[str], list[str]]:
    """(functions, classes, other) public names of ``module`` that cellax defines."""
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    functions, classes, other = [], [], []
    for name in sorted(set(names), key=lambda n: (n.lower(), n)):
        value = getattr(module, name)
        if inspect.ismodule(value):
            continue
        home = getattr(value, "__module__", "") or ""
        if inspect.isclass(value) and home.startswith("cellax"):
            classes.append(name)
        elif callable(value) and home.startswith("cellax") and not inspect.isclass(value):
            functions.append(name)
        else:
            other.append(name)
    return functions, classes, other


def is_public(cls) -> bool:
    """Whether a package of ``PACKAGES`` exports ``cls`` under its name (it has its own entry)."""
    for name, _ in PACKAGES:
        module = sys.modules.get(name)
        if module is not None and getattr(module, cls.__name__, None) is cls:
            return True
    return False


def mixin_members(cls) -> list[str]:
    """Public members ``cls`` gets from private base classes (``Cell``'s mixins, ``_Conv``).

    The class's entry shows them as its own; members of public bases stay on the base's entry
    (``nn.Dense`` does not repeat ``nn.Cell``'s methods).
    """
    if not inspect.isclass(cls):
        return []
    covered = set()  # classes documented through a public base
    for base in cls.__mro__[1:]:
        if base is not object and is_public(base):
            covered.update(base.__mro__)
    names = []
    for base in cls.__mro__[1:]:
        if base is object or base in covered or is_public(base):
            continue
        names += [n for n in vars(base) if not n.startswith("_") and n not in vars(cls)]
    return sorted(set(names))


def page_path(name: str) -> str:
    return f"api/{name}.md"


def summary(value) -> str:
    doc = inspect.getdoc(value) or ""
    line = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return line.replace("|", "\\|")


def render(name: str, module) -> str:
    functions, classes, other = public_members(module)
    lines = [
        f"# {name}",
        "",
        f"::: {name}",
        "    options:",
        "      members: false",
        "      show_root_heading: false",
        "      show_root_toc_entry: false",
        "",
    ]
    for title, group in (("Classes", classes), ("Functions", functions)):
        if not group:
            continue
        lines += [f"## {title}", "", "| name | summary |", "|---|---|"]
        lines += [f"| [{n}][{name}.{n}] | {summary(getattr(module, n))} |" for n in group]
        lines.append("")
    if other:
        lines += ["## Constants", "", ", ".join(f"`{n}`" for n in other), ""]
    for title, group in (("Classes", classes), ("Functions", functions)):
        if group:
            lines += [f"## {title} in detail", ""]
            for n in group:
                lines.append(f"::: {name}.{n}")
                mixed_in = mixin_members(getattr(module, n))
                if mixed_in:
                    lines += ["    options:", f"      inherited_members: {mixed_in}"]
                lines.append("")
    return "\n".join(lines)


def pages() -> dict[str, str]:
    """{page path: markdown} for every package of ``PACKAGES`` that imports."""
    out = {}
    for name, _ in PACKAGES:
        module = available(name)
        if module is not None:
            out[page_path(name)] = render(name, module)
    return out


def nav() -> list[dict[str, str]]:
    return [{title: page_path(name)} for name, title in PACKAGES if available(name) is not None]
