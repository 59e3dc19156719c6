"""``mkdocs build --strict`` succeeds and produces the generated pages (as ``make docs``)."""

from __future__ import annotations

import html
import json
import re

import importlib
import sys

import pytest

import cellax as ms
from cellax import mint, ops

from ._site import ROOT

sys.path.insert(0, str(ROOT / "docs" / "tools"))
import gen_api  # noqa: E402
import hooks  # noqa: E402

MS_MODULES = (ROOT / "docs" / "tools" / "names" / "mindspore_modules.txt").read_text().split()


def importable(name):
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def read(site, page):
    return (site / page / "index.html").read_text(encoding="utf-8")


def test_strict_build_has_every_page(built_site):
    for page in [
        "",
        "getting_started",
        "migration",
        "differences",
        "architecture",
        "performance",
        "performance_history",
        "tensor",
        "hooks",
        "mixed_precision",
        "checkpoints",
        "coverage/ops",
        "coverage/nn",
        "coverage/cell",
        "coverage/tensor",
        "coverage/packages",
        "coverage/modules",
        "running_mindspore_code",
        "distributed",
        "debugging",
    ]:
        assert "md-search__input" in read(built_site, page), page
    # the generator scripts and name lists beside the pages are not published
    assert not [p.name for p in built_site.glob("*") if p.suffix in {".py", ".json", ".txt"}]
    # every written page (guides other work adds included) is in the navigation
    nav = read(built_site, "")
    for file in (ROOT / "docs").rglob("*.md"):
        page = file.relative_to(ROOT / "docs").with_suffix("").as_posix()
        if page.split("/")[0] != "tools" and page != "index":
            assert f'href="{page}/"' in nav, page
    index = json.loads((built_site / "search" / "search_index.json").read_text())
    assert any(doc["location"].startswith("api/cellax.ops/") for doc in index["docs"])


def test_api_pages_only_for_existing_packages(built_site):
    api = {p.name for p in (built_site / "api").iterdir()}
    for name in ["cellax", "cellax.nn", "cellax.ops", "cellax.amp", "cellax.train"]:
        assert name in api
    for name, _ in gen_api.PACKAGES:
        assert (name in api) == importable(name), name
    nav = read(built_site, "")
    assert 'href="api/cellax.ops.functional/"' in nav and 'href="api/cellax.numpy/"' in nav


def test_an_object_is_documented_once_and_linked_from_its_other_paths(built_site):
    # cellax.Model is cellax.train.Model: one entry, on the train page, linked from `cellax`
    assert 'id="cellax.train.Model"' in read(built_site, "api/cellax.train")
    top = read(built_site, "api/cellax")
    assert 'id="cellax.Model"' not in top
    assert 'href="../cellax.train/#cellax.train.Model"' in top
    # ops.functional re-exports the ops functions: a table of links, no entries of its own
    functional = read(built_site, "api/cellax.ops.functional")
    assert 'href="../cellax.ops/#cellax.ops.add"' in functional
    assert 'id="cellax.ops.functional.add"' not in functional
    # mint's own functions have their entries on the mint page
    own = [
        n
        for n in gen_api.documented_names(mint)
        if gen_api.home_package(getattr(mint, n)) == "cellax.mint"
    ]
    assert own and f'id="cellax.mint.{own[0]}"' in read(built_site, "api/cellax.mint")


def test_optional_pages_are_in_the_navigation(built_site):
    nav = read(built_site, "")
    for section, title, file in hooks.OPTIONAL_PAGES:
        present = (ROOT / "docs" / file).is_file()
        assert (f'href="{file[:-3]}/"' in nav) == present, file
    assert 'href="running_mindspore_code/"' in nav


def test_api_reference_renders_docstrings(built_site):
    html = read(built_site, "api/cellax.ops")
    # every public op has an anchor named after it, with its docstring's first line
    for name in ["interpolate", "mean", "Abs", "conv2d"]:
        assert f'id="cellax.ops.{name}"' in html, name
    first_line = ops.interpolate.__doc__.strip().splitlines()[0]
    assert first_line.split("``")[0][:30] in html
    # Cell's methods live in private mixins; the Cell entry shows them
    nn_page = read(built_site, "api/cellax.nn")
    assert 'id="cellax.nn.Cell.load_state_dict"' in nn_page
    # a base class is named and linked by its public name, not the module defining it
    from cellax import nn

    assert f"<code>{nn.Cell.__module__}.Cell</code>" not in nn_page
    assert 'href="#cellax.nn.Cell"><code>cellax.nn.Cell</code></a>' in nn_page
    # construct is hidden (mkdocs.yml's filters), also where a private base defines it
    assert not re.search(r'id="cellax\.nn\.\w+\.construct"', nn_page)
    # Tensor's methods (mostly attached method forms of ops, which its entry does not show)
    # are all in a table on its page, a method form linked to its op
    import cellax

    top = read(built_site, "api/cellax")
    table = top.split('id="tensor-methods-and-attributes"')[1]
    for name in (n for n in dir(cellax.Tensor) if not n.startswith("_")):
        assert f"<code>{name}</code>" in table, name
    assert 'Method form of <a class="autorefs autorefs-internal"' in table
    assert 'href="../cellax.ops/#cellax.ops.add"><code>ops.add</code></a>' in table


def test_coverage_and_differences_are_generated(built_site):
    ops_page = read(built_site, "coverage/ops")
    n_functions = sum(1 for n in dir(ops) if not n.startswith("_") and callable(getattr(ops, n)))
    assert n_functions > 400
    assert re.search(r"public functions in <code>cellax.ops</code>: <strong>\d+</strong>", ops_page)
    assert "<code>cellax.nn.Cell</code>" in read(built_site, "coverage/cell")
    # Tensor's methods against mindspore.Tensor's: a method form of an op links to the op's
    # entry, others to their own entry where they have one
    import cellax

    tensor = read(built_site, "coverage/tensor")
    ours = [n for n in dir(cellax.Tensor) if not n.startswith("_")]
    assert (
        f"public attributes of <code>cellax.Tensor</code>: <strong>{len(ours)}</strong>" in tensor
    )
    assert 'href="../../api/cellax/#cellax.Tensor.asnumpy"><code>asnumpy</code></a>' in tensor
    covered = tensor.split('id="in-cellax"')[1].split('id="not-yet-in-cellax"')[0]
    assert "<code>reshape</code>" in covered
    assert 'href="../../api/cellax.ops/#cellax.ops.add"><code>add</code></a>' in covered
    modules = read(built_site, "coverage/modules")
    assert (
        "<td><code>mindspore.nn.layer</code></td>\n<td><code>cellax.nn.layer</code></td>" in modules
    )
    assert '<td><a href="../../api/cellax.amp/"><code>cellax.amp</code></a></td>' in modules
    # each recorded MindSpore package: its names cellax has (linked) and those it lacks
    packages = read(built_site, "coverage/packages")
    recorded = json.loads((ROOT / "docs/tools/names/mindspore_packages.json").read_text())
    import cellax.amp

    for path, names in recorded.items():
        assert f'id="{path.replace(".", "")}"' in packages, path  # its section
    amp = packages.split('id="mindsporeamp"')[1].split("<h2")[0]
    for name in recorded["mindspore.amp"]:
        assert f"<code>{name}</code>" in amp and hasattr(cellax.amp, name), name
    assert 'href="../../api/cellax.amp/#cellax.amp.auto_mixed_precision"' in amp
    # a MindSpore module path cellax lacks (whichever it is today) shows a dash
    missing = next(path for path in MS_MODULES if not importable("cellax" + path[9:]))
    assert f"<td><code>{missing}</code></td>\n<td>—</td>" in modules
    differences = read(built_site, "differences")
    # the ops functions whose docstrings have a "Differences from MindSpore:" paragraph (which
    # ones changes as ops conform: ops.interpolate's does today) are collected, linked
    differing = [
        n
        for n in gen_api.documented_names(ops)
        if "Differences from MindSpore:" in (getattr(ops, n).__doc__ or "")
        and gen_api.home_package(getattr(ops, n)) == "cellax.ops"
    ]
    assert differing
    for name in differing:
        assert f'href="../api/cellax.ops/#cellax.ops.{name}"' in differences, name
    assert 'href="../api/cellax.nn/#cellax.nn.Cell.load_state_dict"' in differences


def test_training_curve_figure(built_site):
    svg = (built_site / "images" / "demo_curve.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert 'src="../images/demo_curve.svg"' in read(built_site, "performance")


def test_bench_results_figure_and_table(built_site):
    import plot_bench

    performance = read(built_site, "performance")
    assert plot_bench.MARKER not in performance  # replaced, by the tables or by notes
    for kind, device in plot_bench.RECORDS:
        record = plot_bench.load(kind)
        if record is None:
            assert f"No {device} run has been recorded yet" in performance
            continue
        svg = (built_site / "images" / f"bench_{kind}.svg").read_text()
        assert svg.lstrip().startswith("<?xml") and "<svg" in svg
        assert f'src="../images/bench_{kind}.svg"' in performance
        assert record["command"] in performance


def test_bench_bars_are_same_run_ratios():
    import plot_bench

    def workload(name, unit, **medians):
        rows = [{"impl": impl, "median": m} for impl, m in medians.items()]
        return {"workload": name, "unit": unit, "rows": rows}

    record = {
        "results": [
            workload("W1", "us/step", jax=2.0, cellax=2.2, **{"nnx.jit": 3.0}),
            workload("W7", "us/step", jax=4.0),  # no cellax row: only the reference bar
            {"workload": "W8", "error": "timed out"},
            workload("W2", "us/step", jax=9.0, cellax=3.0),  # no torch: panel left out
        ]
    }
    panels = plot_bench.bars(record)
    assert [title for title, *_ in panels] == ["Compiled training step (jit or GRAPH_MODE)"]
    rows = {(case, label): ratio for case, label, ratio, *_ in panels[0][2]}
    assert rows == {
        ("W1 MLP 784-512-512-10", "hand-written JAX + optax"): 1.0,
        ("W1 MLP 784-512-512-10", "cellax"): pytest.approx(1.1),
        ("W1 MLP 784-512-512-10", "Flax NNX"): pytest.approx(1.5),
        ("W7 LeNet-5", "hand-written JAX + optax"): 1.0,
    }
    torch_run = {"results": [workload("W2", "us/step", torch=2.0, cellax=3.0, jax=8.0)]}
    (title, ref, rows), *_ = plot_bench.bars(torch_run)
    assert ref == "PyTorch eager" and [r[2] for r in rows] == [1.0, 1.5, 4.0]


def test_w9_figure_and_table(built_site):
    import plot_w9

    performance = read(built_site, "performance")
    assert plot_w9.MARKER not in performance  # replaced, by the table or by a note
    if plot_w9.load() is None:
        assert "W9 has not been recorded yet" in performance
        return
    svg = (built_site / "images" / "w9_compile_depth.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert 'src="../images/w9_compile_depth.svg"' in performance
    for impl in plot_w9.load()["impls"]:
        assert f"<td>{impl}</td>" in performance, impl


def test_api_code_blocks_are_doctests(built_site):
    """Code shown on the API pages comes from docstring examples, which ``--doctest-modules``
    runs; the only other blocks allowed are callback signatures (``hook(cell, ...) -> None``)."""
    signature = re.compile(r"^\w+\([^)]*\)\s*->\s*\w+\s*$", re.S)
    for page in (built_site / "api").glob("*/index.html"):
        html_text = page.read_text(encoding="utf-8")
        blocks = re.findall(r'<div class="highlight"><pre[^>]*>(.*?)</pre>', html_text, re.S)
        assert blocks or page.parent.name not in {"cellax", "cellax.ops", "cellax.nn"}, page
        for block in blocks:
            text = html.unescape(re.sub(r"<[^>]+>", "", block))
            assert ">>>" in text or signature.match(text.strip()), (page, text)


# Public modules whose names are not an API: the ``msrun``-like launcher's command line
# (docs/distributed.md shows its use).
# cellax.launch: the msrun launcher's module; node_strategy_pb2: protocol buffer message classes
# that MindSpore's own strategy files use (generated code, nothing to document)
NOT_REFERENCE = {"cellax.launch", "cellax.train.node_strategy_pb2"}


def test_every_public_module_is_in_the_reference():
    """Each class and function a public cellax module defines has an entry on some API page: a
    new package (or module MindSpore code imports by path) must be added to ``gen_api.PACKAGES``."""
    import pkgutil

    import cellax

    homes = gen_api.homes()
    missing = {}
    for info in pkgutil.walk_packages(cellax.__path__, "cellax."):
        if info.name in NOT_REFERENCE or any(p.startswith("_") for p in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        names = gen_api.documented_names(module)
        lacking = [n for n in names if id(getattr(module, n)) not in homes]
        if lacking:
            missing[info.name] = lacking
    assert not missing, missing


def test_summary_loss_curve(built_site):
    import plot_summary

    pytest.importorskip("tensorboardX", reason="the 'summary' extra draws the loss curve")

    deploy = read(built_site, "deploy")
    assert plot_summary.MARKER not in deploy
    svg = (built_site / "images" / "summary_loss.svg").read_text()
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg
    assert "loss/auto, read back from the event file" in svg  # the title, as a comment
    assert 'src="../images/summary_loss.svg"' in deploy


def test_summary_loss_curve_reads_the_event_file(tmp_path):
    """The figure's values are the event file's: what SummaryRecord wrote is read back."""
    import plot_summary

    pytest.importorskip("tensorboardX", reason="the 'summary' extra is absent")

    with ms.SummaryRecord(str(tmp_path)) as record:
        for step, value in ((1, 0.5), (3, 0.25)):
            record.add_value("scalar", "loss/auto", ms.Tensor(value))
            record.add_value("histogram", "w", ms.Tensor([1.0, 2.0]))
            record.record(step)
    assert plot_summary.read_scalars(str(tmp_path)) == {"loss/auto": [(1, 0.5), (3, 0.25)]}
    assert "Net(nn.Cell)" in plot_summary.script()  # the page's block the build runs
