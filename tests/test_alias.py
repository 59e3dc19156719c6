"""alias_mindspore(): every COMPAT.md module path and name resolves to cellax's own objects."""

import importlib
import importlib.metadata
import importlib.util
import sys

import pytest

import cellax

# (module path without "mindspore.", names imported from it) -- COMPAT.md section 2.
PATHS = [
    ("ops", "Tensor MultitypeFuncGraph Map HyperMap constexpr AllReduce ReduceOp DataType"),
    ("ops.functional", "partial mixed_precision_cast depend cast"),
    ("ops.operations", "ExpandDims OneHot ReLU"),
    ("ops.operations.nn_ops", "ReLU Softmax"),
    ("ops.operations.math_ops", "MatMul"),
    ("ops.operations.array_ops", "ExpandDims"),
    ("ops.operations.comm_ops", "AllReduce ReduceOp"),
    ("ops.operations._inner_ops", "Cast"),
    ("ops.composite", "GradOperation HyperMap Map MultitypeFuncGraph zeros_like ones_like"),
    ("ops.composite", "clip_by_value clip_by_global_norm"),
    ("ops.primitive", "Primitive PrimitiveWithInfer prim_attr_register constexpr _primexpr"),
    ("ops.auto_generate", "Reshape"),
    ("ops._primitive_cache", "_get_cache_prim"),
    ("ops.function", "relu"),
    ("ops.function.nn_func", "relu"),
    ("ops.function.math_func", "matmul"),
    ("ops.function.array_func", "reshape"),
    ("context", "ParallelMode get_auto_parallel_context set_auto_parallel_context"),
    ("context", "reset_auto_parallel_context set_context get_context GRAPH_MODE"),
    ("", "ParallelMode set_device Profiler RowTensor jit_class _no_grad SummaryRecord"),
    ("", "get_auto_parallel_context save_checkpoint load_param_into_net export"),
    ("nn.cell", "Cell GraphCell"),
    ("nn.layer", ""),
    ("nn.layer.basic", "Dense Pad Linear"),
    ("nn.layer.activation", "ReLU get_activation"),
    ("nn.layer.conv", "Conv2d"),
    ("nn.optim", "Momentum"),
    ("mint", "cat matmul nn optim special linalg"),
    ("mint.nn.functional", "gelu grid_sample"),
    ("experimental.optim.lr_scheduler", "StepLR LinearLR CosineAnnealingLR"),
    ("nn.optim.optimizer", "Optimizer opt_init_args_register"),
    ("nn.optim.momentum", "Momentum"),
    ("nn.learning_rate_schedule", "LearningRateSchedule CosineDecayLR"),
    ("nn.loss", ""),
    ("nn.loss.loss", "LossBase"),
    ("nn.wrap", ""),
    ("nn.wrap.cell_wrapper", "TrainOneStepCell"),
    ("nn", "GraphCell Linear Pad"),
    ("train", "save_checkpoint load_checkpoint load_param_into_net export SummaryRecord"),
    ("train", "FixedLossScaleManager DynamicLossScaleManager Model Callback"),
    ("train.serialization", "save_checkpoint load_checkpoint load_param_into_net export"),
    ("train.callback", "Callback RunContext LossMonitor"),
    ("train.amp", "build_train_network get_white_list"),
    ("train.loss_scale_manager", "FixedLossScaleManager DynamicLossScaleManager"),
    ("boost", "GradientAccumulation"),
    ("boost.grad_accumulation", "gradient_accumulation_op gradient_clear_op"),
    ("common", "float16 Tensor"),
    ("common.api", "jit _no_grad _pynative_executor jit_class"),
    ("common.initializer", "_calculate_fan_in_and_fan_out _calculate_correct_fan"),
    ("common.sparse_tensor", "RowTensor COOTensor CSRTensor"),
    ("_checkparam", "check_value_type check_positive_int check_bool check_int_range twice"),
    ("log", "warning info"),
    ("version", "__version__"),
    ("profiler", "Profiler"),
    ("_c_expression", "Tensor"),
    ("parallel", "Layout"),
    ("", "Layout DeviceCtx"),
    ("common.device", "DeviceCtx"),
    ("ops", "Conv2D Conv2DTranspose LpNorm L2Normalize ResizeNearestNeighbor KLDivLoss LayerNorm"),
    ("ops.operations.nn_ops", "Conv2D Conv2DBackpropInput L2Normalize KLDivLoss LayerNorm"),
    ("nn", "OneHot SyncBatchNorm Unfold Top1CategoricalAccuracy Accuracy"),
    ("nn", "metrics"),
    ("nn.metrics", "Loss Top1CategoricalAccuracy Top5CategoricalAccuracy Accuracy get_metrics"),
    ("train.metrics", "Loss Metric names get_metric_fn rearrange_inputs"),
    ("nn.layer.basic", "OneHot Unfold"),
    ("nn.layer.normalization", "SyncBatchNorm"),
    ("nn.probability", "distribution"),
    ("nn.probability.distribution", "Normal Uniform Bernoulli Categorical Distribution"),
    ("nn.layer.rnn_cells", "RNNCellBase GRUCell"),
    ("train.callback._callback", "Callback RunContext _handle_loss"),
    ("log", "_LogActionOnce"),
    ("runtime", "synchronize memory_stats launch_blocking set_memory Stream Event StreamCtx"),
    ("runtime.memory", "set_memory memory_summary PluggableAllocator MemPool use_mem_pool"),
    ("runtime.executor", "launch_blocking dispatch_threads_num set_cpu_affinity"),
    ("runtime.stream", "Stream current_stream default_stream communication_stream"),
    ("runtime.event", "Event"),
    ("runtime.device_limit", "get_device_limit set_device_limit"),
    ("runtime.stream_limit", "StreamLimitCtx get_stream_limit"),
    ("runtime.thread_bind_core", ""),
    ("device_context", "cpu gpu ascend"),
    ("device_context.cpu", "device_count is_available threads_num"),
    ("device_context.cpu.op_tuning", "threads_num"),
    ("device_context.gpu.op_precision", "matmul_allow_tf32 conv_allow_tf32"),
    ("device_context.gpu.op_tuning", "conv_fprop_algo conv_wgrad_algo conv_dgrad_algo"),
    ("device_context.ascend", "device_count is_available precision_mode op_compile"),
    ("device_context.ascend.op_precision", "precision_mode op_precision_mode matmul_allow_hf32"),
    ("device_context.ascend.op_tuning", "op_compile aoe_tune_mode aclnn_cache"),
    ("device_context.ascend.op_debug", "execute_timeout debug_option aclinit_config"),
    ("device_context.ascend.device", "device_count is_available"),
    ("hal", "device_count get_device_name memory_stats Stream Event synchronize"),
    ("hal.device", "is_available is_initialized get_device_properties"),
    ("hal.memory", "memory_allocated empty_cache"),
    ("hal.stream", "Stream StreamCtx"),
    ("hal.event", "Event"),
    ("device_manager", "set_device set_deterministic get_current_device"),
    ("", "set_memory set_deterministic get_current_device"),
]


@pytest.fixture
def alias():
    handle = cellax.alias_mindspore()
    yield handle
    handle.remove()


@pytest.mark.parametrize("path,names", PATHS, ids=[p or "<top>" for p, _ in PATHS])
def test_path_resolves_to_cellax(alias, path, names):
    ms_name = "mindspore" + (f".{path}" if path else "")
    module = importlib.import_module(ms_name)
    if path:
        assert module is importlib.import_module(f"cellax.{path}")
        assert module.__name__ == f"cellax.{path}"  # the module's own identity is kept
        assert importlib.util.find_spec(f"cellax.{path}") is not None
    for name in names.split():
        got = getattr(module, name)
        if name != "__version__":
            assert got is getattr(importlib.import_module(f"cellax.{path}".rstrip(".")), name)


def test_top_module_version_and_metadata(alias):
    import mindspore

    assert mindspore.__version__ == "2.10.0" == importlib.metadata.version("mindspore")
    assert cellax.__version__ == "0.1.0"
    assert mindspore.nn is cellax.nn and mindspore.Tensor is cellax.Tensor
    assert mindspore.version.__version__ == mindspore.__version__
    assert importlib.util.find_spec("mindspore") is not None
    assert tuple(int(p) for p in mindspore.__version__.split(".")) >= (2, 2, 0)
    assert "mindspore" in importlib.metadata.packages_distributions()["mindspore"]
    assert importlib.metadata.distribution("mindspore").metadata["Name"] == "mindspore"


def test_statement_forms(alias):
    import mindspore.ops.operations as P
    from mindspore.ops import composite as C
    from mindspore.ops import functional as F
    from mindspore.common.api import jit
    import mindspore.context as context
    from mindspore.nn.optim.momentum import Momentum

    assert P.ExpandDims is cellax.ops.ExpandDims and C.HyperMap is cellax.ops.HyperMap
    assert F.relu is cellax.ops.relu and jit is cellax.jit and Momentum is cellax.nn.Momentum
    assert context is cellax.context
    x = cellax.Tensor([1.0, -2.0])
    assert P.ExpandDims()(x, 0).shape == (1, 2)


def test_missing_path_names_mindspore(alias):
    with pytest.raises(ModuleNotFoundError, match=r"mindspore\.no_such_module.*cellax does not"):
        importlib.import_module("mindspore.no_such_module")
    with pytest.raises(ModuleNotFoundError, match=r"mindspore\.nn\.nope"):
        importlib.import_module("mindspore.nn.nope")


def test_idempotent_and_remove():
    handle = cellax.alias_mindspore()
    assert cellax.alias_mindspore() is handle and handle.active
    import mindspore  # noqa: F401

    handle.remove()
    assert not handle.active and "mindspore" not in sys.modules
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("mindspore")
    with pytest.raises(importlib.metadata.PackageNotFoundError):
        importlib.metadata.version("mindspore")


def test_refuses_when_real_mindspore_imported(monkeypatch):
    fake = type(sys)("mindspore")
    monkeypatch.setitem(sys.modules, "mindspore", fake)
    with pytest.raises(RuntimeError, match="real MindSpore"):
        cellax.alias_mindspore()


def test_lazy_numpy_attribute():
    if importlib.util.find_spec("cellax.numpy") is None:
        pytest.skip("cellax.numpy (mindspore.numpy) has not landed yet")
    handle = cellax.alias_mindspore()
    try:
        import mindspore.numpy as mnp

        assert mnp is cellax.numpy and cellax.numpy.ones is mnp.ones
    finally:
        handle.remove()


def test_warns_when_mindspore_distribution_installed(tmp_path, monkeypatch):
    info = tmp_path / "mindspore-2.10.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: mindspore\nVersion: 2.10.0\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    importlib.invalidate_caches()
    with pytest.warns(UserWarning, match="MindSpore distribution"):
        handle = cellax.alias_mindspore()
    try:
        import mindspore

        assert mindspore.nn is cellax.nn  # the installed one is never used
    finally:
        handle.remove()


def test_hook_resolves_synthetic_modules_without_find_spec(alias):
    # Modules that exist only in sys.modules (no file) resolve through the hook too.
    import types as _types

    fake = _types.ModuleType("cellax._surface_probe")
    sys.modules["cellax._surface_probe"] = fake
    try:
        assert importlib.import_module("mindspore._surface_probe") is fake
    finally:
        del sys.modules["cellax._surface_probe"]
        sys.modules.pop("mindspore._surface_probe", None)


def test_optimizer_target_property():
    # mindcv's Adan overrides it with `@Optimizer.target.setter` at import time.
    net = cellax.nn.Dense(2, 1)
    opt = cellax.nn.SGD(net.trainable_params())
    assert opt.target == cellax.get_context("device_target")
    with pytest.raises(NotImplementedError):
        opt.target = "CPU"

    class Adan(cellax.nn.Optimizer):
        @cellax.nn.Optimizer.target.setter
        def target(self, value):
            self._target = value

    adan = Adan(0.1, net.trainable_params())
    adan.target = "GPU"
    assert adan.target == "GPU"


def test_paths_other_zoos_import(alias):
    # mindocr: a user RNN cell on RNNCellBase, MindSpore's callback module, _LogActionOnce.
    from mindspore.log import _LogActionOnce
    from mindspore.nn.layer.rnn_cells import RNNCellBase
    from mindspore.train.callback._callback import Callback, _handle_loss

    assert Callback is cellax.train.Callback and callable(_LogActionOnce)
    assert _handle_loss(cellax.Tensor([1.5, 2.0])) == 1.75  # MindSpore 2.10 gives 1.75

    class GRU(RNNCellBase):
        def __init__(self):
            super().__init__(4, 8, True, num_chunks=3)

    cell = GRU()
    assert cell.weight_ih.shape == (24, 4) and cell.bias_hh.shape == (24,)
    assert abs(cell.weight_hh.asnumpy()).max() <= 1 / 8**0.5
