"""`python -m cellax run` and the CELLAX_ALIAS_MINDSPORE start-up hook, in subprocesses."""

import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = """
import sys, importlib.metadata
import mindspore
import mindspore.nn as nn
import cellax
assert nn is cellax.nn, nn
print("argv", sys.argv[1:], "name", __name__, "path0", sys.path[0] == {path0!r})
print("version", mindspore.__version__, importlib.metadata.version("mindspore"))
import os
print("env", os.environ.get("CELLAX_ALIAS_MINDSPORE"))
sys.exit(3)
"""


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("CELLAX_ALIAS_MINDSPORE", None)
    return env


def test_run_script(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(SCRIPT.format(path0=str(tmp_path)))
    proc = subprocess.run(
        [sys.executable, "-m", "cellax", "run", str(script), "--lr", "0.1"],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 3, proc.stderr
    out = proc.stdout
    assert "argv ['--lr', '0.1'] name __main__ path0 True" in out
    assert "version 2.10.0 2.10.0" in out and "env 1" in out


def test_run_module(tmp_path):
    pkg = tmp_path / "zoo"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "train.py").write_text(SCRIPT.format(path0=str(tmp_path)))
    proc = subprocess.run(
        [sys.executable, "-m", "cellax", "run", "-m", "zoo.train", "x"],
        capture_output=True,
        text=True,
        env=_env(),
        cwd=str(tmp_path),
        timeout=120,
    )
    assert proc.returncode == 3, proc.stderr
    assert "argv ['x'] name __main__ path0 True" in proc.stdout


def test_usage_error():
    proc = subprocess.run(
        [sys.executable, "-m", "cellax", "train.py"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=120,
    )
    assert proc.returncode == 2 and "usage" in proc.stderr


def test_pth_hook(tmp_path):
    shutil.copy(os.path.join(ROOT, "cellax_alias.pth"), tmp_path)
    code = (
        f"import site; site.addsitedir({str(tmp_path)!r}); import sys; "
        "print('mindspore' in sys.modules or 'cellax' in sys.modules); "
        "import mindspore; print(mindspore.__version__)"
    )
    env = _env()
    off = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert off.stdout.startswith("False") and off.returncode != 0  # inert: no alias
    env["CELLAX_ALIAS_MINDSPORE"] = "1"
    on = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert on.returncode == 0, on.stderr
    assert on.stdout.split() == ["True", "2.10.0"]
