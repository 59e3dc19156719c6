"""Import every module of a model zoo and record each module's first failure (issue 34).

Usage (the zoo installed outside the project, e.g. ``pip install --no-deps --target DIR
mindone==0.5.0``; run MindSpore's side with a MindSpore interpreter and no alias)::

    CELLAX_ALIAS_MINDSPORE=1 PYTHONPATH=$PWD:DIR python tools/zoo_import_sweep.py PKG \
        [--lenient | --fresh] [--out FILE.json]
    PYTHONPATH=DIR /path/to/mindspore/python tools/zoo_import_sweep.py PKG --out ms.json
    python tools/zoo_import_sweep.py --compare ms.json cellax.json

Every ``.py`` file under the package is imported, in sorted order, in one process (a module
that fails is dropped from ``sys.modules`` by Python and retried by the next module that needs
it). ``--fresh`` removes the zoo's own modules from ``sys.modules`` before each import, so each
module imports as in a fresh interpreter (the framework and third-party packages stay loaded);
without it, a submodule loaded by a failed package import stays behind and later imports of
its children succeed where a fresh interpreter fails. ``--lenient`` keeps a package whose
``__init__`` fails as an empty shell, so each module's *own* first failure shows. The JSON maps each module to ``null``
(imported) or ``{"error": message, "missing": name}``, where ``missing`` is the
``mindspore.*`` name the message says is absent (``cellax.X`` is reported as ``mindspore.X``).
The summary ranks missing names by how many modules they stop.

``--compare`` lists the modules that import on the first side and fail on the second, ranked by
the second side's missing name. Module order makes a one-process sweep a close approximation
of a fresh interpreter per module: confirm a module's result with ``python -c "import M"``.
"""

import argparse
import collections
import contextlib
import importlib
import importlib.util
import io
import json
import os
import re
import signal
import sys
import traceback
import types

_PATTERNS = (
    (r"No module named '((?:mindspore|cellax)(?:\.[\w.]*)?)'", "{0}"),
    (r"cannot import name '(\w+)' from '((?:mindspore|cellax)(?:\.[\w.]*)?)'", "{1}.{0}"),
    (r"module '((?:mindspore|cellax)(?:\.[\w.]*)?)' has no attribute '(\w+)'", "{0}.{1}"),
)


def missing_name(message: str) -> str | None:
    """The ``mindspore.*`` name an import error message says is missing, if any."""
    for pattern, form in _PATTERNS:
        match = re.search(pattern, message)
        if match:
            name = form.format(*match.groups())
            return re.sub(r"^cellax\b", "mindspore", name)
    return None


def _modules(package: str) -> list[str]:
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit(f"{package} is not an importable package")
    root = list(spec.submodule_search_locations)[0]
    names = {package}
    for dirpath, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__" and d.isidentifier()]
        for file in files:
            if not file.endswith(".py") or not file[:-3].isidentifier():
                continue
            relative = os.path.relpath(os.path.join(dirpath, file), os.path.dirname(root))
            name = relative[:-3].replace(os.sep, ".")
            names.add(name.removesuffix(".__init__"))
    return sorted(names)


def _describe(error: BaseException) -> dict:
    while error.__cause__ is not None and "see its traceback" in str(error):
        error = error.__cause__
    text = str(error).splitlines()[0] if str(error) else ""
    message = re.sub(r" \(/[^)]*\)", "", f"{type(error).__name__}: {text}")[:240]
    missing = missing_name(message)
    if missing is None and not isinstance(error, ImportError):
        # a runtime failure inside the framework: name the innermost framework frame
        frames = traceback.extract_tb(error.__traceback__)
        inside = [f for f in frames if re.search(r"/(cellax|mindspore)/", f.filename)]
        if inside:
            frame = inside[-1]
            where = re.sub(r".*/(cellax|mindspore)/", r"\1/", frame.filename)
            message += f" [at {where}:{frame.lineno}]"
    return {"error": message, "missing": missing}


def _shell(name: str) -> None:
    spec = importlib.util.find_spec(name)
    if spec is not None:
        sys.modules[name] = importlib.util.module_from_spec(spec)
    else:
        sys.modules[name] = types.ModuleType(name)


def _timeout(*_):
    raise TimeoutError("import took longer than 120 s")


def sweep(package: str, lenient: bool, fresh: bool = False) -> dict:
    results = {}
    signal.signal(signal.SIGALRM, _timeout)
    for name in _modules(package):
        if fresh:
            for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
                del sys.modules[loaded]
        signal.alarm(120)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                if lenient:
                    parts = name.split(".")
                    for i in range(1, len(parts)):
                        parent = ".".join(parts[:i])
                        if parent not in sys.modules:
                            try:
                                importlib.import_module(parent)
                            except BaseException:
                                _shell(parent)
                importlib.import_module(name)
            results[name] = None
        except BaseException as error:  # noqa: BLE001 - a zoo module may raise anything
            if isinstance(error, KeyboardInterrupt):
                raise
            results[name] = _describe(error)
        finally:
            signal.alarm(0)
    return results


def summary(results: dict, top: int = 40) -> str:
    ok = sum(r is None for r in results.values())
    lines = [f"{ok} of {len(results)} import"]
    missing = collections.Counter(r["missing"] for r in results.values() if r and r["missing"])
    lines.append("missing mindspore names (modules stopped):")
    lines += [f"  {n:5d} {name}" for name, n in missing.most_common(top)]
    other = collections.Counter(r["error"] for r in results.values() if r and not r["missing"])
    lines.append("other failures:")
    lines += [f"  {n:5d} {message}" for message, n in other.most_common(top)]
    return "\n".join(lines)


def compare(first: dict, second: dict, top: int = 60) -> str:
    lost = {m: second.get(m) for m, r in first.items() if r is None and second.get(m)}
    lines = [
        f"first: {sum(r is None for r in first.values())} import; second: "
        f"{sum(second.get(m) is None for m, r in first.items() if r is None)} of those import,"
        f" {len(lost)} do not"
    ]
    causes = collections.Counter(r["missing"] or r["error"] for r in lost.values())
    example = {}
    for module, r in lost.items():
        example.setdefault(r["missing"] or r["error"], module)
    lines += [f"  {n:5d} {cause}   (e.g. {example[cause]})" for cause, n in causes.most_common(top)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", nargs="?")
    parser.add_argument("--lenient", action="store_true")
    parser.add_argument("--fresh", action="store_true")
    parser.add_argument("--out")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--compare", nargs=2, metavar=("FIRST", "SECOND"))
    args = parser.parse_args(argv)
    if args.compare:
        first, second = (json.load(open(path)) for path in args.compare)
        print(compare(first, second, args.top))
        return
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    out = os.path.abspath(args.out) if args.out else None  # zoo modules may chdir
    results = sweep(args.package, args.lenient, args.fresh)
    if out:
        with open(out, "w") as file:
            json.dump(results, file, indent=1, sort_keys=True)
    print(
        f"{args.package} ({'lenient' if args.lenient else 'fresh' if args.fresh else 'one process'})"
        f": {summary(results, args.top)}"
    )
    sys.stdout.flush()
    os._exit(0)  # zoo modules may leave non-daemon threads behind


if __name__ == "__main__":
    main()
