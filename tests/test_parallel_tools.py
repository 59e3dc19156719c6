"""mindspore.parallel's module-level tools on one device: merge_sliced_parameter, the
strategy-search settings, segmented/merged checkpoints; messages and defaults are
MindSpore 2.10's (CPU). Several processes: tests/test_distributed.py (launcher test)."""

import os

import numpy as np
import pytest

import cellax as ms
from cellax import nn, parallel


def _param(values, name="w", dtype=np.float32, **kwargs):
    return ms.Parameter(ms.Tensor(np.array(values, dtype)), name, **kwargs)


def test_merge_sliced_parameter():
    a, b = _param([[1.0, 2.0]]), _param([[3.0, 4.0]])
    merged = parallel.merge_sliced_parameter([a, b])
    assert merged.name == "w" and merged.requires_grad and not merged.layerwise_parallel
    np.testing.assert_array_equal(merged.asnumpy(), [[1.0, 2.0], [3.0, 4.0]])
    frozen = parallel.merge_sliced_parameter([_param([[0.0, 0.0]], requires_grad=False), b])
    assert not frozen.requires_grad  # the first slice's flags, as MindSpore
    wide = parallel.merge_sliced_parameter([a, _param([[3.0, 4.0]], dtype=np.float64)])
    assert wide.dtype == ms.float64
    assert parallel.merge_sliced_parameter([a, b], strategy={}).shape == (2, 2)
    cases = [
        (((a, b),), TypeError, "'sliced_parameters' should be list, but got <class 'tuple'>"),
        (([],), ValueError, "'sliced_parameters' should not be empty"),
        (
            ([a, np.ones(2)],),
            TypeError,
            "should be 'Parameter', but got <class 'numpy.ndarray'> at",
        ),
        (([a, _param([[3.0, 4.0]], "v")],), ValueError, r"should be w, 2, \(2,\), but got name: v"),
        (([a, _param([[3.0, 4.0, 5.0]])],), ValueError, r"shape except 0 axis: \(3,\) at index 1"),
    ]
    for args, exc, match in cases:
        with pytest.raises(exc, match=match):
            parallel.merge_sliced_parameter(*args)
    with pytest.raises(NotImplementedError, match="strategy files are not supported"):
        parallel.merge_sliced_parameter([a, b], strategy={"w": object()})


def test_algo_parameters():
    assert parallel.get_algo_parameters("algo_approxi_epsilon") == 0.10000000149011612
    assert parallel.get_algo_parameters("tensor_slice_align_size") == 16
    try:
        with pytest.warns(UserWarning, match="'fully_use_devices' has no JAX counterpart"):
            parallel.set_algo_parameters(fully_use_devices=True)
        assert parallel.get_algo_parameters("fully_use_devices") is True
        with pytest.raises(ValueError, match="Set context keyword bogus is not recognized!"):
            parallel.set_algo_parameters(bogus=1)
        with pytest.raises(ValueError, match="Get context keyword bogus is not recognized!"):
            parallel.get_algo_parameters("bogus")
        with pytest.raises(TypeError, match="'fully_use_devices' must be <class 'bool'>, but"):
            parallel.set_algo_parameters(fully_use_devices=1)
        with pytest.raises(ValueError, match=r"Align_size must be in \[1, 1024\], but got 0"):
            parallel.set_algo_parameters(tensor_slice_align_size=0)
        with pytest.raises(RuntimeError, match=r"'epsilon' must be in \(0, 1\]"):
            parallel.set_algo_parameters(algo_approxi_epsilon=2.0)
    finally:
        parallel.reset_algo_parameters()
    assert parallel.get_algo_parameters("fully_use_devices") is False


def test_segmented_and_transformed_checkpoints(tmp_path):
    ms.set_seed(1)
    net = nn.SequentialCell([nn.Dense(3, 4), nn.Dense(4, 2)])
    ms.save_checkpoint(net[0], str(tmp_path / "a.ckpt"))
    ms.save_checkpoint(net[1], str(tmp_path / "b.ckpt"))
    # the graph MindSpore's ModelCheckpoint writes beside checkpoints in GRAPH_MODE (a protobuf)
    (tmp_path / "net-graph.meta").write_bytes(b'\x08\x01"\xc9&\nv\n\n\n\x06weight\x10\x00')
    loaded = parallel.load_segmented_checkpoints(str(tmp_path))
    assert sorted(loaded) == ["0.bias", "0.weight", "1.bias", "1.weight"]  # both files
    with pytest.raises(ValueError, match="must end with the format 'ckpt'"):
        ms.load_checkpoint(str(tmp_path / "net-graph.meta"))
    np.testing.assert_array_equal(loaded["1.weight"].asnumpy(), net[1].weight.asnumpy())
    with pytest.raises(ValueError, match="must be a folder"):
        parallel.load_segmented_checkpoints(str(tmp_path / "a.ckpt"))
    # one rank folder with a full file (the last by name is used), merged into safetensors
    os.makedirs(tmp_path / "src" / "rank_0")
    ms.save_checkpoint(net[1], str(tmp_path / "src" / "rank_0" / "a.ckpt"))
    ms.save_checkpoint(net, str(tmp_path / "src" / "rank_0" / "b.ckpt"), integrated_save=False)
    parallel.transform_checkpoints(
        str(tmp_path / "src"), str(tmp_path / "dst"), "net", output_format="safetensors"
    )
    path = tmp_path / "dst" / "rank_0" / "net0.safetensors"
    merged = ms.load_checkpoint(str(path), format="safetensors")
    assert sorted(merged) == sorted(p.name for p in net.get_parameters())
    for p in net.get_parameters():
        np.testing.assert_array_equal(merged[p.name].asnumpy(), p.asnumpy())
    with pytest.raises(NotImplementedError, match="strategy files are not read"):
        parallel.transform_checkpoints(str(tmp_path / "src"), str(tmp_path), "x", "s.ckpt")
    with pytest.raises(ValueError, match="no rank_<id> folder"):
        parallel.convert_checkpoints(str(tmp_path / "dst" / "rank_0"), str(tmp_path), "x")
    for name in ("build_searched_strategy", "rank_list_for_transform", "unified_safetensors"):
        with pytest.raises(NotImplementedError, match=f"For '{name}', MindSpore strategy files"):
            getattr(parallel, name)("strategy.ckpt")


def test_parameter_broadcast_one_process():
    net = nn.Dense(2, 1)
    before = net.weight.asnumpy().copy()
    parallel.parameter_broadcast(net, {"weight": None})
    np.testing.assert_array_equal(net.weight.asnumpy(), before)
    with pytest.raises(ValueError, match="'cur_rank' must be the rank of this process 0"):
        parallel.parameter_broadcast(net, {"weight": None}, cur_rank=1)
    with pytest.raises(ValueError, match="'nope' of 'layout' is not found"):
        parallel.parameter_broadcast(net, {"nope": None})
    with pytest.raises(TypeError, match="'layout' must be a dict"):
        parallel.parameter_broadcast(net, ["weight"])
    parallel.sync_pipeline_shared_parameters(net)
    assert parallel.nn.Pipeline is ms.parallel.nn.Pipeline


def test_mindspore_module_paths_resolve():
    # the module paths distributed scripts import from, through alias_mindspore()
    import importlib

    handle = ms.alias_mindspore()
    try:
        paths = {
            "mindspore.communication.management": ("init", "get_rank", "get_group_size"),
            "mindspore.parallel": ("merge_sliced_parameter", "transform_checkpoints", "Layout"),
            "mindspore.parallel.nn": ("Pipeline", "GradAccumulation", "PipelineGradReducer"),
            "mindspore.parallel.checkpoint_transform": ("transform_checkpoints",),
            "mindspore.parallel.algo_parameter_config": ("set_algo_parameters",),
            "mindspore.ops.communication": ("all_reduce", "set_comm_ops_inplace"),
            "mindspore.mint.distributed": ("init_process_group", "all_gather"),
        }
        for path, names in paths.items():
            module = importlib.import_module(path)
            assert module is importlib.import_module("cellax" + path[len("mindspore") :])
            for name in names:
                assert callable(getattr(module, name)), (path, name)
    finally:
        handle.remove()
    from cellax.communication import management

    assert management.DEFAULT_WORLD_COMM_GROUP == "hccl_world_group"
    with pytest.raises(ValueError, match="'device_target' must be one of"):
        management.is_initialized("TPU")


def test_private_parallel_utils_of_model_zoo_cells():
    # mindspore.parallel._utils, as custom TrainOneStepCells use it (MindSpore 2.10 values)
    from cellax.parallel import _utils

    assert (_utils._get_device_num(), _utils._get_gradients_mean()) == (1, False)
    assert (_utils._get_parallel_mode(), _utils._get_global_rank()) == ("stand_alone", 0)
    assert (_utils._get_pipeline_stages(), _utils._get_stage_device_num()) == (1, 1)
    assert not _utils._is_in_auto_parallel_mode() and not _utils._need_to_full()
    try:
        ms.set_auto_parallel_context(
            parallel_mode="data_parallel", gradients_mean=True, device_num=8
        )
        assert _utils._get_device_num() == 8 and _utils._get_gradients_mean()
        assert _utils._get_parallel_mode() == "data_parallel"
        assert not _utils._is_in_auto_parallel_mode()
        from cellax.parallel._auto_parallel_context import auto_parallel_context

        apc = auto_parallel_context()
        assert (apc.get_parallel_mode(), apc.get_device_num()) == ("data_parallel", 8)
        apc.set_gradients_mean(False)
        assert ms.get_auto_parallel_context("gradients_mean") is False
        apc.reset()
        assert apc.get_parallel_mode() == "stand_alone"
    finally:
        ms.reset_auto_parallel_context()
