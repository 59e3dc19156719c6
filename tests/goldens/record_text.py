"""Record MindSpore 2.10's outputs of the dataset.text cases (text_cases.py).

Run from /tmp with the oracle interpreter (never from the tests):
    cd /tmp && /root/ms-ref/bin/python /work/main/tests/goldens/record_text.py
It writes tests/goldens/text.json: each case's outputs, or its error.
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import text_cases as tc  # noqa: E402

import mindspore  # noqa: E402
import mindspore.dataset.text as t  # noqa: E402


def main() -> None:
    vocab = t.Vocab.from_list(tc.vocab_words())
    results = {}
    for name, (op, data) in tc.cases(t, vocab, mindspore.float32).items():
        try:
            out = op(*data) if isinstance(data, tuple) else op(data)
            results[name] = tc.outputs(out)
        except Exception as error:  # recorded: cellax must raise the same type
            results[name] = {"error": type(error).__name__, "message": str(error)[:200]}
    with open(os.path.join(HERE, "text.json"), "w") as f:
        json.dump(results, f, sort_keys=True, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(results)} cases")


if __name__ == "__main__":
    main()
