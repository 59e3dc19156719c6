"""The layer goldens recorded by tests/goldens/record_layers.py, by kind and case id (loaded
through the one golden loader, tests/_goldens.py)."""

from tests._goldens import load_json, load_npz

CASES = load_json("layers.json")
ARRAYS = load_npz("layers.npz")


def cases(kind):
    return [c for c in CASES if c["kind"] == kind]


def get(case, name):
    return ARRAYS[f"{case['id']}/{name}"]


def params(case, prefix="param."):
    start = f"{case['id']}/{prefix}"
    return {k[len(start) :]: ARRAYS[k] for k in ARRAYS.files if k.startswith(start)}


def set_params(net, values):
    """Set each Parameter (by name) of a cellax Cell to the MindSpore value."""
    import cellax as ms

    named = dict(net.parameters_and_names())
    assert set(values) <= set(named), (sorted(values), sorted(named))
    for name, value in values.items():
        named[name].set_data(ms.Tensor(value))


def ids(case_list):
    return [c["id"] for c in case_list]
