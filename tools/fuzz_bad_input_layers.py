"""The bad-input campaign over cellax.nn layers and optimizers (issue 22): prints each violation.

Every public Cell class is built with the first of a few small argument sets that works and run
on the first small input that works; then, one at a time:

* its first construct input becomes None, a str, a dict, a ragged list, a Tensor of the wrong
  dtype (bool, int32), of the wrong rank (0-d, 1-d, 6-d) or with a zero-size batch;
* each of its constructor arguments becomes None, a str, a dict, a ragged list, -1 or 1.5, and
  an unknown keyword argument is added;
* each optimizer gets bad ``params``/``learning_rate``/``weight_decay`` and bad gradients.

The contract is that of tools/fuzz_bad_input.py: a builtin exception type MindSpore raises,
with a message starting "For '" and naming no JAX/NumPy internals; accepting the value is not a
finding (many layers take any dtype or rank). Run ``python tools/fuzz_bad_input_layers.py
[--verbose]``; the suite runs it (tests/test_bad_input_layers.py).
"""

from __future__ import annotations

import argparse
import functools
import inspect
import warnings

import numpy as np
from fuzz_bad_input import BAD_VALUES, check

import cellax as ms
from cellax import Tensor, nn

# classes that wrap other Cells or need a network/optimizer to build: their own argument
# checks are exercised by their own tests
SKIP = {
    "Cell",
    "CellDict",
    "CellList",
    "SequentialCell",
    "GraphCell",
    "ForwardValueAndGrad",
    "DistributedGradReducer",
    "MicroBatchInterleaved",
    "PipelineCell",
    "PipelineGradReducer",
    "TrainOneStepCell",
    "TrainOneStepWithLossScaleCell",
    "WithEvalCell",
    "WithGradCell",
    "WithLossCell",
    "ScanCell",
    "LossBase",
    "RNNCellBase",
    "LearningRateSchedule",
    "Optimizer",
    "ParameterUpdate",
    "DynamicLossScaleUpdateCell",
    "FixedLossScaleUpdateCell",
}
CTOR_ARGS = [(), (4,), (4, 4), (4, 4, 3), (2, 4), (0.1, 0.9, 10), (0.1, 0.9, 10, 2)]
CTOR_BAD = {**BAD_VALUES, "-1": -1, "1.5": 1.5}


def _inputs():
    f32 = np.float32
    yield (Tensor(np.ones((2, 4), f32)),)
    yield (Tensor(np.ones((2, 4, 4), f32)),)
    yield (Tensor(np.ones((2, 4, 4, 4), f32)),)
    yield (Tensor(np.ones((2, 4, 4, 4, 4), f32)),)
    yield (Tensor(np.ones((2, 4), f32)), Tensor(np.ones((2, 4), f32)))
    yield (Tensor(np.ones((2, 4), f32)), Tensor(np.array([0, 1], np.int32)))
    yield (Tensor(np.ones((2, 4), f32)), Tensor(np.ones((2, 4), f32)), Tensor(np.ones(2, f32)))
    yield (Tensor(np.array([[0, 1, 2, 3]], np.int32)),)
    yield (Tensor(np.ones((2, 3, 4), f32)), Tensor(np.ones((2, 3, 4), f32)))
    yield (Tensor(np.ones((2, 3, 4), f32)),) * 3
    yield (Tensor(np.ones((2, 4), f32)), Tensor(np.ones((2, 4), f32)))
    yield (Tensor(np.array(3, np.int32)),)


def _quiet(call):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return call()


def layer_classes():
    for name in sorted(dir(nn)):
        cls = getattr(nn, name)
        if name.startswith("_") or name in SKIP or not inspect.isclass(cls):
            continue
        if issubclass(cls, nn.Cell) and not issubclass(cls, nn.Optimizer):
            yield name, cls


def _special_args():
    return {
        "LayerNorm": ((4,),),
        "Pad": (((0, 0), (1, 1)),),
        "PolynomialDecayLR": (0.1, 0.01, 10, 0.5),
        "TransformerEncoder": (nn.TransformerEncoderLayer(4, 2, 8), 1),
        "TransformerDecoder": (nn.TransformerDecoderLayer(4, 2, 8), 1),
        "Unfold": ([1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1]),
        "WarmUpLR": (0.1, 10),
    }


def working_layer(cls):
    """(constructor args, layer, construct inputs) of the first combination that runs."""
    special = _quiet(_special_args).get(cls.__name__)
    for args in [special] if special else CTOR_ARGS:
        try:
            layer = _quiet(lambda: cls(*args))
        except Exception:  # noqa: BLE001 - try the next argument set
            continue
        for inputs in _inputs():
            try:
                _quiet(lambda: layer(*inputs))
            except Exception:  # noqa: BLE001 - try the next input
                continue
            return args, layer, inputs
        return args, layer, None
    return None, None, None


def bad_inputs(inputs):
    first = inputs[0]
    shape = tuple(first.shape)
    yield from BAD_VALUES.items()
    yield "bool", Tensor(np.ones(shape, np.bool_))
    yield "int32", Tensor(np.ones(shape, np.int32))
    yield "0-d", Tensor(np.float32(1.0))
    yield "1-d", Tensor(np.ones(3, np.float32))
    yield "6-d", Tensor(np.ones((1, 2, 1, 2, 1, 2), np.float32))
    if shape:
        yield "zero-batch", Tensor(np.ones((0,) + shape[1:], first.dtype.np_dtype))


@functools.cache
def _working(name):
    return working_layer(getattr(nn, name))


def layer_trials():
    """(where, call) for every layer trial; a call builds what it needs when run."""
    for name, _ in layer_classes():
        yield from class_trials(name)


def class_trials(name):
    """(where, call) for the trials of the layer class ``name``."""
    cls = getattr(nn, name)
    args, layer, inputs = _working(name)
    if args is None:
        yield f"{name}()", _fail("no small constructor argument set builds it")
        return
    for position in range(len(args)):
        for label, bad in CTOR_BAD.items():
            mutated = list(args)
            mutated[position] = bad
            yield f"{name}(arg {position} = {label})", functools.partial(cls, *mutated)
    yield f"{name}(unknown keyword)", functools.partial(cls, *args, no_such_argument=1)
    if inputs is None:
        return
    for label, bad in bad_inputs(inputs):
        yield f"{name}(...)({label})", functools.partial(layer, bad, *inputs[1:])
    for position in range(1, len(inputs)):
        for label, bad in BAD_VALUES.items():
            mutated = list(inputs)
            mutated[position] = bad
            yield f"{name}(...)(input {position} = {label})", functools.partial(layer, *mutated)


def _fail(problem):
    def call():
        raise AssertionError(problem)

    return call


def _net():
    return nn.Dense(3, 2)


OPTIMIZERS = [
    "Adadelta",
    "Adagrad",
    "Adam",
    "AdamWeightDecay",
    "Lamb",
    "Momentum",
    "RMSProp",
    "SGD",
]
OPT_BAD = {**BAD_VALUES, "-1": -1, "list of ints": [1, 2]}


def _optimizer(name, **kwargs):
    extra = {"momentum": 0.9} if name == "Momentum" else {}
    params = kwargs.pop("params", None)
    params = _net().trainable_params() if params is None else params
    return getattr(nn, name)(params, **{"learning_rate": 0.1, **extra, **kwargs})


def _step(name, grads):
    optimizer = _optimizer(name)
    return optimizer(grads(optimizer) if callable(grads) else grads)


def optimizer_trials():
    part = functools.partial
    for name in OPTIMIZERS:
        for label, bad in OPT_BAD.items():
            yield f"{name}(params={label})", part(_optimizer, name, params=bad or "")
            yield f"{name}(learning_rate={label})", part(_optimizer, name, learning_rate=bad)
            yield f"{name}(weight_decay={label})", part(_optimizer, name, weight_decay=bad)
        yield f"{name}(unknown keyword)", part(_optimizer, name, no_such_argument=1)
        bad_grads = {
            **BAD_VALUES,
            "too few": lambda o: (Tensor(np.ones(o.parameters[0].shape, np.float32)),),
            "wrong shape": lambda o: tuple(Tensor(np.ones(5, np.float32)) for _ in o.parameters),
            "ints": lambda o: tuple(Tensor(np.ones(p.shape, np.int32)) for p in o.parameters),
        }
        for label, bad in bad_grads.items():
            yield f"{name}(...)(grads={label})", part(_step, name, bad)


def trials() -> list:
    """Every (where, call) of the campaign."""
    return list(layer_trials()) + list(optimizer_trials())


def campaign(verbose: bool = False, sample=None) -> list:
    """The violations of every trial (or of ``sample``, a list of trials)."""
    key = ms._random.RNG_STATE._data
    found = []
    try:
        for where, call in trials() if sample is None else sample:
            problem = check(call)
            if problem:
                found.append((where, problem))
                if verbose:
                    print(f"{where}: {problem}")
    finally:
        ms._random.RNG_STATE._data = key  # random layers drew keys
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="print every violation")
    options = parser.parse_args()
    found = campaign(options.verbose)
    print(f"{len(found)} violations in {len(trials())} calls")


if __name__ == "__main__":
    main()
