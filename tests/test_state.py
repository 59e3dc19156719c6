"""The state frame (cellax/_core): the invariants of its README.md, one test group each.

1. reads/writes go through the frame; 2. nesting and discovery; 3. no frame writes into
``slot._data``; 4. frames are thread-local; 5. per-Cell versions (Registry, versioned fields,
the hook epoch) and what stays a compile-time constant. Also the functional protocol
(``functionalize``, ``partition``/``combine``) and the cast frame.
"""

import threading

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import _core, nn, ops
from cellax._core import CastFrame, DiscoveringFrame, Frame, Registry


def _param(value, name="p"):
    return ms.Parameter(ms.Tensor(np.asarray(value, np.float32)), name=name)


# -- 1. read/write ----------------------------------------------------------------------------
def test_outside_any_frame_read_and_write_touch_the_slot():
    p = _param([1.0, 2.0])
    assert _core.current_frame() is None
    np.testing.assert_array_equal(_core.read(p), [1.0, 2.0])
    _core.write(p, jnp.array([3.0, 4.0]))
    np.testing.assert_array_equal(p._data, [3.0, 4.0])


# -- 2. nesting, discovery ----------------------------------------------------------------------
def test_nested_frames_read_through_parents_and_keep_writes_local():
    p, q = _param(1.0, "p"), _param(10.0, "q")
    outer = Frame([p], [jnp.float32(2.0)])
    with outer:
        inner = Frame(parent=outer)
        with inner:
            assert float(p._value) == 2.0  # from the parent
            assert float(q._value) == 10.0  # from the slot itself, through both frames
            p._value = jnp.float32(5.0)
            assert float(p._value) == 5.0
        assert _core.current_frame() is outer
        assert float(p._value) == 2.0  # the inner write stays in the inner frame
        assert [s for s, _ in inner.written_items()] == [p]
        _core.commit(inner.written_items())
        assert float(p._value) == 5.0
    assert _core.current_frame() is None
    assert float(p._data) == 1.0 and float(q._data) == 10.0  # 3. no frame wrote _data


def test_discovering_frame_reports_slots_it_does_not_hold():
    held, missed = _param(1.0, "held"), _param(2.0, "missed")
    stateful = _core.functionalize(lambda: held._value + missed._value, [held], DiscoveringFrame)
    with pytest.raises(_core.SlotDiscovered) as info:
        stateful([jnp.float32(1.0)])
    assert info.value.slots == [missed]
    out, new_values = _core.functionalize(
        lambda: held._value + missed._value, [held, missed], DiscoveringFrame
    )([jnp.float32(1.0), jnp.float32(2.0)])
    assert float(out) == 3.0 and new_values == []


def test_slots_of_finds_slots_and_cells_through_closures_globals_and_lists():
    dense, other = nn.Dense(2, 2), nn.Dense(2, 2)
    p = _param(1.0)
    layers = [other]

    def fn(x):
        return layers[0](dense(x)) * p

    slots, cells, refs = {}, {}, []
    _core.slots_of(fn, slots, cells, refs, set())
    assert {id(s) for s in slots.values()} == {
        id(p),
        id(dense.weight),
        id(dense.bias),
        id(other.weight),
        id(other.bias),
    }
    assert dense in cells.values() and other in cells.values()
    guard = _core.guard_ids(refs)
    layers.append(nn.ReLU())  # a Cell appended to a closed-over list changes the guard
    assert _core.guard_ids(refs) != guard


def test_guard_matcher_says_what_comparing_guard_ids_says():
    weight = _param(1.0)
    namespace = {"net": nn.Dense(2, 2), "scale": weight}
    layers = [nn.ReLU()]

    def make():
        dense = nn.Dense(2, 2)

        def fn():
            return dense, layers, namespace

        def rebind(value):
            nonlocal dense
            dense = value

        def drop():
            nonlocal dense
            del dense

        return fn, rebind, drop

    fn, rebind, drop = make()
    exec("def read():\n    return net, scale\n", namespace)
    refs: list = []
    _core.slots_of(fn, {}, {}, refs, set())
    _core.slots_of(namespace["read"], {}, {}, refs, set())
    changes = [
        lambda: rebind(nn.Dense(2, 2)),  # a closure cell rebound
        lambda: namespace.__setitem__("scale", _param(1.0)),  # an equal Parameter: not the same
        lambda: namespace.pop("net"),  # a global deleted
        lambda: layers.append(nn.ReLU()),  # a Cell appended to a closed-over list
        drop,  # a closure cell emptied
    ]
    for change in changes:
        guard, holds = _core.guard_ids(refs), _core.guard_matcher(refs)
        assert holds()
        change()
        assert _core.guard_ids(refs) != guard
        assert not holds()


class _EqualToAll:
    """Equal to everything: a guard that compared values instead of identities would miss
    that it was replaced."""

    def __call__(self):
        return None

    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


def test_guard_matcher_compares_identity_and_reads_every_root():
    def make(count):
        fns = [_EqualToAll() for _ in range(count)]
        namespace = {"__name__": "user_code", "layers": None}
        reads = "\n".join(f"    f{i}()" for i in range(count))
        exec(f"def read():\n    layers\n{reads}\n", namespace)
        for i, fn in enumerate(fns):
            namespace[f"f{i}"] = fn
        refs = [(namespace, "layers")] + [(namespace, f"f{i}") for i in range(count)]
        return namespace, refs

    namespace, refs = make(300)  # many roots: one check per root, none skipped
    holds = _core.guard_matcher(refs)
    assert holds()
    namespace["f299"] = _EqualToAll()  # equal, but another object
    assert not holds()
    namespace, refs = make(2)
    holds = _core.guard_matcher(refs)
    namespace["layers"] = [nn.ReLU()]  # None (deep-compared) rebound to a list
    assert not holds()
    namespace["layers"] = None
    assert holds()


def test_jit_discovers_a_slot_reached_only_while_tracing():
    hidden = {"p": _param(3.0)}
    step = ms.jit(lambda x: x * ms.Tensor(1.0) * _lookup(hidden))
    np.testing.assert_allclose(step(ms.Tensor(2.0)).asnumpy(), 6.0)
    ops.assign(hidden["p"], ms.Tensor(4.0))
    np.testing.assert_allclose(step(ms.Tensor(2.0)).asnumpy(), 8.0)  # an input, not a constant


def _lookup(holder):
    return holder["p"]


# -- the cast frame -----------------------------------------------------------------------------
def test_cast_frame_casts_real_floats_only_and_reads_masters_below_it():
    f32 = _param([1.5, 2.5])
    i32 = ms.Parameter(ms.Tensor(np.array([1, 2], np.int32)), name="i")
    c64 = ms.Parameter(ms.Tensor(np.array([1 + 1j], np.complex64)), name="c")
    with CastFrame(np.dtype(np.float16), None) as frame:
        assert f32._value.dtype == jnp.float16
        assert i32._value.dtype == jnp.int32
        assert c64._value.dtype == jnp.complex64  # amp and the cast frame skip complex
        assert _core.read_master(frame, f32).dtype == jnp.float32


def test_call_with_param_dtype_writes_back_in_the_master_dtype():
    p = _param([1.0, 2.0])

    def update():
        assert p._value.dtype == jnp.bfloat16
        p._value = p._value * 2
        return p._value

    out = ms._transforms.call_with_param_dtype(update, jnp.bfloat16, (), {})
    assert out.dtype == jnp.bfloat16
    assert p._data.dtype == jnp.float32
    np.testing.assert_array_equal(p._data, [2.0, 4.0])


# -- the functional protocol --------------------------------------------------------------------
def test_functionalize_is_pure_and_commits_one_level_up():
    p = _param(1.0)

    def fn(x):
        p._value = p._value + x
        return p._value * 2

    stateful = _core.functionalize(fn, [p])
    out, new_values = jax.jit(stateful)([jnp.float32(5.0)], jnp.float32(1.0))
    assert float(out) == 12.0 and float(new_values[0]) == 6.0
    assert float(p._data) == 1.0  # nothing written yet
    assert stateful.written == [p]
    stateful.commit(new_values, how=lambda slot, new, old: new + old)
    assert float(p._data) == 7.0


def test_every_trace_of_one_stateful_must_write_the_same_slots():
    a, b = _param(1.0, "a"), _param(2.0, "b")
    which = [a]

    def fn():
        which[0]._value = jnp.float32(0.0)

    stateful = _core.functionalize(fn)
    stateful(())
    which[0] = b
    with pytest.raises(_core.WritesChanged):
        stateful(())
    limited = _core.functionalize(fn, [a, b], returns=[a])
    with pytest.raises(_core.WritesChanged):  # b is written but not among ``returns``
        limited([jnp.float32(1.0), jnp.float32(2.0)])


def test_partition_and_combine_round_trip_with_a_hashable_static_part():
    tree = ({"x": jnp.ones(2), "n": 3}, [jnp.zeros(1), "name"])
    dynamic, static = _core.partition(tree)
    assert len(dynamic) == 2
    _, again = _core.partition(({"x": jnp.zeros(2), "n": 3}, [jnp.ones(1), "name"]))
    assert hash(static) == hash(again) and static == again
    _, other = _core.partition(({"x": jnp.zeros(2), "n": 4}, [jnp.ones(1), "name"]))
    assert static != other
    rebuilt = _core.combine(dynamic, static)
    assert rebuilt[0]["n"] == 3 and rebuilt[1][1] == "name"
    np.testing.assert_array_equal(rebuilt[0]["x"], jnp.ones(2))


# -- 4. threads ---------------------------------------------------------------------------------
def test_frames_are_thread_local():
    p = _param(0.0)
    barrier = threading.Barrier(2, timeout=30)
    seen = {}

    def worker(value):
        with Frame([p], [jnp.float32(value)]):
            barrier.wait()  # both frames are active now
            seen[value] = float(p._value)
            barrier.wait()

    threads = [threading.Thread(target=worker, args=(v,)) for v in (1.0, 2.0)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == {1.0: 1.0, 2.0: 2.0}
    assert float(p._data) == 0.0


# -- 5. versions --------------------------------------------------------------------------------
MUTATIONS = {
    "setitem": lambda r: r.__setitem__("c", 3),
    "delitem": lambda r: r.__delitem__("a"),
    "pop": lambda r: r.pop("a"),
    "popitem": lambda r: r.popitem(),
    "clear": lambda r: r.clear(),
    "update": lambda r: r.update(c=3),
    "setdefault": lambda r: r.setdefault("c", 3),
    "move_to_end": lambda r: r.move_to_end("a"),
    "ior": lambda r: r.__ior__({"c": 3}),
}


@pytest.mark.parametrize("name", sorted(MUTATIONS))
def test_each_registry_mutation_bumps_its_owner_only(name):
    owner, bystander = nn.ReLU(), nn.ReLU()
    registry = Registry(owner, a=1, b=2)
    before, other = owner._version, bystander._version
    MUTATIONS[name](registry)
    assert owner._version > before
    assert bystander._version == other


def test_reading_a_registry_bumps_nothing():
    owner = nn.ReLU()
    registry = Registry(owner, a=1)
    before = owner._version
    registry.get("a"), registry["a"], list(registry.items()), registry.setdefault("a", 5)
    assert owner._version == before


@pytest.mark.parametrize(
    "change",
    [
        lambda net: setattr(net, "extra", nn.ReLU()),
        lambda net: delattr(net, "weight"),
        lambda net: net.insert_param_to_cell("w2", _param(1.0, "w2")),
        lambda net: net.register_buffer("buf", ms.Tensor([1.0])),
        lambda net: net.register_forward_hook(lambda *a: None),
        lambda net: net.recompute(),
        lambda net: net.to_float(ms.float16),
        lambda net: setattr(net, "_amp_output_dtype", ms.float32),
    ],
    ids=["child", "del-param", "param", "buffer", "hook", "recompute", "to_float", "amp"],
)
def test_structural_changes_bump_the_cell_version(change):
    net, bystander = nn.Dense(2, 2), nn.Dense(2, 2)
    before, other = net._version, bystander._version
    change(net)
    assert net._version > before and bystander._version == other


def test_hooks_on_parameters_bump_the_epoch_and_no_cell():
    net = nn.Dense(2, 2)
    before, epoch = net._version, _core.param_hook_epoch()
    handle = net.weight.register_hook(lambda grad: grad)
    assert _core.param_hook_epoch() > epoch
    epoch = _core.param_hook_epoch()
    handle.remove()
    assert _core.param_hook_epoch() > epoch
    assert net._version == before


def test_a_cell_hook_handle_removal_bumps_the_cell():
    net = nn.ReLU()
    handle = net.register_forward_pre_hook(lambda cell, inputs: None)
    before = net._version
    handle.remove()
    assert net._version > before
    after = net._version
    handle.remove()  # idempotent: nothing left to remove, nothing bumped
    assert net._version == after


def test_plain_attributes_and_requires_grad_are_compile_time_constants():
    class Scale(nn.Cell):
        def __init__(self):
            super().__init__()
            self.factor = 2.0
            self.w = _param(1.0, "w")

        def construct(self, x):
            return x * self.factor * self.w

    net = Scale()
    step = ms.jit(net)
    x = ms.Tensor(np.float32(1.0))
    assert float(step(x).asnumpy()) == 2.0
    net.factor = 3.0  # not a registry or versioned field: the program keeps 2.0
    net.w.requires_grad = False
    assert float(step(x).asnumpy()) == 2.0
    assert step.trace_count == 1
    assert float(net(x).asnumpy()) == 3.0  # eager code sees the new value


def test_guard_follows_mutable_containers_only_where_state_can_change():
    dense = nn.Dense(2, 2)
    losses, layers = [], [dense]
    nested = (layers, 1.0)

    def fn():
        return losses, nested

    slots, cells, refs = {}, {}, []
    _core.slots_of(fn, slots, cells, refs, set())
    guard = _core.guard_ids(refs)
    losses.append(0.5)  # numbers hold no state: the same guard, no recompilation
    assert _core.guard_ids(refs) == guard
    layers.append(nn.ReLU())  # a Cell in a list inside a closed-over tuple: a new guard
    assert _core.guard_ids(refs) != guard
