"""Record MindSpore 2.10's ``mindspore.mint`` name lists (oracle venv, no PYTHONPATH):

    /root/ms-ref/bin/python docs/record_mint_names.py

Writes docs/mindspore_mint_names.json: for each mint module, ``api``: the names of its
``__all__`` that exist as attributes (``mindspore.mint.__all__`` also lists some nn names
that ``mindspore.mint`` does not define), and ``extra``: the other public, non-module
attributes (real API such as ``mint.nn.CrossEntropyLoss`` next to imported helpers; the
generator ``docs/gen_mint_coverage.py`` tells them apart).
"""

import importlib
import json
import pathlib
import types

MODULES = ["mint", "mint.nn", "mint.nn.functional", "mint.special", "mint.linalg",
           "mint.optim", "mint.distributed", "experimental.optim.lr_scheduler"]  # fmt: skip


def main() -> None:
    out = {}
    for name in MODULES:
        module = importlib.import_module("mindspore." + name)
        listed = list(getattr(module, "__all__", []))
        api = sorted({n for n in listed if hasattr(module, n)})
        public = {
            n
            for n in dir(module)
            if not n.startswith("_") and not isinstance(getattr(module, n), types.ModuleType)
        }
        out[name] = {"api": api, "extra": sorted(public - set(api))}
    path = pathlib.Path(__file__).with_name("mindspore_mint_names.json")
    path.write_text(json.dumps(out, indent=1) + "\n")
    print({k: (len(v["api"]), len(v["extra"])) for k, v in out.items()})


if __name__ == "__main__":
    main()
