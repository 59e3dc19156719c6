"""Every code block on the documentation site runs.

- ``python`` blocks run in order, one namespace per page (a page reads like a session), in a
  temporary folder. A ``print(...)  # expected`` line must print ``expected`` (the comment up
  to its first ``:``).
- On the migration page, each block titled ``MindSpore`` must equal the ``cellax`` block that
  follows it once its ``mindspore`` imports name ``cellax``; it runs too, with those imports.
- A ``python`` block titled ``requires PACKAGE`` (third-party code cellax runs, e.g. mindcv)
  runs in a fresh interpreter when PACKAGE is importable (its printed values checked as above),
  and is skipped otherwise.
- ``bash`` blocks: ``make X`` must be a target (``make -n X``); ``python script --flag`` must
  name an existing script whose ``--help`` lists each flag; ``python -m cellax run SCRIPT ...``
  runs (the unmodified-MindSpore entry point) and must succeed.
- ``bash`` blocks: ``python -m MODULE --flag ...`` (a launcher) must list each flag in
  ``python -m MODULE --help``.
- ``text`` blocks are diagrams, or, titled ``output``, what the ``bash`` or ``python`` block
  before them prints (checked as a doctest's output is: ``...`` matches any text); no other
  kind of block is allowed.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib.util
import io
import linecache
import os
import pathlib
import re
import subprocess
import sys

import pytest

from ._site import ROOT

DOCS = ROOT / "docs"
PAGES = sorted(p for p in DOCS.rglob("*.md") if "tools" not in p.relative_to(DOCS).parts)
FENCE = re.compile(r"^```(\w+)?([^\n]*)\n(.*?)^```\s*$", re.S | re.M)
EXPECTED = re.compile(r"^print\(.*\)\s+#\s*([^:]+)", re.M)
MINDSPORE_IMPORT = re.compile(r"^(import|from) mindspore\b", re.M)


def blocks(page: pathlib.Path):
    """(language, title, code) of each fenced block of ``page``."""
    for match in FENCE.finditer(page.read_text()):
        title = re.search(r'title="([^"]*)"', match.group(2))
        yield match.group(1), title.group(1) if title else None, match.group(3)


def run_python(code: str, namespace: dict, where: str) -> str:
    # the block's source is readable as a file's would be (cellax.jit converts control flow
    # of functions whose source it can read, as MindSpore parses them)
    linecache.cache[where] = (len(code), None, code.splitlines(True), where)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, where, "exec"), namespace)
    expected = [e.strip() for e in EXPECTED.findall(code)]
    if expected and len(expected) == code.count("print("):
        assert out.getvalue().splitlines() == expected, where
    return out.getvalue()


def run_isolated(code: str, package: str, where: str) -> str | None:
    """Run ``code`` in a fresh interpreter (it may alias ``mindspore`` or import third-party
    packages) when ``package`` is importable; what it printed, None when skipped."""
    if importlib.util.find_spec(package) is None:
        return None
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"{where}: {result.stderr}"
    expected = [e.strip() for e in EXPECTED.findall(code)]
    if expected and len(expected) == code.count("print("):
        assert result.stdout.splitlines() == expected, where
    return result.stdout


def matches(shown: str, printed: str) -> bool:
    """Whether ``printed`` is what an ``output`` block shows (``...`` matches any text)."""
    return doctest.OutputChecker().check_output(shown, printed, doctest.ELLIPSIS)


def check_shell_line(line: str, where: str) -> str:
    """Check (or, for ``python -m cellax run``, run) one command; its output when it ran."""
    words = line.split("#")[0].split()
    if not words:
        return ""
    if words[:4] == ["python", "-m", "cellax", "run"]:
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        result = subprocess.run(
            [sys.executable, *words[1:]],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, f"{where}: {line}: {result.stderr}"
        return result.stdout
    if words[:2] == ["python", "-m"]:  # a launcher: its flags exist
        usage = subprocess.run(
            [sys.executable, "-m", words[2], "--help"],
            cwd=ROOT,
            env=dict(os.environ, PYTHONPATH=str(ROOT)),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert usage.returncode == 0, f"{where}: {line}: {usage.stderr}"
        for flag in (w.split("=")[0] for w in words[3:] if w.startswith("--")):
            assert flag in usage.stdout, f"{where}: {flag} is not an option of {words[2]}"
    elif words[0] == "make":
        result = subprocess.run(["make", "-n", *words[1:]], cwd=ROOT, capture_output=True)
        assert result.returncode == 0, f"{where}: {line}: {result.stderr!r}"
    elif words[0] == "python":
        script = ROOT / words[1]
        assert script.is_file(), f"{where}: {line}"
        usage = subprocess.run(
            [sys.executable, str(script), "--help"], cwd=ROOT, capture_output=True, text=True
        )
        assert usage.returncode == 0, f"{where}: {line}: {usage.stderr}"
        for flag in (w for w in words[2:] if w.startswith("--")):
            assert flag in usage.stdout, f"{where}: {flag} is not an option of {words[1]}"
    else:
        raise AssertionError(f"{where}: no check for the shell command {line!r}")
    return ""


def test_pages_have_checked_blocks():
    kinds = {lang for page in PAGES for lang, _, _ in blocks(page)}
    assert kinds <= {"python", "bash", "text"}, kinds
    assert len(PAGES) >= 9
    with_python = {p.name for p in PAGES if any(lang == "python" for lang, _, _ in blocks(p))}
    assert {
        "index.md",
        "getting_started.md",
        "migration.md",
        "checkpoints.md",
        "architecture.md",
        "running_mindspore_code.md",
        "distributed.md",
        "debugging.md",
    } <= with_python


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_code_blocks_run(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {"__name__": "__docs__"}
    previous_mindspore = None
    printed = None  # what the bash or python block just before printed
    for number, (lang, title, code) in enumerate(blocks(page)):
        where = f"{page.relative_to(ROOT)} block {number + 1}"
        if lang == "python" and title and title.startswith("requires "):
            printed = run_isolated(code, title.split()[1], where)
            continue
        if lang == "python" and title == "MindSpore":
            previous_mindspore = MINDSPORE_IMPORT.sub(r"\1 cellax", code)
            assert previous_mindspore != code, f"{where} does not import mindspore"
            printed = run_python(previous_mindspore, {"__name__": "__docs__"}, where)
            continue
        elif lang == "python":
            if title == "cellax":
                assert code == previous_mindspore, f"{where} differs from the MindSpore column"
            printed = run_python(code, namespace, where)
            continue
        elif lang == "bash":
            printed = "".join(check_shell_line(line, where) for line in code.splitlines())
            continue
        elif lang == "text" and title == "output":
            assert printed is not None, f"{where}: an output block after no bash or python block"
            assert matches(code, printed), f"{where}: the block before printed {printed!r}"
        else:
            assert lang == "text", f"{where}: a {lang!r} block is neither run nor checked"
        printed = None
