"""The MindSpore module paths and names that mindformers 2.1.0, tinyms 0.3.2 and mindocr 0.5.0
import (issue 34, "Imports"): each path imports under the alias as the cellax module, and the
names with behaviour behave as in MindSpore 2.10 (reference values from MindSpore 2.10 CPU)."""

import importlib
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest

import cellax as ms
from cellax import nn, ops

PATHS = [
    ("parallel._utils", "_is_sharding_propagation"),
    ("parallel._cost_model_context", "_set_multi_subgraphs _set_rp_matmul_mem_coef"),
    ("parallel.shard", "Layout _DistributedTensorInfo shard"),
    ("parallel.strategy", "enable_save_strategy_online get_strategy_metadata"),
    ("communication._comm_helper", "_is_initialized _get_group_map _remove_group_info"),
    ("common", "__all__ mutable jit lazy_inline jit_class _no_grad flops_collection"),
    ("common.dtype", "all_types"),
    ("common.initializer", "Tensor"),
    ("common.tensor", "_TensorMeta"),
    ("common.np_dtype", "bfloat16"),
    ("common._stub_tensor", "StubTensor"),
    ("common.file_system", "mindio_preload set_mindio_server_info"),
    ("common.api", "flops_collection"),
    ("common.symbol", "Symbol"),
    ("nn.wrap", "__all__ GradAccumulationCell"),
    ("nn.wrap.cell_wrapper", "GradAccumulationCell _MicroBatch _VirtualDatasetCell"),
    ("nn.loss.loss", "_Loss"),
    ("nn.optim", "AdaFactor"),
    ("nn.optim.adafactor", "AdaFactor"),
    ("ops", "StridedSlice ROIAlign Morph CustomRegOp MoveTo"),
    ("ops.operations", "StridedSlice Morph ROIAlign"),
    ("ops.auto_generate", "AddExt SumExt StackExt Chunk Scatter StridedSlice GroupedMatmul"),
    ("ops.auto_generate", "gen_ops_prim pyboost_inner_prim MoeInitRoutingV2 QuantV2"),
    ("ops.auto_generate.gen_ops_prim", "Swiglu MaxPoolWithIndices MaxPoolWithMask Empty"),
    ("ops.auto_generate.pyboost_inner_prim", ""),
    ("ops.operations._grad_ops", "StridedSliceGrad"),
    ("ops.operations._inner_ops", "Generator"),
    ("ops.operations._sequence_ops", "TensorToScalar"),
    ("ops.operations._infer_ops", "QuantV2 GroupedMatmul"),
    ("ops.operations.math_ops", "NPUGetFloatStatusV2 NPUClearFloatStatusV2"),
    ("ops._grad_experimental.grad_comm_ops", "get_squared_device_local_norm_param"),
    ("_c_expression", "is_reboot_node swap_cache ParamInfo disable_multi_thread"),
    ("_c_expression", "_ms_memory_recycle _framework_profiler_step_start"),
    ("_c_expression.typing", "Float BFloat"),
    ("_extends", "cell_attr_register"),
    ("utils", "stress_detect _tft_handler"),
    ("graph.api", "_no_grad"),
    ("mindrecord", "FileWriter FileReader SUCCESS"),
    ("train", "__all__ TrainFaultTolerance"),
    ("train.serialization", "_get_merged_param_data get_ckpt_path_with_strategy"),
    ("train._utils", "get_parameter_redundancy remove_param_redundancy"),
    ("train.amp", "AMP_AUTO_WHITE_LIST AMP_AUTO_BLACK_LIST AMP_PRIM_ARG_TABLE"),
    ("train.callback", "TrainFaultTolerance"),
    ("train.callback._checkpoint", "CheckpointManager"),
    ("train.model", "Model"),
    ("train.node_strategy_pb2", "ParallelStrategyMap"),
    ("profiler", "ProfilerActivity _ExperimentalConfig profile schedule"),
    ("profiler", "tensorboard_trace_handler AicoreMetrics"),
    ("profiler.schedule", "ProfilerAction"),
    ("profiler.common.constant", "ProfilerLevel"),
    ("dataset", "Shuffle samplers engine"),
    ("dataset.samplers", "DistributedSampler RandomSampler"),
    ("dataset.engine", "datasets"),
    ("dataset.engine.datasets", "Dataset BatchDataset RepeatDataset"),
    ("dataset.vision.utils", "Inter Border ImageBatchFormat"),
    ("dataset.vision.transforms", "Resize"),
    ("dataset.transforms.transforms", "TypeCast"),
    ("dataset.text.transforms", "Lookup PythonTokenizer ToNumber"),
    ("dataset.text.utils", "Vocab to_bytes to_str"),
    ("train.serialization", "tensor_to_ms_type tensor_to_np_type"),
]
TOP = "Symbol _Function get_ckpt_path_with_strategy mindrecord utils graph _extends"


@pytest.fixture
def alias():
    handle = ms.alias_mindspore()
    yield handle
    handle.remove()


@pytest.mark.parametrize("path,names", PATHS, ids=[f"{p}:{n.split(' ')[0]}" for p, n in PATHS])
def test_path_resolves_to_cellax(alias, path, names):
    module = importlib.import_module(f"mindspore.{path}")
    assert module is sys.modules[f"cellax.{path}"]
    for name in names.split():
        assert getattr(module, name) is getattr(module, name)


def test_top_level_names(alias):
    import mindspore

    for name in TOP.split():
        assert getattr(mindspore, name) is getattr(ms, name)


def test_attribute_and_submodule_of_one_name_stay_apart(alias):
    # MindSpore: parallel.shard / profiler.schedule are a function / class, and their modules
    # import under the same names
    shard_module = importlib.import_module("mindspore.parallel.shard")
    schedule_module = importlib.import_module("mindspore.profiler.schedule")
    assert callable(ms.parallel.shard) and not isinstance(ms.parallel.shard, type(sys))
    assert (
        isinstance(ms.profiler.schedule, type) and schedule_module.Schedule is ms.profiler.schedule
    )
    assert shard_module.shard is ms.parallel.shard


def test_parallel_helpers():
    from cellax.parallel import _cost_model_context as cost
    from cellax.parallel._utils import _is_sharding_propagation

    assert not _is_sharding_propagation()
    ms.set_auto_parallel_context(search_mode="sharding_propagation")
    try:
        assert _is_sharding_propagation()
    finally:
        ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("pipeline_scheduler") == "1f1b"
    assert ms.get_auto_parallel_context("optimizer_weight_shard_size") == -1
    cost._set_rp_matmul_mem_coef(0.5)
    assert cost._get_rp_matmul_mem_coef() == 0.5
    cost.reset_cost_model_context()
    assert cost._get_rp_matmul_mem_coef() == pytest.approx(0.1)
    with pytest.raises(ValueError, match="get_cost_model_context"):
        cost.get_cost_model_context("nope")
    info = sys.modules["cellax.parallel.shard"]._DistributedTensorInfo
    layout = ms.parallel.Layout((2, 2, 2), ("a", "b", "c"))
    assert info(layout(("a", "b"), "None")).sharding_strategy == [4, 1]
    with pytest.raises(TypeError, match="Layout"):
        info((2, 2))
    from cellax.parallel import strategy

    assert strategy.get_strategy_metadata(nn.Dense(2, 2)) is None


def test_comm_helper():
    from cellax.communication import _comm_helper

    assert _comm_helper._is_initialized() is False
    assert _comm_helper._get_group_map() == {}
    _comm_helper._remove_group_info("missing")


def test_common_names(tmp_path):
    import cellax.common as common
    from cellax.common import _stub_tensor, file_system, np_dtype

    namespace = {}
    exec("from cellax.common import *", namespace)
    assert {"Tensor", "Parameter", "mutable", "jit", "float32"} <= set(namespace)
    assert set(common.__all__) <= set(vars(common))
    assert np.array([1.5], dtype=np_dtype.bfloat16).dtype.name == "bfloat16"
    assert not isinstance(ms.Tensor([1.0]), _stub_tensor.StubTensor)
    assert ms.float32 in common.dtype.all_types and ms.bfloat16 in common.dtype.all_types
    assert type(ms.Tensor([1.0])) is ms.Tensor and isinstance(ms.Tensor, common.tensor._TensorMeta)
    assert file_system.mindio_preload(str(tmp_path)) is False
    with pytest.warns(UserWarning, match="MindIO"):
        file_system.set_mindio_server_info()
    with pytest.raises(NotImplementedError, match="flops_collection"):
        common.flops_collection()


def test_symbol():
    assert ms.Symbol().to_dict() == {}
    assert ms.Symbol(max=8, min=2, divisor=2, remainder=1).to_dict() == {
        "max": 8,
        "min": 2,
        "divisor": 2,
        "remainder": 1,
    }
    assert "id" in ms.Symbol(unique=True).to_dict()
    with pytest.raises(ValueError, match="'min' value should be positive"):
        ms.Symbol(min=0)
    with pytest.raises(TypeError, match="'unique' must be bool"):
        ms.Symbol(unique=1)
    with pytest.raises(TypeError, match="'max' must be int"):
        ms.Symbol(max=1.5)


def test_wrap_all_and_micro_batches():
    import cellax.nn.wrap as wrap
    from cellax.nn.wrap.cell_wrapper import _MicroBatch, _VirtualDatasetCell

    assert {"TrainOneStepCell", "WithLossCell", "GradAccumulationCell"} <= set(wrap.__all__)
    assert issubclass(nn.loss.loss._Loss, nn.LossBase)
    x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(4, 2))
    assert _MicroBatch(2)(1, x)[0].asnumpy().tolist() == [[4.0, 5.0], [6.0, 7.0]]
    assert _VirtualDatasetCell(nn.ReLU())(x).shape == (4, 2)
    net = nn.Dense(2, 1)
    accumulate = nn.GradAccumulationCell(net, 2)
    assert np.allclose(accumulate(x).asnumpy(), net(x[:2]).asnumpy() + net(x[2:]).asnumpy())
    with pytest.raises(ValueError, match="GradAccumulationCell"):
        nn.GradAccumulationCell(net, 0)


def test_ext_primitives_compute_their_functions():
    from cellax.ops import auto_generate as ag

    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = ms.Tensor(a)
    assert np.allclose(ag.AddExt()(x, x, 2).asnumpy(), 3 * a)
    assert np.allclose(ag.SubExt()(x, x, 0.5).asnumpy(), 0.5 * a)
    assert np.allclose(ag.Muls()(x, 3).asnumpy(), 3 * a)
    assert ag.SumExt()(x, 1, True, ms.float16).dtype == ms.float16
    assert np.allclose(ag.SumExt()(x, 1, True).asnumpy(), a.sum(1, keepdims=True))
    assert float(ag.MeanExt()(x)) == pytest.approx(2.5)
    assert [c.shape for c in ag.Chunk()(x, 3, 1)] == [(2, 1)] * 3
    assert [c.shape for c in ag.SplitWithSize()(x, (1, 2), 1)] == [(2, 1), (2, 2)]
    assert ag.StackExt(1)([x, x]).shape == (2, 2, 3)
    assert np.allclose(ag.CumsumExt()(x, 1).asnumpy(), a.cumsum(1))
    assert ag.IndexSelect()(x, 1, ms.Tensor([2, 0])).asnumpy().tolist() == [[2, 0], [5, 3]]
    hot = ag.OneHotExt()(ms.Tensor([0, 2]), 3, ms.Tensor(1.0), ms.Tensor(0.0))
    assert hot.asnumpy().tolist() == [[1, 0, 0], [0, 0, 1]]
    scattered = ag.Scatter()(ops.zeros((2, 2)), 1, ms.Tensor([[1], [0]]), ops.ones((2, 1)), "add")
    assert scattered.asnumpy().tolist() == [[0, 1], [1, 0]]
    with pytest.raises(ValueError, match="'reduce'"):
        ag.Scatter()(ops.zeros((2, 2)), 1, ms.Tensor([[1], [0]]), ops.ones((2, 1)), "max")
    assert np.allclose(ag.SiLU()(x).asnumpy(), a / (1 + np.exp(-a)), atol=1e-6)
    values, indices = ag.TopkExt()(x, 2, 1)
    assert (
        values.asnumpy().tolist() == [[2, 1], [5, 4]] and indices.asnumpy().tolist() == [[2, 1]] * 2
    )
    assert ag.SortExt()(x, 1, True)[0].asnumpy().tolist() == [[2, 1, 0], [5, 4, 3]]
    assert ag.ZerosLikeExt()(x, ms.int32).dtype == ms.int32
    assert np.allclose(ag.Outer()(ms.Tensor([1.0, 2.0]), ms.Tensor([3.0])).asnumpy(), [[3], [6]])
    assert ag.BatchMatMulExt()(ops.ones((2, 2, 3)), ops.ones((2, 3, 4))).shape == (2, 2, 4)
    assert np.allclose(
        ag.Dense()(x, ops.ones((4, 3)), ops.ones(4)).asnumpy(), a.sum(1)[:, None] + 1
    )
    assert np.allclose(ag.FmodScalar()(x, 4).asnumpy(), np.fmod(a, 4))


def test_strided_slice_and_its_gradient():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    sliced = ops.StridedSlice(begin_mask=1)(ms.Tensor(a), (2, 1), (3, 3), (1, 1))
    assert sliced.asnumpy().tolist() == a[0:3, 1:3].tolist()
    grad = ops.operations._grad_ops.StridedSliceGrad()(
        ops.ones((2, 2)), (3, 4), (1, 1), (3, 3), (1, 1)
    )
    expected = np.zeros((3, 4), np.float32)
    expected[1:3, 1:3] = 1
    assert grad.asnumpy().tolist() == expected.tolist()


def test_swiglu_and_its_gradient():
    from cellax.ops.auto_generate import Swiglu, SwigluGrad

    value = np.array([[0.5, -1.0, 2.0, 0.25]], np.float32)
    out = Swiglu()(ms.Tensor(value), -1).asnumpy()
    a, b = value[:, :2], value[:, 2:]
    assert np.allclose(out, a / (1 + np.exp(-a)) * b, atol=1e-6)

    def forward(v):
        left, right = jnp.split(v, 2, axis=-1)
        return jax.nn.silu(left) * right

    dy = np.array([[1.0, -2.0]], np.float32)
    expected = jax.vjp(forward, jnp.asarray(value))[1](jnp.asarray(dy))[0]
    got = SwigluGrad()(ms.Tensor(dy), ms.Tensor(value), -1).asnumpy()
    assert np.allclose(got, expected, atol=1e-6)


def test_gen_ops_prim_and_unavailable_kernels():
    from cellax.ops.auto_generate import MoeDistributeCombine, QuantV2, gen_ops_prim
    from cellax.ops.auto_generate import pyboost_inner_prim

    pooled, argmax = gen_ops_prim.MaxPoolWithIndices(2, 2)(
        ms.Tensor(np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4))
    )
    assert pooled.asnumpy().ravel().tolist() == [5, 7, 13, 15] and argmax.shape == (1, 1, 2, 2)
    assert gen_ops_prim.Empty()((2, 3), ms.float32).shape == (2, 3)
    assert gen_ops_prim.AddExt is ops.auto_generate.AddExt
    for primitive in (QuantV2(), MoeDistributeCombine(), gen_ops_prim.MaxPoolWithMask(2)):
        with pytest.raises(NotImplementedError, match=primitive.name):
            primitive(ops.ones((2, 2)))
    with pytest.raises(AttributeError, match="reduce_any_impl"):
        pyboost_inner_prim.reduce_any_impl  # noqa: B018
    generator = ops.operations._inner_ops.Generator(0, 0)
    with pytest.raises(NotImplementedError, match="'Generator'"):
        generator(0, ())
    with pytest.raises(TypeError):
        ops.operations._inner_ops.Generator()  # as in MindSpore: seed and offset are required
    with pytest.raises(NotImplementedError, match="NPUGetFloatStatusV2"):
        ops.operations.math_ops.NPUGetFloatStatusV2()(ops.ones(8))


def test_roi_align_matches_mindspore():
    # MindSpore 2.10 CPU: ops.ROIAlign(2, 2, 0.5, 2, mode)(x, rois)
    x = np.arange(40, dtype=np.float32).reshape(1, 2, 4, 5) ** 1.5 / 10
    rois = np.array([[0, 1.0, 0.5, 6.0, 5.0], [0, 3.2, 2.1, 3.9, 2.5]], np.float32)
    expected = {
        0: [
            [
                [[1.29747, 1.73312], [3.63926, 4.26788]],
                [[12.68944, 13.64038], [17.15269, 18.20258]],
            ],
            [[[2.48046, 2.6998], [3.62344, 3.87318]], [[15.13235, 15.53381], [17.16328, 17.58197]]],
        ],
        1: [
            [
                [[1.59024, 2.15339], [4.65342, 5.47832]],
                [[13.27468, 14.43517], [18.83786, 20.14041]],
            ],
            [[[2.29361, 2.47456], [3.09204, 3.29122]], [[14.79816, 15.13636], [16.2189, 16.56737]]],
        ],
    }
    for mode, values in expected.items():
        out = ops.ROIAlign(2, 2, 0.5, 2, mode)(ms.Tensor(x), ms.Tensor(rois))
        assert np.allclose(out.asnumpy(), values, atol=1e-4)
    with pytest.raises(ValueError, match="sample_num"):
        ops.ROIAlign(2, 2, 0.5, 0)(ms.Tensor(x), ms.Tensor(rois))
    grads = jax.grad(lambda f: ops.ROIAlign(2, 2, 0.5)(ms.Tensor(f), ms.Tensor(rois))._value.sum())(
        jnp.asarray(x)
    )
    assert grads.shape == x.shape and float(grads.sum()) > 0


def test_morph_and_custom_reg_op():
    double = ops.Morph(lambda v: v * 2, lambda s: s, lambda t: t)
    assert double(ms.Tensor([1.0, 2.0])).asnumpy().tolist() == [2.0, 4.0]
    with pytest.raises(NotImplementedError, match="bprop_fn"):
        ops.Morph(lambda v: v, None, None, bprop_fn=lambda *a: a)(ms.Tensor([1.0]))
    info = (
        ops.CustomRegOp("k")
        .input(0, "x")
        .output(0, "y")
        .attr("n", "required", "int")
        .dtype_format(ops.DataType.F16_Default, ops.DataType.F16_Default)
        .target("Ascend")
        .get_op_info()
    )
    assert info == {
        "op_name": "k",
        "inputs": [{"index": 0, "name": "x", "paramType": "required"}],
        "outputs": [{"index": 0, "name": "y", "paramType": "required"}],
        "attr": [{"name": "n", "paramType": "required", "type": "int"}],
        "fusion_type": "",
        "dtype_format": [(("float16", "DefaultFormat"), ("float16", "DefaultFormat"))],
        "target": "Ascend",
    }


def test_small_ops_helpers():
    from cellax.ops._grad_experimental.grad_comm_ops import get_squared_device_local_norm_param
    from cellax.ops.operations._sequence_ops import TensorToScalar

    assert TensorToScalar()(ms.Tensor(3)) == 3
    assert ops.MoveTo()(ms.Tensor([1.0]), "CPU").asnumpy().tolist() == [1.0]
    assert get_squared_device_local_norm_param() is None
    ms.set_auto_parallel_context(dump_device_local_norm=True)
    try:
        with pytest.raises(NotImplementedError, match="local squared gradient norm"):
            get_squared_device_local_norm_param()
    finally:
        ms.reset_auto_parallel_context()


def test_c_expression_extends_utils_graph():
    from cellax import _c_expression as c
    from cellax._extends import cell_attr_register
    from cellax.graph.api import _no_grad
    from cellax.utils import _tft_handler, stress_detect

    assert c.is_reboot_node() is False and c.disable_multi_thread() is None
    assert c.typing.Float(16) is ms.float16 and c.typing.BFloat(16) is ms.bfloat16
    with pytest.raises(ValueError, match="'Float'"):
        c.typing.Float(8)
    assert c.ParamInfo().requires_grad is True
    with pytest.raises(NotImplementedError, match="swap_cache"):
        c.swap_cache(None, None, None, True)
    assert _no_grad is ms.common.api._no_grad
    assert _tft_handler.get_tft() is None
    with pytest.raises(NotImplementedError, match="stress_detect"):
        stress_detect()

    class Scale(nn.Cell):
        @cell_attr_register
        def __init__(self, k, bias=0.0):
            super().__init__()
            self.k = k

    # MindSpore 2.10 prints "Scaledict_values([2.0])" and "Scaledict_values([2.0, 1])"
    assert Scale(2.0).cell_init_args == "Scaledict_values([2.0])"
    assert Scale(2.0, bias=1).cell_init_args == "Scaledict_values([2.0, 1])"

    class Named(nn.Cell):
        @cell_attr_register(attrs=["k"])
        def __init__(self, k):
            super().__init__()
            self.k = k

    assert Named(3).cell_init_args == "Named[3]"


def test_train_helpers(tmp_path):
    from cellax.train import _utils
    from cellax.train.callback._checkpoint import CheckpointManager
    from cellax.train.serialization import _get_merged_param_data

    for rank in (0, 1):
        os.makedirs(tmp_path / f"rank_{rank}")
    backup = tmp_path / "rank_1" / "net.ckpt"
    backup.write_bytes(b"")
    missing = str(tmp_path / "rank_0" / "net.ckpt")
    assert ms.get_ckpt_path_with_strategy(missing, "strategy.ckpt") == str(backup)
    assert ms.get_ckpt_path_with_strategy(str(backup), "s") == str(backup)
    data = ms.Tensor([1.0])
    assert _get_merged_param_data(None, {}, "w", data, True) is data
    redundancy = _utils.get_parameter_redundancy(nn.Dense(2, 1))
    assert redundancy == {"weight": ((0,),), "bias": ((0,),)}
    assert _utils.remove_param_redundancy({"a": ((0, 1),), "b": ((0, 1),)}) == {0: {"a"}, 1: {"b"}}
    with pytest.raises(NotImplementedError, match="strategy files"):
        _utils.get_parameter_redundancy("strategy.ckpt")
    for step in (1, 2, 3):
        (tmp_path / f"net-{step}.ckpt").write_bytes(b"")
        os.utime(tmp_path / f"net-{step}.ckpt", (step, step))
    manager = CheckpointManager()
    manager.update_ckpoint_filelist(str(tmp_path), "net")
    assert [os.path.basename(f) for f in manager.ckpoint_filelist] == [
        "net-1.ckpt",
        "net-2.ckpt",
        "net-3.ckpt",
    ]
    manager.remove_oldest_ckpoint_file()
    assert manager.ckpoint_num == 2 and not (tmp_path / "net-1.ckpt").exists()
    with pytest.raises(NotImplementedError, match="MindIO"):
        ms.train.TrainFaultTolerance()
    assert ops.MatMul in ms.train.amp.AMP_AUTO_WHITE_LIST
    assert ops.Softmax in ms.train.amp.AMP_AUTO_BLACK_LIST
    assert {"Model", "save_checkpoint", "Callback", "Accuracy"} <= set(ms.train.__all__)
    with pytest.raises(NotImplementedError, match="strategy files"):
        ms.train.node_strategy_pb2.ParallelStrategyMap()
    serialization = ms.train.serialization
    assert serialization.tensor_to_ms_type["Float16"] is ms.float16
    assert serialization.tensor_to_np_type("Float32") is np.float32
    assert serialization.tensor_to_np_type("Int4") is None


def test_profiler_schedule_and_profile(tmp_path):
    from cellax.profiler import (
        ProfilerLevel,
        _ExperimentalConfig,
        profile,
        schedule,
        tensorboard_trace_handler,
    )

    plan = schedule(wait=1, warmup=1, active=2, repeat=1)
    # MindSpore 2.10: [NONE, WARM_UP, RECORD, RECORD_AND_SAVE, NONE, NONE]
    assert [plan(i).name for i in range(6)] == [
        "NONE",
        "WARM_UP",
        "RECORD",
        "RECORD_AND_SAVE",
        "NONE",
        "NONE",
    ]
    assert schedule(wait=0, active=1, skip_first=2)(1).name == "NONE"
    with pytest.raises(ValueError, match="'active'"):
        schedule(wait=0, active=0)
    assert _ExperimentalConfig().profiler_level is ProfilerLevel.Level0
    ready = []
    handler = tensorboard_trace_handler(str(tmp_path))
    prof = profile(schedule=schedule(wait=1, active=1, repeat=1), on_trace_ready=handler)
    prof.on_trace_ready = lambda p: ready.append(p)
    for _ in range(3):
        _ = ops.exp(ms.Tensor([0.0]))
        prof.step()
    prof.stop()
    assert len(ready) == 1
    traces = [f for _, _, files in os.walk(tmp_path) for f in files if f.endswith(".xplane.pb")]
    assert traces


def test_dataset_paths():
    from cellax import dataset as ds

    assert ds.vision.utils.Inter is ds.vision.Inter
    assert ds.vision.transforms.Resize is ds.vision.Resize
    assert ds.transforms.transforms.TypeCast is ds.transforms.TypeCast
    assert ds.samplers.RandomSampler is ds.RandomSampler
    assert ds.engine.datasets.BatchDataset is ds.BatchDataset
    assert ds.text.transforms.Lookup is ds.text.Lookup and ds.text.utils.Vocab is ds.text.Vocab
    assert ds.text.utils.to_str(ds.text.utils.to_bytes(["ab", "c"])).tolist() == ["ab", "c"]
    with pytest.raises(TypeError, match="to_str"):
        ds.text.utils.to_str([b"a"])
    assert [m.value for m in ds.Shuffle] == [
        "false",
        "adaptive",
        "global",
        "partial",
        "files",
        "infile",
    ]


def test_mindrecord_encryption_is_unavailable():
    from cellax import mindrecord

    assert (mindrecord.SUCCESS, mindrecord.FAILED) == (0, 1)
    with pytest.raises(NotImplementedError, match="set_enc_key"):
        mindrecord.set_enc_key("k")


# MindSpore 2.10 CPU: nn.AdaFactor([w, b], **config), three steps of the gradients below
ADAFACTOR = {
    "default": (
        [[-0.835507, -0.50285, -0.167753], [0.16654, 0.502874, 0.834836]],
        [0.492857, -0.999943, 2.005057],
    ),
    "manual": (
        [[-1.064595, -0.710537, -0.164853], [0.271425, 0.726588, 0.854445]],
        [0.207767, -0.871854, 2.046489],
    ),
    "scaled": (
        [[-0.857292, -0.525744, -0.17249], [0.171958, 0.526656, 0.843421]],
        [0.432726, -0.988724, 2.039785],
    ),
    "warmup": (
        [[-0.833337, -0.500002, -0.166666], [0.166669, 0.500002, 0.833333]],
        [0.499993, -0.999995, 2.0],
    ),
}
CONFIGS = {
    "default": {},
    "manual": dict(
        learning_rate=0.1, relative_step=False, scale_parameter=False, beta1=0.0, weight_decay=0.1
    ),
    "scaled": dict(learning_rate=0.05, relative_step=False, beta1=0.5, clip_threshold=0.5),
    "warmup": dict(warmup_init=True, beta1=0.0),
}


@pytest.mark.parametrize("config", list(CONFIGS))
def test_adafactor_matches_mindspore(config):
    w0 = (np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5) / 3
    w = ms.Parameter(ms.Tensor(w0), name="w")
    b = ms.Parameter(ms.Tensor([0.5, -1.0, 2.0]), name="b")
    opt = nn.AdaFactor([w, b], **CONFIGS[config])
    for k in range(3):
        grad_w = np.sin(np.arange(6, dtype=np.float32) + k).reshape(2, 3)
        grad_b = np.cos(np.arange(3, dtype=np.float32) * (k + 1))
        opt((ms.Tensor(grad_w), ms.Tensor(grad_b)))
    expected_w, expected_b = ADAFACTOR[config]
    assert np.allclose(w.asnumpy(), expected_w, atol=2e-6)
    assert np.allclose(b.asnumpy(), expected_b, atol=2e-6)
    assert opt.exp_avg_sq_row[0].shape == (2,) and opt.exp_avg_sq_col[0].shape == (3,)


def test_adafactor_checks_its_arguments():
    w = ms.Parameter(ms.Tensor([1.0]), name="w")
    with pytest.raises(ValueError, match="relative_step"):
        nn.AdaFactor([w], learning_rate=0.1)
    with pytest.raises(ValueError, match="warmup_init"):
        nn.AdaFactor([w], learning_rate=0.1, relative_step=False, warmup_init=True)
    with pytest.raises(ValueError, match="learning_rate"):
        nn.AdaFactor([w], relative_step=False)
    with pytest.raises(ValueError, match="decay_rate"):
        nn.AdaFactor([w], decay_rate=1.0)
    with pytest.raises(TypeError, match="clip_threshold"):
        nn.AdaFactor([w], clip_threshold=1)


def test_import_mindspore_loads_pillow_image():
    # MindSpore's ``import mindspore`` loads PIL.Image; code writes ``import PIL; PIL.Image...``
    import subprocess

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=root + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env.pop("CELLAX_ALIAS_MINDSPORE", None)
    code = (
        "import sys, cellax\nassert 'PIL.Image' not in sys.modules\ncellax.alias_mindspore()\n"
        "import mindspore, PIL\nprint(PIL.Image.__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "PIL.Image"


def test_opt_init_args_register_hides_the_signature_as_mindspore():
    """MindSpore's wrapper reads as ``(self, *args, **kwargs)``: mindocr's create_optimizer
    inspects it and asserts no ``clip`` argument, which its own AdamW.__init__ has."""
    import inspect

    from cellax.nn.optim.optimizer import opt_init_args_register

    class Opt:
        @opt_init_args_register
        def __init__(self, params, learning_rate=0.1, clip=False):
            self.clip = clip

    assert str(inspect.signature(Opt.__init__)) == "(self, *args, **kwargs)"
    opt = Opt([1], clip=True)
    assert opt.clip and opt.init_args == {"clip": True} and opt.init_learning_rate == 0.1


def test_partial_primitive_binds_leading_arguments():
    """``ops.Partial()(fn, *args)`` (mindocr's TrainOneStepWrapper keeps one): MindSpore 2.10
    returns a ``functools.partial`` too."""
    import functools

    bound = ops.Partial()(ops.sub, ms.Tensor(5.0))
    assert isinstance(bound, functools.partial)
    assert float(bound(ms.Tensor(2.0))) == 3.0
