"""Installs ``cellax_alias.pth`` into site-packages beside the package (regular and editable
installs): it turns on ``cellax.alias_mindspore()`` at start-up when
``CELLAX_ALIAS_MINDSPORE=1`` and does nothing otherwise. Everything else is in pyproject.toml."""

import os

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "cellax_alias.pth"


class BuildPyWithPth(build_py):
    """Copy the .pth into the build root, which becomes site-packages in the wheel."""

    def run(self):
        super().run()
        self.copy_file(
            os.path.join(os.path.dirname(os.path.abspath(__file__)), PTH),
            os.path.join(self.build_lib, PTH),
        )

    def get_outputs(self, include_bytecode=True):
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH)]


def _pth_text() -> bytes:
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), PTH), "rb") as f:
        return f.read()


cmdclass = {"build_py": BuildPyWithPth}
try:  # PEP 660 editable installs (pip install -e .) build their own wheel.
    from setuptools.command.editable_wheel import editable_wheel

    class EditableWheelWithPth(editable_wheel):
        """Add the .pth to the editable wheel next to setuptools' own path file."""

        def _select_strategy(self, *args, **kwargs):
            strategy = super()._select_strategy(*args, **kwargs)

            class WithPth:
                def __call__(self, wheel, files, mapping):
                    strategy(wheel, files, mapping)
                    wheel.writestr(PTH, _pth_text())

                def __enter__(self):
                    strategy.__enter__()
                    return self

                def __exit__(self, *exc):
                    return strategy.__exit__(*exc)

            return WithPth()

    cmdclass["editable_wheel"] = EditableWheelWithPth
except ImportError:
    pass

setup(cmdclass=cmdclass)
