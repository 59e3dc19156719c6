"""Record the public names of MindSpore 2.10's ``mindspore.nn.metrics`` (oracle venv):

    /root/ms-ref/bin/python tests/goldens/record_nn_metrics.py

Writes tests/goldens/nn_metrics.json: {"all": nn.metrics.__all__, "names": train.names()}.
"""

import json
import pathlib


def main() -> None:
    from mindspore import nn, train

    out = {"all": sorted(nn.metrics.__all__), "names": train.names()}
    print(out)
    path = pathlib.Path(__file__).with_name("nn_metrics.json")
    path.write_text(json.dumps(out, indent=0, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
