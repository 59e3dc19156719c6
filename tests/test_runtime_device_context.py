"""``runtime``, ``device_context``, ``hal`` and the device keys of ``set_context`` against
MindSpore 2.10 (goldens: tests/goldens/record_runtime.py): names and signatures, exception
types for bad arguments, accepted keys; then cellax's behaviour on XLA (synchronize, memory
statistics, streams and events, launch_blocking, TF32, one warning per setting)."""

import importlib
import inspect
import os
import subprocess
import sys
import warnings

import jax
import pytest

import cellax as ms
from cellax import _context, _device
from cellax.runtime import memory

from ._goldens import load_json, load_module

GOLDEN = load_json("runtime.json")
rc = load_module("runtime_cases")
HAS_GPU = bool(_device.devices_of("GPU"))


@pytest.fixture(autouse=True)
def _fresh_warnings(monkeypatch):
    """Each test sees every setting's first warning; blocking dispatch and TF32 are restored."""
    monkeypatch.setattr(_device, "_WARNED", set())
    precision = jax.config.jax_default_matmul_precision
    yield
    _context.BLOCKING[0] = False
    jax.config.update("jax_default_matmul_precision", precision)


def _plain(signature: inspect.Signature) -> str:
    empty = inspect.Parameter.empty
    parameters = [p.replace(annotation=empty) for p in signature.parameters.values()]
    return str(signature.replace(parameters=parameters, return_annotation=empty))


def _quiet(statement: str):
    """Run ``statement`` with ``ms`` bound to cellax, warnings silenced; the error or "ok"."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(statement, {"ms": ms})
    except Exception as error:  # compared with MindSpore's recorded exception
        return error
    return "ok"


@pytest.mark.parametrize("path", sorted(GOLDEN["surface"]))
def test_names_and_signatures_match_mindspore(path):
    module = importlib.import_module(f"cellax.{path}")
    golden = GOLDEN["surface"][path]
    if golden["__all__"] is not None:
        assert sorted(module.__all__) == golden["__all__"]
    for name, expected in golden["names"].items():
        value = getattr(module, name)
        if expected["kind"] == "module":
            assert inspect.ismodule(value), name
            continue
        assert isinstance(value, type) == (expected["kind"] == "class"), name
        if expected["signature"] is not None:
            assert _plain(inspect.signature(value)) == expected["signature"], name


# cellax's message differs from MindSpore's (the type is the same)
MESSAGE_DIFFERS = {
    "ascend aclnn_cache length": "MindSpore's message shows the flag instead of the length",
    "context jit_level type": "MindSpore's C++ table reports a parameter number",
    "context jit_syntax_level": "cellax lists the accepted values",
    "context memory level": "cellax's set_context prefix",
}
ON_GPU_OK = {"gpu count"}  # MindSpore's CPU build has no GPU; with a GPU these succeed


@pytest.mark.parametrize("name", sorted(rc.ERRORS))
def test_bad_arguments_raise_mindspores_types(name):
    if HAS_GPU and name in ON_GPU_OK:
        pytest.skip("a GPU is present")
    kind, message = GOLDEN["errors"][name]
    error = _quiet(rc.ERRORS[name])
    assert type(error).__name__ == kind, (name, error)
    if name not in MESSAGE_DIFFERS:
        assert str(error).startswith(message), (str(error), message)


@pytest.mark.parametrize("name", sorted(rc.ACCEPTED))
def test_calls_mindspore_accepts_run(name):
    assert GOLDEN["accepted"][name] == "ok"
    assert _quiet(rc.ACCEPTED[name]) == "ok"


@pytest.mark.parametrize("key", sorted(rc.CONTEXT_KEYS))
def test_set_context_accepts_mindspores_keys(key):
    result = _quiet(f"ms.set_context({key}={rc.CONTEXT_KEYS[key]!r})")
    recorded = GOLDEN["context_keys"][key]
    if recorded == "ok":
        assert result == "ok", result
    elif "through parameter ascend_config" in recorded[1]:
        assert isinstance(result, ValueError) and str(result).startswith("Please set")


def test_jit_level_o2_warns_once_and_is_reported():
    with pytest.warns(UserWarning, match="'jit_level' .*no XLA counterpart"):
        ms.set_context(jit_level="O2")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ms.set_context(jit_level="O1")
    assert ms.get_context("jit_level") == "O1"


def test_ascend_target_runs_on_xla_with_one_warning():
    with pytest.warns(UserWarning, match="device 'Ascend' has no XLA counterpart"):
        ms.set_device("Ascend")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ms.set_context(device_target="Ascend")
        ms.set_device("Ascend", 0)
    assert ms.get_context("device_target") == "Ascend"
    x = ms.Tensor([1.0, 2.0])
    assert (x * 2).asnumpy().tolist() == [2.0, 4.0]


def test_set_deterministic_and_current_device():
    with pytest.warns(UserWarning, match="xla_gpu_deterministic_ops"):
        ms.set_deterministic(True)
    assert ms.get_context("deterministic") == "ON"
    ms.set_deterministic(False)
    assert ms.get_context("deterministic") == "OFF"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ms.set_device("Ascend", 1)
    device = ms.get_current_device()
    assert device == ("Ascend", 1) and device.device_target == "Ascend"
    assert ms.set_memory is ms.runtime.set_memory


def test_ascend_settings_check_then_warn_once():
    op_precision = importlib.import_module("cellax.device_context.ascend.op_precision")
    with pytest.warns(UserWarning, match="precision_mode.*Ascend setting with no XLA"):
        op_precision.precision_mode("force_fp16")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        op_precision.precision_mode("force_fp32")
    with pytest.raises(ValueError, match="For 'precision_mode'"):
        op_precision.precision_mode("fp64")
    ascend = ms.device_context.ascend
    assert ascend.is_available() is False
    with pytest.raises(RuntimeError, match="Device Ascend not exist"):
        ascend.device_count()


def test_cpu_and_gpu_devices_come_from_jax():
    assert ms.device_context.cpu.is_available() is True
    assert ms.device_context.cpu.device_count() == 1
    assert ms.device_context.gpu.is_available() is HAS_GPU
    assert ms.hal.is_available("CPU") and not ms.hal.is_available("Ascend")
    assert ms.hal.device_count("CPU") == 1 and ms.hal.get_device_name(0, "CPU") == "CPU"
    assert ms.hal.get_device_properties(0, "CPU") is None
    assert ms.hal.get_arch_list("CPU") is None
    assert ms.hal.is_initialized("CPU") is True
    if HAS_GPU:
        gpu = jax.devices("gpu")
        assert ms.device_context.gpu.device_count() == len(gpu)
        assert ms.hal.get_device_name(0, "GPU") == gpu[0].device_kind


def test_synchronize_waits_for_pending_work():
    y = ms.ops.matmul(ms.ops.ones((256, 256)), ms.ops.ones((256, 256)))
    ms.runtime.synchronize()
    assert y.jax.is_ready()
    assert ms.runtime.current_stream().query() is True


def test_launch_blocking_is_pynative_synchronize():
    ms.runtime.launch_blocking()
    assert _context.BLOCKING[0] and ms.get_context("pynative_synchronize") is True
    x = ms.ops.ones((4, 4)) + 1
    assert x.jax.is_ready()
    assert float(ms.jit(lambda a: (a * 2).sum())(x).asnumpy()) == 64.0  # tracers never block
    ms.set_context(pynative_synchronize=False)
    assert not _context.BLOCKING[0]


def test_memory_statistics_count_live_arrays():
    stats = ms.runtime.memory_stats()
    assert {k: sorted(v) if isinstance(v, dict) else None for k, v in stats.items()} == GOLDEN[
        "memory_stats_keys"
    ]
    before = ms.runtime.memory_allocated()
    x = ms.ops.ones((512, 512), ms.float32)  # 1 MiB
    after = ms.runtime.memory_allocated()
    if jax.devices()[0].memory_stats() is None:  # CPU: the live arrays' bytes
        assert after - before == x.nbytes
    assert ms.runtime.max_memory_allocated() >= after
    assert ms.runtime.memory_reserved() >= ms.runtime.memory_allocated()
    ms.runtime.reset_peak_memory_stats()
    assert ms.runtime.max_memory_allocated() >= ms.runtime.memory_allocated()
    del x


def test_memory_summary_layout_is_mindspores():
    zeros = dict.fromkeys(
        [key for key, value in GOLDEN["memory_stats_keys"].items() if value is None], 0
    )
    assert memory._summary(zeros) == GOLDEN["memory_summary_zero"]
    assert memory._format_size(3 * 1024**3) == "  3072 MB"  # MindSpore switches unit at 768K
    assert (
        ms.runtime.memory_summary().splitlines()[1] == GOLDEN["memory_summary_zero"].splitlines()[1]
    )


def test_set_memory_caps_gpu_memory_before_jax_starts(monkeypatch):
    for name in memory._FRACTION_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(memory, "backend_started", lambda: False)
    monkeypatch.setattr(memory, "_gpu_total_bytes", lambda: 8 * 1024**3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ms.runtime.set_memory(max_size="2GB")
    assert os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] == "0.2500"
    with pytest.warns(UserWarning, match="already set"):
        ms.runtime.set_memory(max_size="4GB")
    assert os.environ["XLA_PYTHON_CLIENT_MEM_FRACTION"] == "0.2500"


def test_set_memory_after_start_warns_once():
    with pytest.warns(UserWarning, match="max_size='2GB' has no effect"):
        ms.runtime.set_memory(max_size="2GB")
    with pytest.warns(UserWarning, match="init_size='1GB'.*no XLA counterpart"):
        ms.runtime.set_memory(init_size="1GB", max_size="3GB")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ms.runtime.set_memory(init_size="1GB", max_size="3GB")


def test_streams_are_handles_with_mindspores_interface():
    assert repr(ms.runtime.default_stream()) == GOLDEN["stream_repr"].replace(
        "CPU", _device.running_target()
    )
    stream = ms.runtime.Stream()
    assert stream != ms.runtime.default_stream() and stream.stream_id() >= 2
    with ms.runtime.StreamCtx(stream):
        assert ms.runtime.current_stream() == stream
    assert ms.runtime.current_stream() == ms.runtime.default_stream()
    with pytest.raises(TypeError, match="For '__eq__'"):
        _ = stream == 1
    event = stream.record_event()
    stream.wait_event(event)
    ms.runtime.default_stream().wait_stream(stream)
    assert event.query() is True
    assert ms.hal.Stream is ms.runtime.Stream and ms.hal.Event is ms.runtime.Event


def test_event_elapsed_time_is_host_time_after_synchronizing():
    start, end = ms.runtime.Event(enable_timing=True), ms.runtime.Event(enable_timing=True)
    start.record()
    y = ms.ops.matmul(ms.ops.ones((128, 128)), ms.ops.ones((128, 128)))
    end.record()
    assert y.jax.is_ready()  # recording a timed event waited for the work before it
    assert start.elapsed_time(end) >= 0.0
    with pytest.raises(RuntimeError, match="enable_timing=True"):
        ms.runtime.Event().elapsed_time(end)
    with pytest.raises(TypeError, match="'end_event' should be Event"):
        start.elapsed_time(1.0)


def test_matmul_allow_tf32_sets_jax_precision():
    op_precision = ms.device_context.gpu.op_precision
    op_precision.matmul_allow_tf32(True)
    assert jax.config.jax_default_matmul_precision == "tensorfloat32"
    op_precision.matmul_allow_tf32(False)
    assert jax.config.jax_default_matmul_precision == "float32"
    with pytest.warns(UserWarning, match="one precision switch"):
        op_precision.conv_allow_tf32(True)


def test_settings_without_xla_meaning_warn_once():
    calls = [
        lambda: ms.runtime.dispatch_threads_num(4),
        lambda: ms.device_context.cpu.op_tuning.threads_num(2),
        lambda: ms.runtime.set_kernel_launch_group(),
        lambda: ms.runtime.set_kernel_launch_capture(True),
        lambda: ms.runtime.set_device_limit(0, 1, 1),
        lambda: ms.runtime.set_stream_limit(ms.runtime.current_stream(), 1, 1),
        lambda: ms.runtime.memory_replay("trace.json"),
        lambda: ms.device_context.gpu.op_tuning.conv_fprop_algo("fft"),
        lambda: ms.device_context.ascend.op_tuning.aclnn_cache(True),
        lambda: ms.device_context.ascend.op_debug.execute_timeout(100),
    ]
    for call in calls:
        with pytest.warns(UserWarning, match="no effect"):
            call()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            call()
    assert ms.runtime.get_device_limit(0) == {"cube_core_num": -1, "vector_core_num": -1}


def test_pluggable_allocator_cannot_exist_on_xla():
    with pytest.raises(NotImplementedError, match="'runtime.PluggableAllocator'"):
        ms.runtime.PluggableAllocator("liballoc.so", "alloc", "free")
    with pytest.raises(NotImplementedError, match="'runtime.MemPool'"):
        ms.runtime.MemPool(None)
    with pytest.raises(NotImplementedError, match="'runtime.use_mem_pool'"):
        with ms.runtime.use_mem_pool(None):
            pass


def test_set_cpu_affinity_binds_the_calling_thread():
    cores = sorted(os.sched_getaffinity(0))
    try:
        ms.runtime.set_cpu_affinity(True, None, {"main": cores[:1]})
        assert sorted(os.sched_getaffinity(0)) == cores[:1]
        with pytest.warns(UserWarning, match="other modules"):
            ms.runtime.set_cpu_affinity(True, [f"{cores[0]}-{cores[-1]}"], {"minddata": [0]})
        assert sorted(os.sched_getaffinity(0)) == cores
    finally:
        os.sched_setaffinity(0, cores)


def test_hal_memory_is_deprecated_once(monkeypatch):
    monkeypatch.setattr(ms.hal.memory, "_WARNED", set())
    with pytest.warns(DeprecationWarning, match="use mindspore.runtime.memory_allocated"):
        ms.hal.memory_allocated()
    assert ms.hal.memory_allocated("CPU") >= 0


def test_alias_imports_the_device_packages():
    code = (
        "import mindspore.device_context.ascend.op_precision as p, mindspore.runtime as r\n"
        "import mindspore.device_context.gpu.op_tuning, mindspore.hal.memory\n"
        "from mindspore.device_context.cpu.op_tuning import threads_num\n"
        "from mindspore.runtime.memory import set_memory\n"
        "import mindspore as ms, cellax\n"
        "assert p is cellax.device_context.ascend.op_precision and r is cellax.runtime\n"
        "assert ms.runtime.Stream is cellax.runtime.Stream and ms.hal is cellax.hal\n"
        "print('ok')\n"
    )
    env = dict(os.environ, CELLAX_ALIAS_MINDSPORE="1")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run(
        [sys.executable, "-c", "import cellax; cellax.alias_mindspore()\n" + code],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert out.stdout.strip() == "ok", out.stderr[-2000:]
