"""MkDocs hooks: add the generated pages (API reference, coverage, differences, plots).

Nothing generated is committed: every ``mkdocs build`` derives these pages from the code, so a
docstring, a new op or a new package shows up on the next build and a broken reference fails
``mkdocs build --strict``.
"""

from __future__ import annotations

import inspect
import pathlib
import re
import sys

from mkdocs.structure.files import File

ROOT = pathlib.Path(__file__).resolve().parents[2]
for path in (ROOT, ROOT / "docs" / "tools"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

import gen_api  # noqa: E402
import gen_coverage  # noqa: E402
import gen_differences  # noqa: E402
import plot_bench  # noqa: E402
import plot_summary  # noqa: E402
import plot_training  # noqa: E402
import plot_w9  # noqa: E402

_PAGES: dict[str, str | bytes] = {}


def _fast_line_numbers() -> None:
    """Line numbers for griffe's inspection without reading source (2/3 of a build's time).

    griffe finds each object's lines with ``inspect.getsourcelines``, which for a class
    re-parses its whole module; the site shows no source, and the numbers only order members
    (``members_order: source``). A function's come from its code object; a class's span its
    methods' first lines. Anything else, or a griffe without this internal, goes the usual way.
    """
    try:
        from griffe._internal.agents.inspector import Inspector
    except ImportError:
        return
    original = getattr(Inspector, "_get_linenos", None)
    if original is None or getattr(original, "fast", False):
        return

    def linenos(self, node):
        if not self.filepath or self.filepath not in self.lines_collection:
            return original(self, node)
        obj = node.obj
        if isinstance(obj, (staticmethod, classmethod)):
            obj = obj.__func__
        if inspect.isclass(obj):
            codes = [getattr(value, "__code__", None) for value in vars(obj).values()]
            firsts = [code.co_firstlineno for code in codes if code is not None]
            return (min(firsts) - 1, max(firsts)) if firsts else original(self, node)
        try:
            code = inspect.unwrap(obj).__code__
        except (AttributeError, ValueError):
            return original(self, node)
        lines = [line for _, _, line in code.co_lines() if line]
        return code.co_firstlineno, max(lines, default=code.co_firstlineno)

    linenos.fast = True
    Inspector._get_linenos = linenos


_fast_line_numbers()


# Pages other work adds to docs/ (a package's coverage table, a guide): each gets its navigation
# entry once the file exists, so the site builds before and after it lands.
# (section of mkdocs.yml's nav, title, file under docs/)
OPTIONAL_PAGES = [
    ("Guides", "Distributed training", "distributed.md"),
    ("Coverage", "cellax.numpy", "numpy_coverage.md"),
    ("Coverage", "cellax.mint", "mint_coverage.md"),
]


def on_config(config):
    _PAGES.clear()
    _PAGES.update(gen_api.pages())
    _PAGES.update(gen_coverage.pages())
    _PAGES.update(gen_differences.pages())
    _PAGES.update(plot_bench.pages())
    _PAGES.update(plot_training.pages())
    _PAGES.update(plot_w9.pages())
    _PAGES.update(plot_summary.pages())
    docs = pathlib.Path(config["docs_dir"])
    for section in config["nav"]:
        if not isinstance(section, dict):
            continue
        if "API reference" in section:
            section["API reference"] = gen_api.nav()
        for name, title, file in OPTIONAL_PAGES:
            if name in section and (docs / file).is_file():
                entries = section[name]
                if not any(file in entry.values() for entry in entries):
                    entries.append({title: file})
    return config


def on_files(files, config):
    for uri, content in _PAGES.items():
        files.append(File.generated(config, uri, content=content))
    return files


# Docstrings use Sphinx roles (:func:`ops.interpolate`, :math:`(N, C)`), which Markdown shows
# literally. Drop the role; a role naming a cellax object becomes an optional cross-reference
# (a link when the object has an API entry, plain code otherwise).
_ROLE = re.compile(r":(math|func|class|meth|attr|obj|mod|data|exc):<code>~?([^<]*)</code>")
_PACKAGES = tuple(sorted({n.split(".")[1] + "." for n, _ in gen_api.PACKAGES if "." in n}))


def _role(match) -> str:
    role, text = match.groups()
    code = f"<code>{text}</code>"
    if role == "math":
        return code
    target = text.rstrip("()")
    if target.startswith("ms."):
        target = "cellax." + target[3:]
    elif target.startswith(_PACKAGES):
        target = "cellax." + target
    target = gen_api.entry(target)  # an alias (``cellax.Model``) links to its home entry
    if target is None:
        return code
    return f'<autoref identifier="{target}" optional>{code}</autoref>'


# A class's "Bases:" line names where the base is defined (``cellax.nn._cell._cell.Cell``);
# a base with an API entry is shown and linked under its public name.
_BASES = re.compile(r"Bases: .*?</p>")
_BASE = re.compile(r"<code>([\w.]+)</code>")


def _base(match) -> str:
    target = gen_api.public_entry(match.group(1))
    if target is None:
        return match.group(0)
    return f'<autoref identifier="{target}" optional><code>{target}</code></autoref>'


def on_page_markdown(markdown, page, config, files):
    markdown = plot_bench.on_page_markdown(markdown)  # the results chart and tables
    markdown = plot_w9.on_page_markdown(markdown)  # the W9 figure and table, where marked
    return plot_summary.on_page_markdown(markdown)  # the loss curve of docs/deploy.md


def on_page_content(html, page, config, files):
    html = _BASES.sub(lambda m: _BASE.sub(_base, m.group(0)), html)
    return _ROLE.sub(_role, html)
