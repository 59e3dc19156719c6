"""Record what MindSpore prints for the seed examples of tests/test_seed_examples.py.

Run with the MindSpore venv (never under pytest):

    /tmp/ms/bin/python tests/goldens/record_seed_examples.py

The examples are read from the test file (the block between ``EXAMPLES = {}`` and the Runner
banner, which is plain string code), ``cellax`` is replaced by ``mindspore`` and each example is
run as the test runs it (same ``needs``, same modes, ``np.random.seed(0)`` first). Output:
tests/goldens/seed_examples.json, ``{name: stdout}``; an example that raises records
``"<raised ExcType: message>"`` at the end of its output.
"""

import ast
import contextlib
import io
import json
import linecache
import os
import re
import sys
import tempfile
import traceback
import types

import numpy as np

import mindspore

HERE = os.path.dirname(os.path.abspath(__file__))
TEST_FILE = os.path.join(HERE, "..", "test_seed_examples.py")


def load_examples():
    with open(TEST_FILE) as f:
        text = f.read()
    start = text.index("EXAMPLES = {}")
    end = text.index("# Runner")
    scope = {}
    exec(text[start:end].rsplit("\n# ====", 1)[0], scope)
    examples = scope["EXAMPLES"]
    for ex in examples.values():
        ex["code"] = ex["code"].replace("cellax", "mindspore")
        # MindSpore 2.10 has no nn.Buffer (seed 002 documents it): register the same buffer
        ex["code"] = re.sub(
            r"self\.(\w+) = mindspore\.nn\.Buffer\((.*)\)$",
            r'self.register_buffer("\1", \2)',
            ex["code"],
            flags=re.M,
        )
    return examples


def _exec_source(src, name, scope, mode):
    filename = f"<seed example {name}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    tree = ast.parse(src, filename)
    if mode == "exec":
        exec(compile(tree, filename, "exec"), scope)
        return
    body = tree.body
    for i, stmt in enumerate(body):
        echo = isinstance(stmt, ast.Expr) and (mode == "doctest" or i == len(body) - 1)
        if echo:
            code = compile(ast.Interactive([stmt]), filename, "single")
        else:
            code = compile(ast.Module([stmt], []), filename, "exec")
        exec(code, scope)


def run(examples, name):
    ex = examples[name]
    # MindSpore's jit resolves a function's globals through sys.modules[fn.__module__]:
    # run the example as a fresh __main__ module
    module = types.ModuleType("__main__")
    saved_main = sys.modules["__main__"]
    sys.modules["__main__"] = module
    try:
        return _run(examples, name, ex, module.__dict__)
    finally:
        sys.modules["__main__"] = saved_main


def _run(examples, name, ex, scope):
    np.random.seed(0)
    with contextlib.redirect_stdout(io.StringIO()):
        for need in ex.get("needs", []):
            _exec_source(examples[need]["code"], need, scope, examples[need].get("mode", "exec"))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        try:
            _exec_source(ex["code"], name, scope, ex.get("mode", "exec"))
        except Exception as exc:  # recorded, so that the test can assert the same failure
            traceback.print_exc(file=sys.stderr)
            print(f"<raised {type(exc).__name__}: {exc}>")
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    return buf.getvalue()


def main():
    examples = load_examples()
    only = sys.argv[1:]
    out_path = os.path.join(HERE, "seed_examples.json")
    golden = {}
    if only and os.path.exists(out_path):
        with open(out_path) as f:
            golden = json.load(f)
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        os.chdir(tmp)
        try:
            for name in examples:
                if only and name not in only:
                    continue
                golden[name] = run(examples, name)
                print(f"== {name}\n{golden[name]}", file=sys.stderr)
        finally:
            os.chdir(cwd)
    with open(out_path, "w") as f:
        json.dump(golden, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
