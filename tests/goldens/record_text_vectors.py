"""Record MindSpore 2.10's outputs of text_vectors_cases.py (word vectors, ToVectors, PadEnd).

Run from /tmp with the oracle interpreter (never from the tests):
    cd /tmp && /root/ms-ref/bin/python /work/main/tests/goldens/record_text_vectors.py
It writes tests/goldens/text_vectors.json: each case's output, or its error type.
"""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import text_vectors_cases as vc  # noqa: E402

import mindspore.dataset.text as text  # noqa: E402
import mindspore.dataset.transforms as transforms  # noqa: E402


def main() -> None:
    folder = tempfile.mkdtemp()
    vc.write_files(folder)
    results = {}
    for name, fn in vc.cases(text, transforms, folder).items():
        try:
            results[name] = vc.outputs(fn())
        except Exception as error:  # recorded: cellax must raise the same type
            results[name] = {"error": type(error).__name__}
    with open(os.path.join(HERE, "text_vectors.json"), "w") as f:
        json.dump(results, f, sort_keys=True, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(results)} cases")


if __name__ == "__main__":
    main()
