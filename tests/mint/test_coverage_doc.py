"""docs/mint_coverage.md is what docs/gen_mint_coverage.py generates from the current tree."""

import importlib.util
import pathlib

DOCS = pathlib.Path(__file__).parents[2] / "docs"


def test_mint_coverage_page_is_current():
    spec = importlib.util.spec_from_file_location(
        "gen_mint_coverage", DOCS / "gen_mint_coverage.py"
    )
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text, summary = gen.render()
    assert (DOCS / "mint_coverage.md").read_text() == text, (
        "docs/mint_coverage.md is stale: run python docs/gen_mint_coverage.py"
    )
    assert any("mindspore.mint.optim`: 4 of 4" in line for line in summary), summary
