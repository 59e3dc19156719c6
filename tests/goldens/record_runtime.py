"""Record MindSpore 2.10's ``runtime``, ``device_context`` and ``hal`` surface (runtime_cases.py).

Run with the oracle interpreter (never from the tests), from a scratch directory:
    /root/ms-ref/bin/python tests/goldens/record_runtime.py
It writes tests/goldens/runtime.json: every public name and signature of the modules in
``MODULES``, the exception (type and message) of each ``ERRORS`` call, which ``ACCEPTED`` calls
and ``set_context`` keys MindSpore accepts, and the CPU memory statistics' layout.

MindSpore's Ascend settings return silently on their first call when the device is not Ascend
(streams and events likewise on CPU) and then fail on the missing Ascend configuration object;
to record how they validate their arguments, the recorder marks that first call as done and
gives them a stand-in configuration object that reports "not configured yet".
"""

import importlib
import inspect
import json
import os
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import runtime_cases as rc  # noqa: E402

import mindspore as ms  # noqa: E402


class _Unset:
    """A configuration object with nothing configured: every query answers None."""

    @classmethod
    def get_instance(cls):
        return cls()

    def __getattr__(self, name):
        return lambda *args: None


def _prepare_ascend() -> None:
    for sub, conf in (
        ("op_precision", "AscendOpPrecisionConf"),
        ("op_tuning", "AscendOpTuningConf"),
        ("op_debug", "AscendOpDebugConf"),
    ):
        module = importlib.import_module(f"mindspore.device_context.ascend.{sub}")
        module.__dict__.setdefault(conf, _Unset)
        for key in module.function_status:
            module.function_status[key] = True
    for name, status in (
        ("device_context.gpu.op_precision", "function_status"),
        ("device_context.gpu.op_tuning", "function_status"),
        ("runtime.stream", "function_stream_status"),
        ("runtime.event", "function_event_status"),
    ):
        table = getattr(importlib.import_module(f"mindspore.{name}"), status)
        for key in table:
            table[key] = True


def _is_api(module_name: str, name: str, value) -> bool:
    if name.startswith("_") or name.endswith("_"):
        return False
    if isinstance(value, types.ModuleType):
        return value.__name__.startswith(module_name + ".")
    owner = getattr(value, "__module__", "") or ""
    if not callable(value) or not owner.startswith("mindspore."):
        return False
    return not owner.startswith(("mindspore._", "mindspore.communication"))


def _plain(signature: inspect.Signature) -> str:
    """The signature without annotations: names, kinds and defaults only."""
    empty = inspect.Parameter.empty
    parameters = [p.replace(annotation=empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=parameters, return_annotation=empty))


def surface() -> dict:
    out = {}
    for path in rc.MODULES:
        module = importlib.import_module(f"mindspore.{path}")
        names = {}
        for name in sorted(dir(module)):
            value = getattr(module, name)
            if not _is_api(module.__name__, name, value):
                continue
            if isinstance(value, types.ModuleType):
                names[name] = {"kind": "module", "signature": None}
                continue
            try:
                signature = _plain(inspect.signature(value))
            except (TypeError, ValueError):
                signature = None
            kind = "class" if isinstance(value, type) else "function"
            names[name] = {"kind": kind, "signature": signature}
        exported = getattr(module, "__all__", None)
        out[path] = {"__all__": sorted(exported) if exported is not None else None, "names": names}
    return out


def run(statement: str):
    try:
        exec(statement, {"ms": ms})
    except Exception as error:  # recorded: cellax must raise the same type
        return [type(error).__name__, str(error).split("\n")[0][:400]]
    return "ok"


def main() -> None:
    golden = {"surface": surface()}
    _prepare_ascend()
    golden["errors"] = {name: run(code) for name, code in rc.ERRORS.items()}
    golden["accepted"] = {name: run(code) for name, code in rc.ACCEPTED.items()}
    golden["context_keys"] = {
        key: run(f"ms.set_context({key}={value!r})") for key, value in rc.CONTEXT_KEYS.items()
    }
    stats = ms.runtime.memory_stats()
    golden["memory_stats_keys"] = {
        key: sorted(value) if isinstance(value, dict) else None for key, value in stats.items()
    }
    golden["memory_summary_zero"] = ms.runtime.memory_summary()
    golden["stream_repr"] = repr(ms.runtime.Stream())
    with open(os.path.join(HERE, "runtime.json"), "w") as f:
        json.dump(golden, f, sort_keys=True, indent=1)
        f.write("\n")
    print(f"wrote {len(golden['surface'])} modules, {len(golden['errors'])} error cases")


if __name__ == "__main__":
    main()
