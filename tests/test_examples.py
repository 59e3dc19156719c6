"""The examples train: quickstart (MLP), cnn and transformer, at CI size."""

import importlib.util
import os

import pytest

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "examples")


def load(name):
    spec = importlib.util.spec_from_file_location(
        f"example_{name}", os.path.join(EXAMPLES, f"{name}.py")
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quickstart_learns():
    quickstart = load("quickstart")
    history = quickstart.main(epochs=4, subset=600, learning_rate=0.05, progress=False)
    losses, accuracy = history["losses"], history["accuracy"]
    assert len(losses) == len(accuracy) == 4
    assert losses[-1] < 0.6 * losses[0]
    assert accuracy[-1] > 0.5  # chance is 0.1
    args = quickstart.parse_args(["--epochs", "3", "--quick"])
    assert args.epochs == 3 and args.quick


@pytest.mark.parametrize("name,options", [("cnn", {}), ("transformer", {"num_layers": 1})])
def test_example_learns_in_quick_mode(name, options):
    example = load(name)
    history = example.main(epochs=2, subset=600, progress=False, **options)
    losses, accuracy = history["losses"], history["accuracy"]
    assert losses[-1] < losses[0]
    assert accuracy[-1] > 0.3  # chance is 0.1
    assert example.parse_args(["--quick"]).quick
