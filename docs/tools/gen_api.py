"""The API reference pages: one page per cellax package, generated from its docstrings.

To publish a new package, add its dotted name to ``PACKAGES``. A package that does not import
(not written yet) gets no page and no navigation entry, so the list may name packages that are
still being built.

An object exported by several packages (``cellax.Model`` is ``cellax.train.Model``,
``ops.functional.add`` is ``ops.add``) is documented once, on its *home* page: the listed
package its ``__module__`` lives in (the longest such name), else the first that exports it.
The other pages list it in their tables with a link to that entry.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
import sys

# (module, page title) in navigation order.
PACKAGES = [
    ("cellax", "cellax"),
    ("cellax.nn", "cellax.nn"),
    ("cellax.nn.probability.distribution", "cellax.nn.probability.distribution"),
    ("cellax.nn.utils", "cellax.nn.utils"),
    ("cellax.ops", "cellax.ops"),
    ("cellax.ops.operations", "cellax.ops.operations"),
    ("cellax.ops.functional", "cellax.ops.functional"),
    ("cellax.ops.composite", "cellax.ops.composite"),
    ("cellax.amp", "cellax.amp"),
    ("cellax.train", "cellax.train"),
    ("cellax.context", "cellax.context"),
    ("cellax.common", "cellax.common"),
    ("cellax.common.initializer", "cellax.common.initializer"),
    ("cellax.common.generator", "cellax.common.generator"),
    ("cellax.common.device", "cellax.common.device"),
    ("cellax.common.symbol", "cellax.common.symbol"),
    ("cellax.common.sparse_tensor", "cellax.common.sparse_tensor"),
    ("cellax.dataset", "cellax.dataset"),
    ("cellax.dataset.vision", "cellax.dataset.vision"),
    ("cellax.dataset.transforms", "cellax.dataset.transforms"),
    ("cellax.dataset.text", "cellax.dataset.text"),
    ("cellax.dataset.audio", "cellax.dataset.audio"),
    ("cellax.dataset.audio.utils", "cellax.dataset.audio.utils"),
    ("cellax.dataset.config", "cellax.dataset.config"),
    ("cellax.communication", "cellax.communication"),
    ("cellax.communication.management", "cellax.communication.management"),
    ("cellax.ops.communication", "cellax.ops.communication"),
    ("cellax.parallel", "cellax.parallel"),
    ("cellax.parallel.nn", "cellax.parallel.nn"),
    ("cellax.parallel.auto_parallel", "cellax.parallel.auto_parallel"),
    ("cellax.mint", "cellax.mint"),
    ("cellax.mint.nn", "cellax.mint.nn"),
    ("cellax.mint.nn.functional", "cellax.mint.nn.functional"),
    ("cellax.mint.optim", "cellax.mint.optim"),
    ("cellax.mint.linalg", "cellax.mint.linalg"),
    ("cellax.mint.special", "cellax.mint.special"),
    ("cellax.mint.distributed", "cellax.mint.distributed"),
    ("cellax.numpy", "cellax.numpy"),
    ("cellax.numpy.fft", "cellax.numpy.fft"),
    ("cellax.boost", "cellax.boost"),
    ("cellax.boost.grad_accumulation", "cellax.boost.grad_accumulation"),
    ("cellax.experimental.optim", "cellax.experimental.optim"),
    ("cellax.experimental.optim.lr_scheduler", "cellax.experimental.optim.lr_scheduler"),
    ("cellax.profiler", "cellax.profiler"),
    ("cellax.log", "cellax.log"),
    ("cellax.onnx", "cellax.onnx"),
    ("cellax.debug", "cellax.debug"),
    ("cellax.runtime", "cellax.runtime"),
    ("cellax.device_manager", "cellax.device_manager"),
    ("cellax.device_context.cpu", "cellax.device_context.cpu"),
    ("cellax.device_context.gpu", "cellax.device_context.gpu"),
    ("cellax.device_context.gpu.op_precision", "cellax.device_context.gpu.op_precision"),
    ("cellax.device_context.gpu.op_tuning", "cellax.device_context.gpu.op_tuning"),
    ("cellax.device_context.ascend", "cellax.device_context.ascend"),
    ("cellax.device_context.ascend.op_precision", "cellax.device_context.ascend.op_precision"),
    ("cellax.device_context.ascend.op_tuning", "cellax.device_context.ascend.op_tuning"),
    ("cellax.device_context.ascend.op_debug", "cellax.device_context.ascend.op_debug"),
    ("cellax.hal", "cellax.hal"),
    # module paths zoo code imports by name (issue 34's import sweep)
    ("cellax.ops.auto_generate", "cellax.ops.auto_generate"),
    ("cellax.ops.auto_generate.gen_ops_prim", "cellax.ops.auto_generate.gen_ops_prim"),
    ("cellax.ops.operations.math_ops", "cellax.ops.operations.math_ops"),
    ("cellax.ops.function.math_func", "cellax.ops.function.math_func"),
    ("cellax.common.file_system", "cellax.common.file_system"),
    ("cellax.dataset.engine", "cellax.dataset.engine"),
    ("cellax.parallel.strategy", "cellax.parallel.strategy"),
    ("cellax.profiler.schedule", "cellax.profiler.schedule"),
    ("cellax.mindrecord", "cellax.mindrecord"),
    ("cellax.utils", "cellax.utils"),
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
    # names a package imports on first access (``cellax.DeviceCtx``): not in dir() before then
    names = [*names, *getattr(module, "_LAZY_NAMES", ())]
    functions, classes, other = [], [], []
    for name in sorted(set(names), key=lambda n: (n.lower(), n)):
        value = getattr(module, name)
        if inspect.ismodule(value):
            continue
        home = getattr(value, "__module__", "") or ""
        if inspect.isclass(value) and home.startswith("cellax"):
            classes.append(name)
        elif inspect.isroutine(value) and home.startswith("cellax"):
            functions.append(name)  # (a callable instance, e.g. a MultitypeFuncGraph: other)
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


# Classes whose page also gets a table of all their public methods and attributes: most of
# Tensor's methods are the method forms of ops, attached to the class, which an entry does not
# show (their docstring: "Method form of ``ops.X``"; the table links the op).
MEMBER_TABLES = ["cellax.Tensor"]
METHOD_FORM = re.compile(r"Method form of ``ops\.(\w+)``")

# Members no entry shows (as the ``filters`` option of mkdocs.yml): the Cell protocol's hooks.
HIDDEN_MEMBERS = {"construct", "extend_repr"}


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
        names += [
            n
            for n in vars(base)
            if not n.startswith("_") and n not in vars(cls) and n not in HIDDEN_MEMBERS
        ]
    return sorted(set(names))


def groups() -> dict[str, list[tuple[str, str]]]:
    """{``cellax.X``: [(package, title)]}: the available packages by top-level package."""
    out: dict[str, list[tuple[str, str]]] = {}
    for name, title in PACKAGES:
        if available(name) is not None:
            out.setdefault(".".join(name.split(".")[:2]), []).append((name, title))
    return out


def page_path(name: str) -> str:
    """The page's file. A package heading a navigation section (it has listed subpackages) is
    an ``index.md``, which Material's ``navigation.indexes`` attaches to the section; every
    other page is ``api/<package>.md``. Both are served at ``api/<package>/``."""
    members = groups().get(name)
    return f"api/{name}/index.md" if members and len(members) > 1 else f"api/{name}.md"


def public_entry(path: str) -> str | None:
    """The API entry of the class or function at the dotted ``path`` (a private one, e.g.
    ``cellax.nn._cell._cell.Cell`` -> ``cellax.nn.Cell``), None when it has none."""
    module_name, _, attr = path.rpartition(".")
    module = sys.modules.get(module_name)
    value = getattr(module, attr, None) if module is not None else None
    return None if value is None else homes().get(id(value))


def summary(value) -> str:
    doc = inspect.getdoc(value) or ""
    line = doc.strip().split("\n\n")[0].replace("\n", " ").strip()
    return line.replace("|", "\\|")


def documented_names(module) -> list[str]:
    """The names of ``module`` that get an API entry (its classes, then its functions)."""
    functions, classes, _ = public_members(module)
    return classes + functions


@functools.cache
def homes() -> dict[int, str]:
    """{id(object): identifier of its API entry} for every class and function exported by an
    available package of ``PACKAGES`` (see the module docstring for the rule)."""
    exporters: dict[int, list[str]] = {}
    objects = {}
    lazy = set()
    for package, _ in PACKAGES:
        module = available(package)
        if module is None:
            continue
        lazy.update(f"{package}.{n}" for n in getattr(module, "_LAZY_NAMES", ()))
        for name in documented_names(module):
            value = getattr(module, name)
            objects[id(value)] = value
            exporters.setdefault(id(value), []).append(f"{package}.{name}")
    out = {}
    for key, identifiers in exporters.items():
        where = getattr(objects[key], "__module__", "") or ""

        def depth(identifier: str) -> int:
            package = identifier.rsplit(".", 1)[0]
            inside = where == package or where.startswith(package + ".")
            return len(package) if inside else -1

        # a lazily imported name (``cellax.Layout``) is invisible to mkdocstrings: never a home
        # while another package exports the object
        identifiers = [i for i in identifiers if i not in lazy] or identifiers
        best = max(depth(i) for i in identifiers)
        out[key] = next(i for i in identifiers if depth(i) == best)  # first in PACKAGES order
    return out


def home_package(value) -> str | None:
    """The package whose page documents ``value`` (None: no listed package exports it)."""
    identifier = homes().get(id(value))
    return identifier.rsplit(".", 1)[0] if identifier else None


@functools.cache
def aliases() -> dict[str, str]:
    """{``package.name``: identifier of its API entry} for every exported class and function."""
    table = {}
    for package, _ in PACKAGES:
        module = available(package)
        if module is None:
            continue
        for name in documented_names(module):
            value = getattr(module, name)
            home = homes()[id(value)]
            # a second name of the object in its home package has its own entry
            table[f"{package}.{name}"] = (
                f"{package}.{name}" if home.rsplit(".", 1)[0] == package else home
            )
    return table


def entry(identifier: str) -> str | None:
    """The API entry that documents ``identifier`` (``cellax.Model`` -> ``cellax.train.Model``,
    ``cellax.nn.Cell.cells`` -> ``cellax.nn.Cell.cells``), or None when it names no listed
    class or function. A member's entry exists when the member is public and documented."""
    table = aliases()
    if identifier in table:
        return table[identifier]
    owner, _, member = identifier.rpartition(".")
    if owner in table:
        return f"{table[owner]}.{member}"
    return None


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
    here = {n for n in classes + functions if home_package(getattr(module, n)) == name}
    if len(here) < len(classes) + len(functions):
        lines += [
            "Names documented on another page of this reference (the same object exported "
            "under several paths) link to their entry there.",
            "",
        ]
    for title, group in (("Classes", classes), ("Functions", functions)):
        if not group:
            continue
        lines += [f"## {title}", "", "| name | summary |", "|---|---|"]
        lines += [
            f"| [{n}][{entry(f'{name}.{n}')}] | {summary(getattr(module, n))} |" for n in group
        ]
        lines.append("")
    if other:
        lines += ["## Other names", "", ", ".join(f"`{n}`" for n in other), ""]
    for title, group in (("Classes", classes), ("Functions", functions)):
        group = [n for n in group if n in here]
        if group:
            lines += [f"## {title} in detail", ""]
            for n in group:
                lines.append(f"::: {name}.{n}")
                mixed_in = mixin_members(getattr(module, n))
                if mixed_in:
                    lines += ["    options:", f"      inherited_members: {mixed_in}"]
                lines.append("")
    for n in classes:
        if n in here and f"{name}.{n}" in MEMBER_TABLES:
            lines += member_table(f"{name}.{n}", getattr(module, n))
    return "\n".join(lines)


def member_table(identifier: str, cls) -> list[str]:
    """Markdown: a table of every public method and attribute of ``cls`` (whose entry is
    ``identifier``), each linked to its own entry when it has one, a method form of an op
    linked to the op's entry."""
    short = identifier.rsplit(".", 1)[1]
    lines = [
        f"## {short} methods and attributes",
        "",
        f"Every public method and attribute of `{short}`; where `{short}`'s entry above does "
        "not show one, its line here says what it is.",
        "",
        "| name | summary |",
        "|---|---|",
    ]
    for name in sorted((n for n in dir(cls) if not n.startswith("_")), key=str.lower):
        value = inspect.getattr_static(cls, name)
        doc = inspect.getdoc(value if isinstance(value, property) else getattr(cls, name))
        form = METHOD_FORM.match(doc or "")
        op = form and entry(f"cellax.ops.{form.group(1)}")
        if op:
            text = f"Method form of [`ops.{form.group(1)}`][{op}]."
        else:
            text = (
                summary(value) if doc and (callable(value) or isinstance(value, property)) else ""
            )
        kind = "property" if isinstance(value, property) else "method" if callable(value) else ""
        code = f'<autoref identifier="{identifier}.{name}" optional><code>{name}</code></autoref>'
        lines.append(f"| {code} | {' '.join(filter(None, [kind and f'*{kind}*', text]))} |")
    return [*lines, ""]


def pages() -> dict[str, str]:
    """{page path: markdown} for every package of ``PACKAGES`` that imports."""
    homes.cache_clear()  # a rebuild (``mkdocs serve``) sees the code as it is now
    aliases.cache_clear()
    out = {}
    for name, _ in PACKAGES:
        module = available(name)
        if module is not None:
            out[page_path(name)] = render(name, module)
    return out


def nav() -> list:
    """The "API reference" navigation: a package with listed subpackages is a section headed by
    its own page (Material's ``navigation.indexes``), e.g. ``cellax.ops`` holding
    ``cellax.ops.operations``."""
    out: list = []
    for top, members in groups().items():
        (first, first_title), rest = members[0], members[1:]
        if not rest:
            out.append({first_title: page_path(first)})
        else:
            entries = [page_path(first)] if first == top else [{first_title: page_path(first)}]
            out.append({top: entries + [{title: page_path(name)} for name, title in rest]})
    return out
