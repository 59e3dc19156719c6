"""Running a script under ``python -m cellax run`` in a child process, as a user runs a zoo's
own ``train.py`` (the zoo-script tests)."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent

__all__ = ["cellax_run"]


def cellax_run(args, cwd, paths=(), timeout: float = 900) -> str:
    """Everything ``python -m cellax run *args`` printed (stdout, then stderr), run in ``cwd``
    with the project and ``paths`` ahead of the caller's PYTHONPATH; the test fails with the
    end of that output when the script exits with an error."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *map(str, paths), env.get("PYTHONPATH", "")])
    command = [sys.executable, "-m", "cellax", "run", *map(str, args)]
    done = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    return output
