"""nn.ScanCell stores its blocks' Parameters pre-stacked, yet behaves as separate blocks.

Every block Parameter stays the same object (name, flags, hooks) but becomes a row view of one
``[depth, ...]`` slot per Parameter position. Each test compares a ScanCell with the unrolled
CellList holding the same values: names, outputs, gradients, optimizer updates and
checkpoint files.
"""

import copy
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import Parameter, Tensor, nn, ops

WIDTH, DEPTH = 6, 4
TOL = {"rtol": 1e-5, "atol": 1e-6}  # the scan body and the unrolled loop fuse differently


class Block(nn.Cell):
    def __init__(self, seed):
        super().__init__()
        rng = np.random.default_rng(seed)
        self.dense = nn.Dense(
            WIDTH, WIDTH, weight_init=Tensor(rng.standard_normal((6, 6)) / 3, ms.float32)
        )
        self.scale = Parameter(Tensor(rng.uniform(0.5, 1.5, (WIDTH,)), ms.float32), name="scale")

    def construct(self, x):
        return ops.tanh(self.dense(x)) * self.scale


def nets():
    """(unrolled, scanned): equal values, equal Parameter names."""
    loop = Loop(scan=False)
    scan = Loop(scan=True)
    for a, b in zip(loop.get_parameters(), scan.get_parameters()):
        b.set_data(a.value())
    return loop, scan


class Loop(nn.Cell):
    def __init__(self, scan):
        super().__init__()
        blocks = [Block(seed) for seed in range(DEPTH)]
        self.body = nn.ScanCell(blocks) if scan else Unrolled(blocks)
        self.head = nn.Dense(WIDTH, 2, weight_init="ones")

    def construct(self, x):
        return self.head(self.body(x))


class Unrolled(nn.Cell):
    def __init__(self, blocks):
        super().__init__()
        self.blocks = nn.CellList(blocks)

    def construct(self, x):
        for block in self.blocks:
            x = block(x)
        return x


def stack_of(param):
    """The stacked values a row-view Parameter belongs to."""
    return param._stack_row[0].asnumpy()


def x_input():
    return Tensor(np.random.default_rng(7).standard_normal((3, WIDTH)), ms.float32)


def loss_fn(net):
    return lambda x: (net(x) ** 2).mean()


def assert_close(got, want, **tol):
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.asnumpy(), w.asnumpy(), **(tol or TOL))


def test_storage_is_stacked_and_names_are_per_block():
    blocks = [Block(seed) for seed in range(DEPTH)]
    weight = blocks[2].dense.weight
    net = nn.ScanCell(blocks)
    assert net.blocks[2].dense.weight is weight  # the same object, now a row of the stack
    stack, row = weight._stack_row
    assert row == 2 and len(net._stacks) == 3 and stack.shape == (DEPTH, WIDTH, WIDTH)
    np.testing.assert_array_equal(stack.asnumpy()[2], weight.asnumpy())
    names = [name for name, _ in net.parameters_and_names()]
    assert sorted(names[:3]) == ["blocks.0.dense.bias", "blocks.0.dense.weight", "blocks.0.scale"]
    assert len(names) == 3 * DEPTH and len(net.trainable_params()) == 3 * DEPTH
    assert weight.shape == (WIDTH, WIDTH) and weight.dtype == ms.float32
    assert isinstance(weight, Parameter) and type(weight).__name__ == "Parameter"
    assert list(net.state_dict()) == [n for n in names]


def test_outputs_and_gradients_match_the_unrolled_blocks():
    loop, scan = nets()
    x = x_input()
    assert_close([scan(x)], [loop(x)])
    for transform in (lambda f: f, ms.jit):
        want = transform(ms.grad(loss_fn(loop), None, loop.trainable_params()))(x)
        got = transform(ms.grad(loss_fn(scan), None, scan.trainable_params()))(x)
        assert len(got) == len(want) == 3 * DEPTH + 2
        assert_close(got, want)
    # a subset of rows, in any order, and gradients w.r.t. the input too
    weights = [scan.body.blocks[3].scale, scan.body.blocks[1].dense.weight]
    ref = [loop.body.blocks[3].scale, loop.body.blocks[1].dense.weight]
    got = ms.grad(loss_fn(scan), 0, weights)(x)
    want = ms.grad(loss_fn(loop), 0, ref)(x)
    assert_close([got[0], *got[1]], [want[0], *want[1]])


def test_stacked_program_takes_one_input_per_stack():
    _, scan = nets()
    lowered = ms.jit(ms.grad(loss_fn(scan), None, scan.trainable_params())).lower(x_input())
    text = lowered.as_text()
    signature = next(line for line in text.splitlines() if "func.func public @main" in line)
    assert f"tensor<{DEPTH}x{WIDTH}x{WIDTH}xf32>" in signature  # a stacked argument
    assert "stablehlo.concatenate" not in text  # nothing is stacked inside the program


def test_a_compiled_gradient_returns_each_stacked_gradient_once():
    loop, scan = nets()
    x = x_input()
    grad = ms.jit(ms.grad(loss_fn(scan), None, scan.trainable_params()))
    results = jax.tree_util.tree_leaves(grad.lower(x).out_info)
    # 3 stacked gradients + the head's weight and bias, not 3 * DEPTH + 2 sliced copies
    assert len(results) == 3 + 2
    assert {tuple(r.shape) for r in results} >= {(DEPTH, WIDTH, WIDTH), (DEPTH, WIDTH)}
    got = grad(x)
    want = ms.grad(loss_fn(loop), None, loop.trainable_params())(x)
    assert len(got) == 3 * DEPTH + 2 and all(isinstance(g, Tensor) for g in got)
    assert [g.shape for g in got] == [w.shape for w in want]
    assert_close(got, want)
    # each row is its own Tensor: writing one leaves the others (and the next call) alone
    first, second = got[0].asnumpy().copy(), got[3].asnumpy().copy()
    got[0][:] = 0.0
    assert not got[0].asnumpy().any()
    np.testing.assert_array_equal(got[3].asnumpy(), second)  # the next block's row
    np.testing.assert_array_equal(grad(x)[0].asnumpy(), first)
    # a subset of the rows is returned row by row
    some = ms.jit(ms.grad(loss_fn(scan), None, [scan.body.blocks[1].scale]))
    shapes = [tuple(r.shape) for r in jax.tree_util.tree_leaves(some.lower(x).out_info)]
    assert shapes == [(WIDTH,)]
    reference = ms.grad(loss_fn(loop), None, [loop.body.blocks[1].scale])(x)
    assert_close(some(x), reference)


@pytest.mark.parametrize("make_opt", [lambda p: nn.SGD(p, 0.1), lambda p: nn.Adam(p, 0.01)])
def test_optimizer_updates_match(make_opt):
    x = x_input()
    results = []
    for compiled in (False, True):
        pair = []
        for net in nets():
            opt = make_opt(net.trainable_params())
            grad_fn = ms.value_and_grad(loss_fn(net), None, opt.parameters)

            def step(x, grad_fn=grad_fn, opt=opt):
                loss, grads = grad_fn(x)
                opt(grads)
                return loss

            step = ms.jit(step) if compiled else step
            for _ in range(2):
                step(x)
            pair.append([p.asnumpy() for p in net.get_parameters()])
        results.append(pair)
    for want, got in results:
        for w, g in zip(want, got):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_a_compiled_train_step_updates_each_stack_from_its_whole_gradient():
    # the optimizer takes a stack's gradient as the program computed it: no per-row slices
    # restacked (a large program of slices and concatenates for XLA to compile away)
    _, scan = nets()
    opt = nn.Momentum(scan.trainable_params(), 0.1, 0.9)
    grad_fn = ms.value_and_grad(loss_fn(scan), None, opt.parameters)

    @ms.jit
    def step(x):
        loss, grads = grad_fn(x)
        opt(grads)
        return loss

    text = step.lower(x_input()).as_text()
    assert "stablehlo.concatenate" not in text
    # no slice of a [DEPTH, ...] stack into rows (older JAX emits identity slices elsewhere)
    assert not re.search(rf"stablehlo\.slice[^\n]*: \(tensor<{DEPTH}x", text)


@pytest.mark.parametrize("fmt", ["ckpt", "safetensors"])
def test_checkpoint_files_are_those_of_the_unrolled_blocks(tmp_path, fmt):
    loop, scan = nets()
    ms.save_checkpoint(loop, str(tmp_path / f"loop.{fmt}"), format=fmt)
    ms.save_checkpoint(scan, str(tmp_path / f"scan.{fmt}"), format=fmt)
    loop_bytes = (tmp_path / f"loop.{fmt}").read_bytes()
    assert (tmp_path / f"scan.{fmt}").read_bytes() == loop_bytes
    # load per-block names into the stacked storage
    other = Loop(scan=True)
    param_dict = ms.load_checkpoint(str(tmp_path / f"loop.{fmt}"), format=fmt)
    assert "body.blocks.3.dense.bias" in param_dict
    not_loaded, _ = ms.load_param_into_net(other, param_dict)
    assert not not_loaded
    for a, b in zip(loop.get_parameters(), other.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    np.testing.assert_array_equal(
        stack_of(other.body.blocks[0].scale),
        np.stack([b.scale.asnumpy() for b in loop.body.blocks]),
    )


def test_state_dict_round_trip_and_writes():
    loop, scan = nets()
    fresh = Loop(scan=True)
    fresh.load_state_dict(loop.state_dict())
    x = x_input()
    np.testing.assert_array_equal(fresh(x).asnumpy(), scan(x).asnumpy())
    row = fresh.body.blocks[1].scale
    row.set_data(Tensor(np.full((WIDTH,), 3.0, np.float32)))
    np.testing.assert_array_equal(stack_of(fresh.body.blocks[0].scale)[1], np.full(WIDTH, 3.0))
    np.testing.assert_array_equal(
        stack_of(fresh.body.blocks[0].scale)[0], scan.body.blocks[0].scale.asnumpy()
    )
    row[0] = 5.0
    assert float(stack_of(fresh.body.blocks[0].scale)[1, 0]) == 5.0
    with pytest.raises(ValueError, match="can not change while it is stored in a ScanCell"):
        row.set_data(Tensor(np.ones((2,), np.float32)))


def test_parameter_hooks_and_deepcopy():
    loop, scan = nets()
    x = x_input()
    for net in (loop, scan):
        net.body.blocks[2].scale.register_hook(lambda g: g * 10)
    want = ms.grad(loss_fn(loop), None, loop.trainable_params())(x)
    got = ms.grad(loss_fn(scan), None, scan.trainable_params())(x)
    assert_close(got, want)
    twin = copy.deepcopy(scan)
    twin.body.blocks[0].scale.set_data(Tensor(np.zeros((WIDTH,), np.float32)))
    assert float(np.abs(scan.body.blocks[0].scale.asnumpy()).min()) > 0  # independent copy
    np.testing.assert_array_equal(stack_of(twin.body.blocks[0].scale)[0], np.zeros(WIDTH))


def test_shared_parameters_fall_back_to_per_block_storage():
    shared = Parameter(Tensor(np.full((WIDTH,), 0.5, np.float32)), name="shared")

    class Tied(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = shared

        def construct(self, x):
            return x * self.w

    net = nn.ScanCell([Tied(), Tied()])
    assert net._stacks is None and type(shared) is Parameter
    np.testing.assert_allclose(net(Tensor(np.ones(WIDTH, np.float32))).asnumpy(), 0.25)


def test_hand_written_scan_gives_the_same_gradients():
    _, scan = nets()
    x = x_input()
    weights = scan.trainable_params()
    got = ms.jit(ms.grad(loss_fn(scan), None, weights))(x)
    got = {w.name: g.asnumpy() for w, g in zip(weights, got)}
    first = scan.body.blocks[0]
    stacks = [p._stack_row[0]._data for p in (first.dense.weight, first.dense.bias, first.scale)]
    head = (scan.head.weight._data, scan.head.bias._data)

    def loss(stacks, head, x):
        def body(h, p):
            w, b, s = p
            return jnp.tanh(h @ w.T + b) * s, None

        h, _ = jax.lax.scan(body, x, stacks)
        return ((h @ head[0].T + head[1]) ** 2).mean()

    want_stacks, want_head = jax.jit(jax.grad(loss, (0, 1)))(stacks, head, x._value)
    for k, name in enumerate(("dense.weight", "dense.bias", "scale")):
        rows = [got[f"body.blocks.{i}.{name}"] for i in range(DEPTH)]
        np.testing.assert_allclose(np.stack(rows), want_stacks[k], **TOL)
    np.testing.assert_allclose(got["head.weight"], want_head[0], **TOL)


@pytest.mark.parametrize(
    "make_opt", [lambda p: nn.Momentum(p, 0.1, 0.9), lambda p: nn.Adam(p, 0.01)]
)
def test_optimizer_updates_stacks_bitwise_as_separate_parameters(make_opt):
    loop, scan = nets()
    grads = ms.grad(loss_fn(loop), None, loop.trainable_params())(x_input())
    opts = [make_opt(net.trainable_params()) for net in (loop, scan)]
    assert opts[1]._row_groups and not opts[0]._row_groups
    state = opts[1]._state_tuples[0][0]  # the state of a row is a row of a stacked state
    assert state._stack_row is not None and state.name.endswith("body.blocks.0.scale")
    for _ in range(2):
        for opt in opts:
            opt(grads)
    for opt in opts:  # and once compiled
        ms.jit(lambda g, opt=opt: opt(g))(grads)
    for a, b in zip(loop.get_parameters(), scan.get_parameters()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())
    for a, b in zip(opts[0].get_parameters(), opts[1].get_parameters()):
        assert a.name == b.name
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy())


def test_pickle_keeps_rows_and_stacks_together():
    import pickle

    _, scan = nets()
    twin = pickle.loads(pickle.dumps(scan))
    row = twin.body.blocks[1].scale
    assert any(row._stack_row[0] is stack for stack in twin.body._stacks)
    x = x_input()
    np.testing.assert_array_equal(twin(x).asnumpy(), scan(x).asnumpy())
    row.set_data(Tensor(np.zeros((WIDTH,), np.float32)))
    assert not np.array_equal(twin(x).asnumpy(), scan(x).asnumpy())  # the row is live


class NormBlock(nn.Cell):
    """Writes state in training: BatchNorm's moving statistics are (stacked) Parameters."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(WIDTH, WIDTH, weight_init="ones")
        self.norm = nn.BatchNorm1d(WIDTH)

    def construct(self, x):
        return ops.tanh(self.norm(self.dense(x)))


def test_functional_call_and_written_statistics_per_block():
    loop, scan = (
        Unrolled([NormBlock() for _ in range(3)]),
        nn.ScanCell([NormBlock() for _ in range(3)]),
    )
    for a, b in zip(loop.get_parameters(), scan.get_parameters()):
        b.set_data(a.value())
    loop.set_train(True)
    scan.set_train(True)
    x = x_input().asnumpy()
    state = ms.state(scan)
    assert list(state) == list(ms.state(loop))  # blocks.0.dense.weight, ...
    out_loop, new_loop = ms.functional_call(loop, ms.state(loop), x)
    out_scan, new_scan = ms.functional_call(scan, state, x)
    np.testing.assert_allclose(np.asarray(out_scan), np.asarray(out_loop), **TOL)
    for key in new_loop:
        np.testing.assert_allclose(np.asarray(new_scan[key]), np.asarray(new_loop[key]), **TOL)
    assert not np.allclose(new_scan["blocks.2.norm.moving_mean"], 0.0)  # written
    ms.jit(scan)(Tensor(x))  # and eagerly through a compiled call, into the stacks
    ms.jit(loop)(Tensor(x))
    for a, b in zip(loop.get_parameters(), scan.get_parameters()):
        np.testing.assert_allclose(b.asnumpy(), a.asnumpy(), **TOL)
