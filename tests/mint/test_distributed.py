"""cellax.mint.distributed on one process (several processes: tests/test_distributed.py's
launcher test): ranks and groups, in-place collectives, handles, the unmapped names."""

import numpy as np
import pytest

import cellax as ms
from cellax.mint import distributed as dist


def test_process_group_one_process(monkeypatch):
    from cellax import _parallel_state, communication

    # init_process_group marks the process initialised: restored after the test
    monkeypatch.setattr(_parallel_state.COMM, "inited", _parallel_state.COMM.inited)
    monkeypatch.setattr(communication.GlobalComm, "INITED", communication.GlobalComm.INITED)
    assert dist.is_available()
    dist.init_process_group()
    assert dist.is_initialized()
    assert (dist.get_rank(), dist.get_world_size(), dist.get_backend()) == (0, 1, "hccl")
    assert dist.new_group() == "hccl_world_group"
    assert dist.get_process_group_ranks() == [0]
    assert dist.get_global_rank("hccl_world_group", 0) == 0
    assert dist.get_group_rank("hccl_world_group", 0) == 0
    with pytest.raises(ValueError, match="'world_size' is 2, but the launched job has"):
        dist.init_process_group(world_size=2)
    with pytest.raises(TypeError, match="'backend' must be a str"):
        dist.init_process_group(backend=1)


def test_collectives_in_place_one_process():
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    assert dist.all_reduce(x) is None
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])
    handle = dist.all_reduce(x, op="max", async_op=True)
    assert handle.wait() is None
    out = [ms.Tensor(np.zeros(2, np.float32))]
    dist.all_gather(out, x)
    np.testing.assert_array_equal(out[0].asnumpy(), [1.0, 2.0])
    into = ms.Tensor(np.zeros(2, np.float32))
    dist.all_gather_into_tensor(into, x)
    np.testing.assert_array_equal(into.asnumpy(), [1.0, 2.0])
    dist.reduce_scatter_tensor(into, ms.Tensor(np.array([3.0, 4.0], np.float32)))
    np.testing.assert_array_equal(into.asnumpy(), [3.0, 4.0])
    dist.broadcast(x, 0)
    dist.reduce(x, 0)
    dist.barrier()
    np.testing.assert_array_equal(x.asnumpy(), [1.0, 2.0])
    with pytest.raises(TypeError, match="'tensor' must be a Tensor, but got list"):
        dist.all_reduce([1.0])
    with pytest.raises(ValueError, match="'op' must be one of"):
        dist.all_reduce(x, op="bogus")
    with pytest.raises(ValueError, match="'tensor_list' must hold 1 tensors"):
        dist.all_gather([], x)
    with pytest.raises(ValueError, match=r"output tensor must have shape \(2,\), but got \(3,\)"):
        dist.all_gather_into_tensor(ms.Tensor(np.zeros(3, np.float32)), x)
    with pytest.raises(NotImplementedError, match="For 'send', point-to-point"):
        dist.send(x, 0)


def test_ops_communication_extras_one_process():
    from cellax.ops import communication as comm

    assert comm.all_reduce is dist.all_reduce and not hasattr(dist, "scatter_tensor")
    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    gathered = [ms.Tensor(np.zeros(2, np.float32))]
    comm.gather(x, gathered)
    out = ms.Tensor(np.zeros(2, np.float32))
    comm.gather_into_tensor(out, x)
    np.testing.assert_array_equal(out.asnumpy(), [1.0, 2.0])
    comm.scatter(out, [ms.Tensor(np.array([5.0, 6.0], np.float32))])
    np.testing.assert_array_equal(out.asnumpy(), [5.0, 6.0])
    comm.scatter_tensor(out, x)
    comm.reduce_scatter(out, [ms.Tensor(np.array([7.0, 8.0], np.float32))])
    np.testing.assert_array_equal(out.asnumpy(), [7.0, 8.0])
    np.testing.assert_array_equal(gathered[0].asnumpy(), [1.0, 2.0])
    # not in place: (result, handle), the tensors untouched
    try:
        comm.set_comm_ops_inplace(False, ["all_reduce", "broadcast"])
        result, handle = comm.all_reduce(x, async_op=True)
        assert handle.wait() is None
        np.testing.assert_array_equal(result.asnumpy(), [1.0, 2.0])
        assert comm.broadcast(x, 0)[1] is None
        assert comm.all_gather_into_tensor(out, x) is None  # still in place
        with pytest.raises(ValueError, match="'bogus' is not a communication function"):
            comm.set_comm_ops_inplace(True, ["bogus"])
        with pytest.raises(TypeError, match="'is_enable' must be type of bool"):
            comm.set_comm_ops_inplace(1)
    finally:
        comm.set_comm_ops_inplace(True)
    a2a = ms.Tensor(np.zeros(2, np.float32))
    comm.all_to_all_single(a2a, x)
    np.testing.assert_array_equal(a2a.asnumpy(), [1.0, 2.0])
    with pytest.raises(ValueError, match=r"'input_split_sizes' \[1\] must give one block"):
        comm.all_to_all_single(a2a, x, input_split_sizes=[1])
    lst = [ms.Tensor(np.zeros(2, np.float32))]
    comm.all_to_all(lst, [x])
    np.testing.assert_array_equal(lst[0].asnumpy(), [1.0, 2.0])
    with pytest.raises(NotImplementedError, match="'all_to_all_v_c'"):
        comm.all_to_all_v_c(x, x, [[1]])
