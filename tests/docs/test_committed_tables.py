"""Coverage tables that other work commits under docs/ (not generated at build time) are in
step with the code: regenerating them must give the committed file."""

from __future__ import annotations

import importlib.util
import shutil

import pytest

from ._site import ROOT

# (generator script, the name list it reads, the page it writes), all under docs/. (The mint
# table, when it lands, is checked by tests/mint/.)
COMMITTED = [
    ("gen_numpy_coverage.py", "mindspore_numpy_names.txt", "numpy_coverage.md"),
]


@pytest.mark.parametrize("script, names, page", COMMITTED, ids=[c[2] for c in COMMITTED])
def test_committed_coverage_table_is_current(script, names, page, tmp_path):
    docs = ROOT / "docs"
    if not (docs / script).is_file():
        pytest.skip(f"docs/{script} does not exist (yet)")
    shutil.copy(docs / names, tmp_path / names)
    spec = importlib.util.spec_from_file_location(f"_docs_{script[:-3]}", docs / script)
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    generator.HERE = tmp_path  # write next to the copied name list, not into docs/
    generator.main()
    regenerated = (tmp_path / page).read_text()
    assert regenerated == (docs / page).read_text(), f"run `python docs/{script}` and commit"
