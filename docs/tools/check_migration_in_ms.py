"""Run the MindSpore column of ``docs/migration.md`` under real MindSpore 2.10.

The docs test runs that column on cellax; this script, run with the reference interpreter
(``/root/ms-ref/bin/python docs/tools/check_migration_in_ms.py`` from the repository root),
checks that it is genuine MindSpore code: it must run there and print the same output.
"""

from __future__ import annotations

import contextlib
import io
import pathlib
import re
import runpy
import tempfile

PAGE = pathlib.Path(__file__).resolve().parents[1] / "migration.md"
BLOCK = re.compile(r'^```python title="MindSpore"\n(.*?)^```', re.S | re.M)


def main() -> None:
    for number, code in enumerate(BLOCK.findall(PAGE.read_text())):
        out = io.StringIO()
        with tempfile.TemporaryDirectory() as folder:
            script = pathlib.Path(folder) / f"migration_block_{number + 1}.py"
            script.write_text(code)  # MindSpore's jit reads the source of what it compiles
            with contextlib.redirect_stdout(out):
                runpy.run_path(str(script), run_name="__main__")
        print(f"block {number + 1}: {out.getvalue().strip()}")


if __name__ == "__main__":
    main()
