"""ModelCheckpoint / CheckpointConfig and save_checkpoint golden cases, run under MindSpore 2.10
(recording, by record_checkpoint_callback.py) and cellax alike
(tests/test_train_checkpoint_callback.py).

Each case is a function of the framework's top-level module ``ms`` (``mindspore`` or
``cellax``), a scratch directory and ``raw_names(path)``: the entry names of a ``.ckpt`` file in
file order, read without the framework's loader. Training runs a Dense(2, 1) with Momentum on 6
samples in batches of 2 (3 steps an epoch) for 2 epochs.
"""

import os

import numpy as np


def _error(fn):
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - the error is the golden
        return [type(exc).__name__, str(exc).strip()]
    return None


def _dataset(ms):
    data = {
        "x": np.arange(12, dtype=np.float32).reshape(6, 2) / 10,
        "y": np.ones((6, 1), np.float32),
    }
    return ms.dataset.NumpySlicesDataset(data, shuffle=False).batch(2)


def _model(ms):
    net = ms.nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    opt = ms.nn.Momentum(net.trainable_params(), 0.01, 0.9)
    return ms.train.Model(net, ms.nn.MSELoss(), opt)


def _value(value):
    if isinstance(value, str):
        return value
    array = np.asarray(value.asnumpy() if hasattr(value, "asnumpy") else value)
    return [str(array.dtype), array.tolist()]


def naming(ms, directory, raw_names):
    """Three Model.train calls, each with a new ModelCheckpoint of the same prefix and
    directory; files (sorted) and the latest file after each. Two unrelated files are there
    from the start (a different prefix and a name with a letter after the prefix)."""
    for name in ("netx-1_1.ckpt", "other-1_1.ckpt"):
        ms.save_checkpoint(ms.nn.Dense(2, 1), os.path.join(directory, name))
    out = []
    for run in range(3):
        config = ms.train.CheckpointConfig(save_checkpoint_steps=4, keep_checkpoint_max=2)
        cb = ms.train.ModelCheckpoint(prefix="net", directory=directory, config=config)
        before = os.path.basename(cb.latest_ckpt_file_name)
        _model(ms).train(2, _dataset(ms), callbacks=[cb], dataset_sink_mode=False)
        out.append(
            {
                "before": before,
                "latest": os.path.basename(cb.latest_ckpt_file_name),
                "files": sorted(os.listdir(directory)),
            }
        )
    return out


def keep_per_minutes(ms, directory, raw_names):
    """keep_checkpoint_max=0 and keep_checkpoint_per_n_minutes=1 (the run lasts seconds)."""
    config = ms.train.CheckpointConfig(
        save_checkpoint_steps=1, keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=1
    )
    cb = ms.train.ModelCheckpoint(prefix="m", directory=directory, config=config)
    _model(ms).train(2, _dataset(ms), callbacks=[cb], dataset_sink_mode=False)
    return sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))


def append_info(ms, directory, raw_names):
    """append_info with epoch_num, step_num and a dict of custom values: the entries of the
    last checkpoint (in file order) and what load_checkpoint gives for the appended ones."""
    custom = {"lr": 0.5, "tag": "abc", "flag": True, "count": 7}
    config = ms.train.CheckpointConfig(
        save_checkpoint_steps=2, append_info=["epoch_num", "step_num", custom]
    )
    cb = ms.train.ModelCheckpoint(prefix="info", directory=directory, config=config)
    _model(ms).train(2, _dataset(ms), callbacks=[cb], dataset_sink_mode=False)
    files = sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))
    out = {"files": files, "append_dict": {k: _value(v) for k, v in config.append_dict.items()}}
    for name in ("info-1_2.ckpt", "info-2_3.ckpt"):
        path = os.path.join(directory, name)
        loaded = ms.load_checkpoint(path)
        out[name] = {
            "raw": raw_names(path),
            "loaded": sorted(loaded),
            "appended": {k: _value(loaded[k]) for k in ["epoch_num", "step_num", *custom]},
        }
    return out


def async_save(ms, directory, raw_names):
    """async_save=True: the files written and the last one's entries."""
    config = ms.train.CheckpointConfig(save_checkpoint_steps=3, async_save=True)
    cb = ms.train.ModelCheckpoint(prefix="a", directory=directory, config=config)
    _model(ms).train(2, _dataset(ms), callbacks=[cb], dataset_sink_mode=False)
    files = sorted(f for f in os.listdir(directory) if f.endswith(".ckpt"))
    loaded = ms.load_checkpoint(os.path.join(directory, "a-2_3.ckpt"))
    return {"files": files, "bias": _value(loaded["bias"])}


def duplicate_names(ms, directory, raw_names):
    """save_checkpoint of two Parameters of the same name (list and Cell), and an append_dict
    key that is also a Parameter's name: the entries written, what load_checkpoint returns, and
    what load_param_into_net puts into a net."""
    first = ms.Parameter(ms.Tensor(np.array([1.0, 2.0], np.float32)), name="w")
    second = ms.Parameter(ms.Tensor(np.array([3.0, 4.0], np.float32)), name="w")
    other = ms.Parameter(ms.Tensor(np.array([5.0], np.float32)), name="v")
    out = {}
    for label, save_obj, append in (
        ("list", [first, other, second], None),
        ("adjacent", [first, second, other], None),
        ("append_clash", [first, other], {"v": 9, "extra": 1.5}),
    ):
        path = os.path.join(directory, f"{label}.ckpt")
        err = _error(lambda: ms.save_checkpoint(save_obj, path, append_dict=append))
        if err is not None:
            out[label] = {"error": err}
            continue
        loaded = _error(lambda: ms.load_checkpoint(path))
        if loaded is None:
            loaded = ms.load_checkpoint(path)
            loaded = {k: _value(v) for k, v in sorted(loaded.items())}
        out[label] = {"raw": raw_names(path), "loaded": loaded}

    class Two(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = ms.Parameter(ms.Tensor(np.array([1.0], np.float32)), name="same")
            self.b = ms.Parameter(ms.Tensor(np.array([2.0], np.float32)), name="same")

        def construct(self, x):
            return x * self.a * self.b

    path = os.path.join(directory, "cell.ckpt")
    net = _error(Two)
    if net is not None:
        out["cell"] = {"error": net}
    else:
        net = Two()
        err = _error(lambda: ms.save_checkpoint(net, path))
        if err:
            out["cell"] = {"error": err}
        else:
            loaded = {k: _value(v) for k, v in ms.load_checkpoint(path).items()}
            out["cell"] = {"raw": raw_names(path), "loaded": loaded}
    return out


CONFIG_ERRORS = [
    "dict(save_checkpoint_steps=-1)",
    "dict(save_checkpoint_steps=1.5)",
    "dict(save_checkpoint_steps=True)",
    "dict(keep_checkpoint_max='3')",
    "dict(keep_checkpoint_per_n_minutes=-2)",
    "dict(save_checkpoint_seconds=-1)",
    "dict(save_checkpoint_steps=0, keep_checkpoint_max=0)",
    "dict(save_checkpoint_steps=None, keep_checkpoint_max=None)",
    "dict(saved_network='net')",
    "dict(integrated_save=1)",
    "dict(async_save='fork')",
    "dict(async_save=1)",
    "dict(append_info='epoch_num')",
    "dict(append_info=['epoch'])",
    "dict(append_info=[1])",
    "dict(append_info=[{'a': 1}, {'b': 2}])",
    "dict(append_info=[{1: 1}])",
    "dict(append_info=[{'a': None}])",
    "dict(enc_key='k')",
    "dict(enc_mode=1)",
    "dict(exception_save=1)",
]

CONFIGS = [
    "dict()",
    "dict(save_checkpoint_steps=0, save_checkpoint_seconds=10)",
    "dict(save_checkpoint_steps=5, save_checkpoint_seconds=10, keep_checkpoint_max=0, "
    "keep_checkpoint_per_n_minutes=3)",
    "dict(keep_checkpoint_max=0, keep_checkpoint_per_n_minutes=0)",
    "dict(save_checkpoint_steps=None, keep_checkpoint_max=None, keep_checkpoint_per_n_minutes=2)",
    "dict(append_info=[])",
    "dict(append_info=['step_num', {'x': 2, 'y': 'z'}])",
    "dict(async_save='thread')",
]

CHECKPOINT_ERRORS = [
    "dict(prefix='a/b')",
    "dict(prefix=1)",
    "dict(config='c')",
    "dict(directory=1)",
]


def config_errors(ms):
    return {text: _error(lambda: ms.train.CheckpointConfig(**eval(text))) for text in CONFIG_ERRORS}


def configs(ms):
    out = {}
    for text in CONFIGS:
        config = ms.train.CheckpointConfig(**eval(text))
        policy = config.get_checkpoint_policy()
        policy.pop("saved_network")
        append = config.append_dict
        out[text] = {
            "policy": policy,
            "async_save": config.async_save,
            "integrated_save": config.integrated_save,
            "append_dict": None if append is None else {k: _value(v) for k, v in append.items()},
        }
    return out


def checkpoint_errors(ms, directory):
    out = {}
    for text in CHECKPOINT_ERRORS:
        kwargs = eval(text)
        kwargs.setdefault("directory", directory)
        out[text] = _error(lambda: ms.train.ModelCheckpoint(**kwargs))
    return out


RUNS = {
    "naming": naming,
    "keep_per_minutes": keep_per_minutes,
    "append_info": append_info,
    "async_save": async_save,
    "duplicate_names": duplicate_names,
}
