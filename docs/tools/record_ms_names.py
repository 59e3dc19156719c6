"""Record MindSpore 2.10's public name lists that the coverage pages compare cellax against.

Run with the reference MindSpore interpreter (not cellax's), from the repository root::

    /root/ms-ref/bin/python docs/tools/record_ms_names.py

It writes one name per line into ``docs/tools/names/``:

- ``mindspore_ops.txt``: ``inspect.isfunction`` over ``dir(mindspore.ops)``;
- ``mindspore_nn.txt``: the classes and functions in ``dir(mindspore.nn)``;
- ``mindspore_cell.txt``: the public attributes (methods, properties) of ``mindspore.nn.Cell``;
- ``mindspore_tensor.txt``: the public attributes (methods, properties) of ``mindspore.Tensor``;
- ``mindspore_packages.json``: {package: the classes and functions of its ``__all__`` (else of
  ``dir``)} for the packages in ``PACKAGES`` (``mindspore`` itself, amp, train, dataset...);
- ``mindspore_modules.txt``: the public module paths reachable as attributes of ``mindspore``
  (every ``mindspore.X``, and ``mindspore.X.Y`` for the user-facing packages listed in
  ``DEEP``), skipping generated protobuf modules.
"""

from __future__ import annotations

import importlib
import inspect
import json
import pathlib
import types

import mindspore
from mindspore import nn, ops

OUT = pathlib.Path(__file__).parent / "names"
PACKAGES = (
    "mindspore",
    "mindspore.amp",
    "mindspore.train",
    "mindspore.context",
    "mindspore.common.initializer",
    "mindspore.communication",
    "mindspore.parallel",
    "mindspore.dataset",
    "mindspore.dataset.vision",
    "mindspore.dataset.transforms",
    "mindspore.dataset.text",
    "mindspore.experimental.optim",
    "mindspore.experimental.optim.lr_scheduler",
    "mindspore.boost",
    "mindspore.profiler",
)
DEEP = ("amp", "common", "communication", "dataset", "mint", "nn", "numpy", "ops", "train")


def public(module, keep) -> list[str]:
    return sorted(n for n in dir(module) if not n.startswith("_") and keep(getattr(module, n)))


def submodules(module, depth: int) -> list[str]:
    found = []
    for name in dir(module):
        if name.startswith("_") or name.endswith("_pb2"):
            continue
        try:
            value = getattr(module, name)
        except Exception:  # a lazy attribute that fails to import is not a usable path
            continue
        path = f"{module.__name__}.{name}"
        if isinstance(value, types.ModuleType) and value.__name__ == path:
            found.append(path)
            if depth == 0 and name in DEEP:
                found.extend(submodules(value, 1))
    return found


def package_names(path: str) -> list[str]:
    module = importlib.import_module(path)
    names = getattr(module, "__all__", None)
    if names is None:
        names = [n for n in dir(module) if not n.startswith("_")]
    kinds = (inspect.isclass, inspect.isfunction)
    return sorted(
        {
            n
            for n in names
            if not n.startswith("_") and any(k(getattr(module, n, None)) for k in kinds)
        }
    )


def write(name: str, names) -> None:
    names = sorted(set(names))
    (OUT / name).write_text("\n".join(names) + "\n")
    print(f"{name}: {len(names)}")


def main() -> None:
    assert mindspore.__version__.startswith("2.10"), mindspore.__version__
    write("mindspore_ops.txt", public(ops, inspect.isfunction))
    write("mindspore_nn.txt", public(nn, lambda v: inspect.isclass(v) or inspect.isfunction(v)))
    write("mindspore_cell.txt", [n for n in dir(nn.Cell) if not n.startswith("_")])
    write("mindspore_tensor.txt", [n for n in dir(mindspore.Tensor) if not n.startswith("_")])
    write("mindspore_modules.txt", submodules(mindspore, 0))
    packages = {path: package_names(path) for path in PACKAGES}
    (OUT / "mindspore_packages.json").write_text(json.dumps(packages, indent=1) + "\n")
    print(f"mindspore_packages.json: {sum(map(len, packages.values()))}")


if __name__ == "__main__":
    main()
