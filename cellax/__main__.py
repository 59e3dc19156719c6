"""``python -m cellax run script.py [args]`` / ``python -m cellax run -m pkg.module [args]``:
run unmodified MindSpore code with ``import mindspore`` resolving to cellax.

The target runs as ``python script.py`` / ``python -m pkg.module`` would (``__main__``,
``sys.argv``, ``sys.path[0]``, exit code); ``CELLAX_ALIAS_MINDSPORE=1`` is set so that
subprocesses it starts alias too.
"""

from __future__ import annotations

import os
import runpy
import sys

USAGE = (
    "usage: python -m cellax run SCRIPT.py [ARGS...]\n"
    "       python -m cellax run -m MODULE [ARGS...]\n"
    "Runs MindSpore code with 'import mindspore' resolving to cellax."
)


def main(argv: list | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) < 2 or argv[0] != "run" or (argv[1] == "-m" and len(argv) < 3):
        print(USAGE, file=sys.stderr)
        return 2
    from ._alias import ENV_VAR, alias_mindspore

    os.environ[ENV_VAR] = "1"
    alias_mindspore()
    if argv[1] == "-m":
        module, args = argv[2], argv[3:]
        sys.argv = [module, *args]
        sys.path[0] = os.getcwd()
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    else:
        script, args = argv[1], argv[2:]
        sys.argv = [script, *args]
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
