"""The coverage pages: cellax's names against MindSpore 2.10's (``names/*.txt``).

The name lists come from real MindSpore via ``record_ms_names.py``; this module compares them
with what cellax defines at build time. ``python docs/tools/gen_coverage.py`` prints the counts.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib

import gen_api

NAMES = pathlib.Path(__file__).parent / "names"
HIDDEN_MEMBERS = gen_api.HIDDEN_MEMBERS
METHOD_FORM = gen_api.METHOD_FORM


def reference(name: str) -> list[str]:
    return [n for n in (NAMES / f"mindspore_{name}.txt").read_text().split() if n]


def public(module, keep=lambda value: True) -> list[str]:
    return sorted(n for n in dir(module) if not n.startswith("_") and keep(getattr(module, n)))


def codes(names, link_prefix: str | None = None, linkable=None) -> str:
    """Names as code, linked to their API entries (``linkable``: the names that have one; a
    dict: {name: the entry documenting it}, the other names linked where the API reference
    happens to have an entry)."""
    if not names:
        return "(none)"

    def code(n: str) -> str:
        if link_prefix is not None and isinstance(linkable, dict):
            if n in linkable:
                return f"[`{n}`][{linkable[n]}]"
            target = gen_api.entry(link_prefix.rstrip(".")) + "." + n
            return f'<autoref identifier="{target}" optional><code>{n}</code></autoref>'
        if link_prefix is not None and (linkable is None or n in linkable):
            target = gen_api.entry(link_prefix + n)  # an alias links to its home entry
            if target is not None:
                return f"[`{n}`][{target}]"
        return f"`{n}`"

    return ", ".join(code(n) for n in names)


def percent(part: int, whole: int) -> str:
    return f"{100 * part // max(whole, 1)}%"


def compare_page(
    title, intro, facts, ours, theirs, link_prefix, extra_label, extra_from=None, linkable=None
):
    ours_set, theirs_set = set(ours), set(theirs)
    covered = [n for n in theirs if n in ours_set]
    missing = [n for n in theirs if n not in ours_set]
    extra = [n for n in (ours if extra_from is None else extra_from) if n not in theirs_set]
    lines = [
        f"# {title}",
        "",
        intro,
        "",
        *(f"- {fact}" for fact in facts),
        f"- MindSpore 2.10 names: {len(theirs)}, of which cellax has **{len(covered)}** "
        f"({percent(len(covered), len(theirs))})",
        "",
        "## In cellax",
        "",
        codes(covered, link_prefix, linkable),
        "",
        "## Not (yet) in cellax",
        "",
        codes(missing),
        "",
        f"## {extra_label}",
        "",
        codes(extra, link_prefix, linkable),
        "",
    ]
    return "\n".join(lines), (len(covered), len(theirs))


GENERATED = (
    "Generated from the code when the site is built (`docs/tools/gen_coverage.py`); the "
    "MindSpore names were recorded from MindSpore 2.10 by `docs/tools/record_ms_names.py`."
)


def ops_page():
    import cellax.ops as ops

    functions = public(ops, inspect.isfunction)
    classes = public(ops, inspect.isclass)
    return compare_page(
        "cellax.ops coverage",
        GENERATED + " Compared: the functions of `mindspore.ops` (a primitive class of the same "
        "name counts too).",
        [
            f"public functions in `cellax.ops`: **{len(functions)}**",
            f"primitive classes in `cellax.ops`: **{len(classes)}**",
        ],
        sorted(set(functions) | set(classes)),
        reference("ops"),
        "cellax.ops.",
        "cellax.ops functions that are not MindSpore ops functions",
        extra_from=functions,
    )


def nn_page():
    import cellax.nn as nn

    ours = public(nn, lambda v: inspect.isclass(v) or inspect.isfunction(v))
    return compare_page(
        "cellax.nn coverage",
        GENERATED + " Compared: the classes and functions of `mindspore.nn`.",
        [f"public classes and functions in `cellax.nn`: **{len(ours)}**"],
        ours,
        reference("nn"),
        "cellax.nn.",
        "cellax.nn names that MindSpore's nn does not have",
    )


def cell_page():
    import cellax.nn as nn

    ours = sorted(n for n in dir(nn.Cell) if not n.startswith("_"))
    # Methods and properties with a docstring have an entry on the nn page, except those that
    # mkdocs.yml's ``filters`` hide (every Cell has them).
    linkable = {
        n
        for n in ours
        if documented_member(inspect.getattr_static(nn.Cell, n)) and n not in HIDDEN_MEMBERS
    }
    return compare_page(
        "nn.Cell methods and attributes",
        GENERATED + " Compared: the public attributes (methods, properties, class attributes) "
        "of `mindspore.nn.Cell`.",
        [f"public attributes of `cellax.nn.Cell`: **{len(ours)}**"],
        ours,
        reference("cell"),
        "cellax.nn.Cell.",
        "cellax.nn.Cell attributes that MindSpore's Cell does not have",
        linkable=linkable,
    )


def tensor_page():
    import cellax

    ours = sorted(n for n in dir(cellax.Tensor) if not n.startswith("_"))
    # "Method form of ``ops.X``" methods link to the op's entry
    forms = {}
    for name in ours:
        found = METHOD_FORM.match(inspect.getdoc(getattr(cellax.Tensor, name)) or "")
        target = found and gen_api.entry(f"cellax.ops.{found.group(1)}")
        if target:
            forms[name] = target
    return compare_page(
        "Tensor methods and attributes",
        GENERATED + " Compared: the public attributes (methods, properties) of "
        "`mindspore.Tensor`. A method that is the method form of an op (`x.add(y)` is "
        "`ops.add(x, y)`) links to the op's entry; the others link to their own entry where "
        "they have one.",
        [f"public attributes of `cellax.Tensor`: **{len(ours)}**"],
        ours,
        reference("tensor"),
        "cellax.Tensor.",
        "cellax.Tensor attributes that MindSpore's Tensor does not have",
        linkable=forms,
    )


def documented_member(value) -> bool:
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    return (inspect.isfunction(value) or isinstance(value, property)) and bool(value.__doc__)


def importable(path: str) -> bool:
    try:
        importlib.import_module(path)
    except ImportError:
        return False
    return True


def modules_page():
    theirs = reference("modules")
    rows, present = [], 0
    documented = {n for n, _ in gen_api.PACKAGES if gen_api.available(n) is not None}
    for path in theirs:
        ours = "cellax" + path[len("mindspore") :]
        ok = importable(ours)
        present += ok
        cell = f"`{ours}`" if ok else "—"
        if ok and ours in documented:  # linked to its API page
            cell = f"[{cell}](../{gen_api.page_path(ours)})"
        rows.append(f"| `{path}` | {cell} |")
    lines = [
        "# Module paths",
        "",
        GENERATED + " A MindSpore module path counts when the same path under `cellax` "
        "imports (`import mindspore.nn as nn` becomes `import cellax.nn as nn`); a path with "
        "its own page in the API reference links to it.",
        "",
        f"- MindSpore 2.10 module paths: {len(theirs)}, of which cellax has **{present}** "
        f"({percent(present, len(theirs))})",
        "",
        "| MindSpore | cellax |",
        "|---|---|",
        *rows,
        "",
    ]
    return "\n".join(lines), (present, len(theirs))


def packages_page():
    theirs = json.loads((NAMES / "mindspore_packages.json").read_text())
    sections, present, total = [], 0, 0
    for path, names in theirs.items():
        ours_path = "cellax" + path[len("mindspore") :]
        module = importlib.import_module(ours_path) if importable(ours_path) else None
        covered = [n for n in names if module is not None and hasattr(module, n)]
        missing = [n for n in names if n not in covered]
        present, total = present + len(covered), total + len(names)
        where = f"[`{ours_path}`](../{gen_api.page_path(ours_path)})"
        if gen_api.available(ours_path) is None:
            where = f"`{ours_path}`" if module is not None else "no such module yet"
        linkable = {n for n in covered if gen_api.entry(f"{ours_path}.{n}")}
        sections += [
            f"## {path}",
            "",
            f"{len(names)} classes and functions; {where} has **{len(covered)}** "
            f"({percent(len(covered), len(names))}).",
            "",
            "In cellax: " + codes(covered, f"{ours_path}.", linkable),
            "",
            "Not (yet) in cellax: " + codes(missing),
            "",
        ]
    lines = [
        "# Packages",
        "",
        GENERATED + " Compared, for each MindSpore package below: the classes and functions "
        "it exports (its `__all__`, else its public names); a name counts when the same "
        "`cellax` package has it. `mindspore.ops`, `mindspore.nn`, `mindspore.mint` and "
        "`mindspore.numpy` have pages of their own.",
        "",
        f"- MindSpore 2.10 names: {total}, of which cellax has **{present}** "
        f"({percent(present, total)})",
        "",
        *sections,
    ]
    return "\n".join(lines), (present, total)


PAGES = {
    "coverage/ops.md": ops_page,
    "coverage/nn.md": nn_page,
    "coverage/cell.md": cell_page,
    "coverage/tensor.md": tensor_page,
    "coverage/modules.md": modules_page,
    "coverage/packages.md": packages_page,
}


def pages() -> dict[str, str]:
    return {uri: make()[0] for uri, make in PAGES.items()}


def main() -> None:
    for uri, make in PAGES.items():
        covered, total = make()[1]
        print(f"{uri}: {covered}/{total} MindSpore names")


if __name__ == "__main__":
    main()
