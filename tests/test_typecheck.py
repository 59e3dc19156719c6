"""The type-check inputs stay in step with the public API (``make lint`` runs basedpyright)."""

import pathlib
import runpy

HERE = pathlib.Path(__file__).parent / "typecheck"


def test_public_api_list_is_up_to_date():
    render = runpy.run_path(str(HERE / "make_public_api.py"))["render"]
    assert (HERE / "public_api.py").read_text() == render(), (
        "the public API changed: run python tests/typecheck/make_public_api.py"
    )


def test_usage_example_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    usage = runpy.run_path(str(HERE / "usage.py"))
    loss = usage["train"]()
    assert loss == loss and loss >= 0  # a number, not NaN
