"""Record MindSpore 2.10's outputs of the native-library text cases (text_native_cases.py).

Run from /tmp with the oracle interpreter (never from the tests):
    cd /tmp && /root/ms-ref/bin/python /work/main/tests/goldens/record_text_native.py
It first trains the small unigram SentencePiece model the cases load (text_native_unigram.model,
with the identity normalization so that it stays under 1 KB), then writes text_native.json.
"""

import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import text_native_cases as tc  # noqa: E402

import mindspore.dataset as ds  # noqa: E402
import mindspore.dataset.text as t  # noqa: E402


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        paths = tc.make_files(folder)
        vocab = t.SentencePieceVocab.from_file(
            [paths["corpus.txt"]],
            50,
            1.0,
            t.SentencePieceModel.UNIGRAM,
            {"normalization_rule_name": "identity"},
        )
        t.SentencePieceVocab.save_model(vocab, HERE, tc.UNIGRAM_MODEL)
        results = {}
        for name, case in tc.cases(t, ds, folder, HERE).items():
            try:
                results[name] = case()
            except Exception as error:  # recorded: cellax must raise the same type
                results[name] = {"error": type(error).__name__, "message": str(error)[:300]}
    with open(os.path.join(HERE, "text_native.json"), "w") as f:
        json.dump(results, f, sort_keys=True, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(results)} cases")


if __name__ == "__main__":
    main()
