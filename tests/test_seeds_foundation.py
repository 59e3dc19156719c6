"""The Tensor / Parameter / ParameterTuple / initializer examples of the seed documents
(/work/shared/seeds 000, 001, 003, 004) print what the documents show (random values aside)."""

import numpy as np

import cellax as ms
from cellax import Parameter, ParameterTuple, Tensor, ops
from cellax.common.initializer import initializer


def test_seed000_functional_add(capsys):
    x = ms.Tensor([1, 2, 3], ms.float32)
    y = ms.Tensor([4, 5, 6], ms.float32)
    print(ops.add(x, y))
    print(x + y)
    assert capsys.readouterr().out == "[5. 7. 9.]\n[5. 7. 9.]\n"


def test_seed000_parameter_lists(capsys):
    w = Parameter(initializer("normal", (1, 2), ms.float32), name="weight")
    b = Parameter(initializer("zeros", (1,), ms.float32), name="bias")
    print([w, b])
    b.requires_grad = False
    print([p for p in (w, b) if p.requires_grad])
    print({"weight": w, "bias": b})
    print(b.name, b.data.asnumpy())
    assert capsys.readouterr().out == (
        "[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
        "Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=True)]\n"
        "[Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True)]\n"
        "{'weight': Parameter (name=weight, shape=(1, 2), dtype=Float32, requires_grad=True), "
        "'bias': Parameter (name=bias, shape=(1,), dtype=Float32, requires_grad=False)}\n"
        "bias [0.]\n"
    )


def test_seed001_parameter_updates(capsys):
    b = Parameter(Tensor(np.array([-0.5028582, 1.1633672, 0.09719072]), ms.float32), name="b")
    print(b.asnumpy())
    b[0] = 1.0
    print(b.asnumpy())
    b.set_data(Tensor([3, 4, 5]))
    print(b.asnumpy())
    ops.assign(b, ms.Tensor([7, 8, 9]))
    print(b.asnumpy())
    assert capsys.readouterr().out == (
        "[-0.5028582   1.1633672   0.09719072]\n[1.         1.1633672  0.09719072]\n"
        "[3. 4. 5.]\n[7. 8. 9.]\n"
    )


def test_seed001_parameter_tuple(capsys):
    x = Parameter(default_input=ms.Tensor(np.arange(2 * 3).reshape((2, 3))), name="x")
    y = Parameter(default_input=initializer("ones", [1, 2, 3], ms.float32), name="y")
    z = Parameter(default_input=2.0, name="z")
    params = ParameterTuple((x, y, z))
    params_copy = params.clone("params_copy")
    print(params)
    print(params_copy)
    assert capsys.readouterr().out == (
        "(Parameter (name=x, shape=(2, 3), dtype=Int64, requires_grad=True), "
        "Parameter (name=y, shape=(1, 2, 3), dtype=Float32, requires_grad=True), "
        "Parameter (name=z, shape=(), dtype=Float32, requires_grad=True))\n"
        "(Parameter (name=params_copy.x, shape=(2, 3), dtype=Int64, requires_grad=True), "
        "Parameter (name=params_copy.y, shape=(1, 2, 3), dtype=Float32, requires_grad=True), "
        "Parameter (name=params_copy.z, shape=(), dtype=Float32, requires_grad=True))\n"
    )


def test_seed001_reprs(capsys):
    inputs = ms.Tensor([0.1, 0.2, 0.3], ms.float32)
    out = ops.select(inputs > 0.1, inputs, ops.fill(inputs.dtype, inputs.shape, 20))
    print(repr(out))
    print((Tensor(2.0),))
    print((Tensor(4.0), Tensor(4.0)))
    print((Tensor([2.0]), Tensor([2.0])))
    print((Tensor(np.ones((1, 2, 1, 1)), ms.float32),))
    print(Tensor(np.full((1, 1, 2, 2), 2.0), ms.float32))
    assert capsys.readouterr().out == (
        "Tensor(shape=[3], dtype=Float32, value= [ 2.00000000e+01,  2.00000003e-01,  "
        "3.00000012e-01])\n"
        "(Tensor(shape=[], dtype=Float32, value= 2),)\n"
        "(Tensor(shape=[], dtype=Float32, value= 4), Tensor(shape=[], dtype=Float32, value= 4))\n"
        "(Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), "
        "Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))\n"
        "(Tensor(shape=[1, 2, 1, 1], dtype=Float32, value=\n[[[[ 1.00000000e+00]],\n"
        "  [[ 1.00000000e+00]]]]),)\n"
        "[[[[2. 2.]\n   [2. 2.]]]]\n"
    )


def test_seed004_shapes_and_prints(capsys):
    x = ops.ones((1, 28, 28), ms.float32)
    print(x.shape)
    logits = Tensor(
        np.array(
            [
                [
                    -4.94648516e-03,
                    6.39686594e-04,
                    3.57396412e-03,
                    1.0,
                    2.0,
                    3.0,
                    -4.10500448e-03,
                    -7.01633748e-03,
                    6.29030075e-03,
                    0.5,
                ]
            ]
        ),
        ms.float32,
    )
    print(repr(logits))
    y_pred = Tensor([5])
    print(f"Predicted class: {y_pred}")
    w = Parameter(Tensor(np.full((5, 3), 0.136578202), ms.float32), name="w")
    print(w[:2].shape, Tensor([0.0, 0.0]))
    assert capsys.readouterr().out == (
        "(1, 28, 28)\n"
        "Tensor(shape=[1, 10], dtype=Float32, value=\n[[-4.94648516e-03,  6.39686594e-04,  "
        "3.57396412e-03 ... -7.01633748e-03,  6.29030075e-03,  5.00000000e-01]])\n"
        "Predicted class: [5]\n"
        "(2, 3) [0. 0.]\n"
    )


def test_seed004_grad_tuple_repr():
    g = Tensor(
        np.tile(np.array([1.36578202e-01, 2.98192710e-01, 1.29727080e-01]), (5, 1)), ms.float32
    )
    row = "[ 1.36578202e-01,  2.98192710e-01,  1.29727080e-01]"
    assert repr(g) == (
        "Tensor(shape=[5, 3], dtype=Float32, value=\n[" + row + (",\n " + row) * 4 + "])"
    )
    assert repr(g[0]) == "Tensor(shape=[3], dtype=Float32, value= " + row + ")"
