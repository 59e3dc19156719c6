"""Record MindSpore 2.10 goldens of the audio transforms (audio_cases.py).

Run with the oracle interpreter (never from the tests):
    /root/ms-ref/bin/python tests/goldens/record_audio.py
It writes tests/goldens/audio.npz: every case's output (or, in audio_errors.json, its error).
"""

import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import audio_cases as ac  # noqa: E402

import mindspore.dataset.audio as a  # noqa: E402
from mindspore.dataset.audio import utils as u  # noqa: E402


def main() -> None:
    arrays = ac.inputs()
    results, errors = {}, {}
    for name in ac.CASES:
        try:
            results[name] = ac.run(a, u, name, arrays)
        except Exception as error:  # recorded: cellax must raise the same type
            errors[name] = f"{type(error).__name__}: {error}"[:300]
    np.savez_compressed(os.path.join(HERE, "audio.npz"), **results)
    with open(os.path.join(HERE, "audio_errors.json"), "w") as f:
        json.dump(errors, f, sort_keys=True, indent=1)
        f.write("\n")
    print(f"wrote {len(results)} cases, {len(errors)} errors")


if __name__ == "__main__":
    main()
