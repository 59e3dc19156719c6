"""Record MindSpore 2.10 CPU results of the mint cases (run with the oracle venv, no PYTHONPATH):

    /root/ms-ref/bin/python tests/goldens/record_mint.py

Writes tests/goldens/mint.json: case name -> normalized result, or {"error": type name,
"message": first line, "cpu_unsupported": bool}; a case that MindSpore CPU cannot run is
recorded through its ``FALLBACK`` ops expression when one exists (marked ``via_ops``).
"""

import json
import os
import pathlib
import sys

import mindspore as ms
import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
import mint_cases as mc  # noqa: E402


def main() -> None:
    ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
    out = {}
    for name, expr in mc.CASES.items():
        ms.set_seed(0)
        ns = mc.namespace(ms)
        try:
            out[name] = mc.normalize(eval(expr, ns), ms)
            ms.runtime.synchronize()  # errors of asynchronous kernels belong to this case
        except Exception as exc:  # noqa: BLE001 - the error type is the golden
            message = (str(exc).strip().splitlines() or [""])[0][:200]
            out[name] = {
                "error": type(exc).__name__,
                "message": message,
                "cpu_unsupported": not name.startswith("err_"),
            }
            try:
                ms.runtime.synchronize()
            except Exception:  # noqa: BLE001 - a late error of the failed case itself
                pass
            if name in mc.FALLBACK:
                ns.update(ops=ms.ops, nn=ms.nn)
                try:
                    result = mc.normalize(eval(mc.FALLBACK[name], ns), ms)
                except Exception as fallback_exc:  # noqa: BLE001
                    out[name]["fallback_error"] = repr(fallback_exc)[:200]
                else:
                    out[name] = dict(result, via_ops=mc.FALLBACK[name], mint_error=message)
    path = pathlib.Path(__file__).with_name("mint.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True, default=float) + "\n")
    errors = {k: v["error"] for k, v in out.items() if "error" in v}
    print(sum("via_ops" in v for v in out.values()), "recorded through the ops fallback")
    print(len(out), "cases;", len(errors), "errors")
    for k, v in sorted(errors.items()):
        print(" ", k, v, out[k]["message"][:100])


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
