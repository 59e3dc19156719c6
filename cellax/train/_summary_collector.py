"""``SummaryCollector``: the training callback that writes loss, learning rate, weight
histograms and the summary ops' values into a :class:`~cellax.train.summary.SummaryRecord`."""

from __future__ import annotations

import os
import re

import numpy as np

from .. import log as logger
from .._tensor import Tensor
from ._callback import Callback

__all__ = ["SummaryCollector"]

_LANDSCAPE_DEFAULT = {
    "landscape_size": 40,
    "unit": "step",
    "num_samples": 2048,
    "create_landscape": {"train": True, "result": True},
    "intervals": [list(range(1, 10)), list(range(10, 20))],
}
_SPECIFIED_DEFAULT = {
    "collect_metric": True,
    "collect_graph": True,
    "collect_train_lineage": True,
    "collect_eval_lineage": True,
    "collect_input_data": True,
    "collect_dataset_graph": True,
    "histogram_regular": None,
    "collect_landscape": _LANDSCAPE_DEFAULT,
}
_BOOL_KEYS = [k for k in _SPECIFIED_DEFAULT if k not in ("histogram_regular", "collect_landscape")]
_EXPORT_FORMATS = {"tensor_format": ("npy", None)}
_TENSOR_SUMMARY_LIMIT = 20  # steps a TensorSummary is written at, by default, at most
_HISTOGRAM_DEFAULT_COUNT = 5  # parameters histogrammed without ``histogram_regular``


def _check_type(name: str, value, types: tuple) -> None:
    """MindSpore's summary type check (a bool is not an int unless bool is named)."""
    ok = isinstance(value, types) and not (
        isinstance(value, bool) and bool not in types and int in types
    )
    if not ok:
        names = [t.__name__ for t in types]
        raise TypeError(
            f"For `{name}` the type should be a valid type of {names}, but got "
            f"{type(value).__name__}."
        )


def _check_positive(name: str, value, allow_none: bool = False) -> None:
    if allow_none and value is None:
        return
    _check_type(name, value, (int,))
    if value <= 0:
        raise ValueError(
            f'For "SummaryCollector", the value of `{name}` should be greater than 0, but got '
            f"`{value}`."
        )


def check_export_options(export_options):
    """Validate ``export_options`` (SummaryRecord's and SummaryCollector's argument)."""
    if export_options is None:
        return None
    _check_type("export_options", export_options, (dict, type(None)))
    for key, value in export_options.items():
        _check_type("export_option", key, (str,))
        _check_type("export_format", value, (str, type(None)))
    unknown = set(export_options) - set(_EXPORT_FORMATS)
    if unknown:
        raise ValueError(
            f'For "SummaryRecord", the keys {unknown} of "export_options" are unsupported, '
            f"expect the follow keys: {list(_EXPORT_FORMATS)}"
        )
    for key, value in export_options.items():
        if value not in _EXPORT_FORMATS[key]:
            raise ValueError(
                f'For "SummaryRecord", the export_format {{{value!r}}} of "export_options" are '
                f"unsupported for {key}, expect the follow values: {list(_EXPORT_FORMATS[key])}"
            )
    if any(value is not None for value in export_options.values()):
        raise NotImplementedError(
            "For 'SummaryRecord', 'export_options' that export tensors as files "
            f"({export_options}) are not supported by cellax; TensorSummary values are in "
            "the event file (read them with TensorBoard's event reader)."
        )
    return export_options


def _check_landscape(landscape: dict) -> None:
    unknown = set(landscape) - set(_LANDSCAPE_DEFAULT)
    if unknown:
        raise ValueError(
            f'For "SummaryCollector", the keys {unknown} of `collect_landscape` are '
            f"unsupported, expect the follow keys: {list(_LANDSCAPE_DEFAULT)}"
        )
    size = landscape.get("landscape_size", 40)
    _check_type("landscape_size", size, (int,))
    if not 3 <= size <= 256:
        raise ValueError(
            'For "SummaryCollector", the "landscape_size" in collect_specified_data should be '
            f"less than 256 and more than 3, but got the: {size}"
        )
    unit = landscape.get("unit", "step")
    _check_type("unit", unit, (str,))
    if unit not in ("step", "epoch"):
        raise ValueError(
            'For "SummaryCollector", unit in collect_specified_data should be step or epoch, '
            f"but got the: {unit}."
        )
    _check_type("num_samples", landscape.get("num_samples", 2048), (int,))
    create = landscape.get("create_landscape", {"train": True, "result": True})
    _check_type("create_landscape", create, (dict,))
    for key, value in create.items():
        if key not in ("train", "result"):
            raise ValueError(
                'For "SummaryCollector", the key to create landscape should be in ["train", '
                f'"result"], but got the: {key}.'
            )
        _check_type(key, value, (bool,))
    intervals = landscape.get("intervals")
    _check_type("intervals", intervals, (list,))
    for interval in intervals:
        _check_type("each interval inintervals", interval, (list,))
        if len(interval) < 3:
            raise ValueError(
                'For "SummaryCollector", the length of each list in "intervals" should not be '
                f"less than three, but got the: {interval}"
            )
        for item in interval:
            if not isinstance(item, int):
                raise TypeError(
                    'For "SummaryCollector", the value of each list in "intervals" should be '
                    f"int, but got the: {type(item)}"
                )


def _specified_data(specified, keep_default: bool) -> dict:
    _check_type("collect_specified_data", specified, (dict, type(None)))
    if specified is None:
        return dict(_SPECIFIED_DEFAULT) if keep_default else {}
    for key in specified:
        _check_type(key, key, (str,))
    unknown = set(specified) - set(_SPECIFIED_DEFAULT)
    if unknown:
        raise ValueError(
            f'For "SummaryCollector", the keys {unknown} of `collect_specified_data` are '
            f"unsupported, expect the follow keys: {list(_SPECIFIED_DEFAULT)}"
        )
    if "histogram_regular" in specified:
        regular = specified["histogram_regular"]
        _check_type("histogram_regular", regular, (str, type(None)))
        if isinstance(regular, str):
            try:
                re.compile(regular)
            except re.error as exc:
                raise ValueError(
                    "For `collect_specified_data`, the value of `histogram_regular` is not a "
                    f"valid regular expression. Detail: {exc}."
                ) from exc
    for key in _BOOL_KEYS:
        if key in specified:
            _check_type(key, specified[key], (bool,))
    return {**_SPECIFIED_DEFAULT, **specified} if keep_default else dict(specified)


def _check_custom_lineage(custom) -> dict:
    _check_type("custom_lineage_data", custom, (dict, type(None)))
    custom = {} if custom is None else custom
    for key, value in custom.items():
        _check_type(f"custom_lineage_data -> {key}", key, (str,))
        _check_type(f"the value of custom_lineage_data -> {key}", value, (int, str, float))
    return dict(custom)


class SummaryCollector(Callback):
    """Collect the loss, the learning rate, weight histograms and the summary ops' values of a
    ``Model.train`` run into TensorBoard event files (``mindspore.SummaryCollector``).

    MindSpore page: https://www.mindspore.cn/docs/en/r2.6.0/api_python/mindspore/mindspore.SummaryCollector.html

    ``Model`` enters the collector (it is a context manager), which opens a
    :class:`~cellax.train.summary.SummaryRecord` in ``summary_dir`` for the run and closes it
    at the end. At the first step and every ``collect_freq`` steps it records:

    - ``loss/auto``: the mean of the network's (first) output (``collect_metric``);
    - ``learning_rate/auto``: the optimizer's learning rate for that step
      (``collect_train_lineage``; MindSpore keeps it in its train lineage, a MindInsight record
      TensorBoard cannot show);
    - ``<parameter name>/auto`` histograms of the optimizer's parameters matching
      ``histogram_regular`` (the first five when it is ``None``);
    - ``input_data/auto``: the first input of the step when it is an NCHW image batch
      (``collect_input_data``);
    - every value of the summary ops (``ops.ScalarSummary``, ``ImageSummary``,
      ``TensorSummary``, ``HistogramSummary``) called in ``construct`` since the last record.
      TensorSummary values are written at most 20 times a run (``collect_tensor_freq``).

    Args:
        summary_dir (str): The directory of the event files (created if missing).
        collect_freq (int): Collect every ``collect_freq`` steps (and at the first step).
            Default: ``10``.
        num_process (int): Accepted for compatibility. Default: ``32``.
        collect_specified_data (dict): What to collect, keys ``collect_metric``,
            ``collect_graph``, ``collect_train_lineage``, ``collect_eval_lineage``,
            ``collect_input_data``, ``collect_dataset_graph`` (bools), ``histogram_regular``
            (str or None) and ``collect_landscape`` (dict or None). Default: ``None`` (all).
        keep_default_action (bool): With ``collect_specified_data``, collect the keys not
            given as by default (``True``) or not at all (``False``). Default: ``True``.
        custom_lineage_data (dict): Validated (str keys; int, float or str values); lineage
            is MindInsight's and is not written. Default: ``None``.
        collect_tensor_freq (int): The frequency of TensorSummary values. Default: ``None``
            (at most 20 steps a run, never more often than ``collect_freq``).
        max_file_size (int): Accepted for compatibility (positive). Default: ``None``.
        export_options (dict): ``{"tensor_format": None}``; ``"npy"`` raises
            NotImplementedError. Default: ``None``.

    Raises:
        TypeError: If an argument has the wrong type (MindSpore's messages).
        ValueError: If ``summary_dir`` is blank, ``collect_freq``, ``collect_tensor_freq`` or
            ``max_file_size`` is not positive, or ``collect_specified_data`` has unknown keys or a bad regular
            expression.
        NotImplementedError: If ``export_options`` asks for tensor files.

    Differences from MindSpore: the files are TensorBoard's (see
    :class:`~cellax.train.summary.SummaryRecord`). The computational graph, the dataset graph,
    lineage and the loss landscape are MindInsight views: their options are validated and
    accepted, and nothing is written for them (no ``ckpt_dir`` of landscape checkpoints).

    Examples:
        >>> import tempfile
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn
        >>> from cellax.dataset import NumpySlicesDataset
        >>> data = {"x": np.ones((8, 2), np.float32), "y": np.zeros((8, 1), np.float32)}
        >>> dataset = NumpySlicesDataset(data, shuffle=False).batch(2)
        >>> net = nn.Dense(2, 1)
        >>> model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
        >>> collector = ms.SummaryCollector(tempfile.mkdtemp(), collect_freq=2)
        >>> model.train(1, dataset, callbacks=[collector])
    """

    def __init__(
        self,
        summary_dir,
        collect_freq=10,
        num_process=32,
        collect_specified_data=None,
        keep_default_action=True,
        custom_lineage_data=None,
        collect_tensor_freq=None,
        max_file_size=None,
        export_options=None,
    ) -> None:
        super().__init__()
        if not isinstance(summary_dir, str):
            raise TypeError("The summary_dir is invalid, the type should be string.")
        if not summary_dir.strip():
            raise ValueError("The summary_dir is invalid, it should be non-blank.")
        _check_positive("collect_freq", collect_freq)
        _check_positive("collect_tensor_freq", collect_tensor_freq, allow_none=True)
        _check_positive("max_file_size", max_file_size, allow_none=True)
        check_export_options(export_options)
        _check_type("keep_default_action", keep_default_action, (bool,))
        self._specified = _specified_data(collect_specified_data, keep_default_action)
        landscape = self._specified.get("collect_landscape")
        _check_type("collect_landscape", landscape, (dict, type(None)))
        if landscape:
            _check_landscape(landscape)
        self._custom_lineage_data = _check_custom_lineage(custom_lineage_data)
        self._summary_dir = os.path.realpath(summary_dir)
        os.makedirs(self._summary_dir, exist_ok=True)
        self._collect_freq = collect_freq
        self._collect_tensor_freq = collect_tensor_freq
        self._max_file_size = max_file_size
        self._num_process = num_process
        self._record = None
        self._depth = 0
        self._opened_here = False
        self._first_step = True
        self._has_recorded_start = False
        self._tensor_steps = range(0)
        self._sink_mode = False
        self._optimizer = None
        self._loss_failed = False
        self._learning_rate = None

    # -- the record's lifetime: the run (Model enters the callbacks) --------------------------
    def __enter__(self):
        # Model.fit enters the callbacks again for each evaluation: the run keeps one record
        if self._depth == 0:
            from .summary import SummaryRecord

            self._record = SummaryRecord(self._summary_dir, max_file_size=self._max_file_size)
            self._first_step, self._has_recorded_start = True, False
        self._depth += 1
        return self

    def __exit__(self, *exc_info):
        self._depth -= 1
        if self._depth == 0 and self._record is not None:
            self._record.close()
        return None

    def _open(self):
        """Called outside ``Model``: open the record at ``begin`` and close it at ``end``."""
        if self._depth == 0:
            self.__enter__()
            self._opened_here = True

    # -- callback stages ------------------------------------------------------------------------
    def begin(self, run_context):
        params = run_context.original_args()
        self._open()
        found = [cb for cb in params.get("list_callback", []) if type(cb) is type(self)]
        if len(found) > 1:
            raise ValueError(
                "There are more than one SummaryCollector instance in callback list,but "
                "expected only one SummaryCollector instance."
            )
        mode = params.get("mode", "train")
        if mode not in ("train", "eval"):
            raise ValueError(
                f"Only support `train` (model.train) and `eval` (model.eval) mode, but got "
                f"`{mode}` mode."
            )
        self._record.set_mode(mode)
        self._sink_mode = bool(params.get("dataset_sink_mode", False))

    def step_begin(self, run_context):
        params = run_context.original_args()
        if params.get("mode", "train") != "train":
            return
        step = params.cur_step_num
        if self._specified.get("collect_train_lineage") and (
            self._first_step or step % self._collect_freq == 0
        ):
            self._learning_rate = self._current_lr(params)

    def step_end(self, run_context):
        params = run_context.original_args()
        if params.get("mode", "train") != "train":
            return
        self._record.set_mode("train")  # back from an evaluation inside Model.fit
        if not self._has_recorded_start:
            # MindSpore writes the graphs here; cellax has none to write, the record still
            # takes the summary ops' values of the first step
            self._has_recorded_start = True
            self._record.record(params.cur_step_num)
        if not self._sink_mode:
            self._collect(params)

    def epoch_end(self, run_context):
        self._collect(run_context.original_args())
        self._record.flush()

    def end(self, run_context):
        self._record.set_mode("eval")
        self._record.record(0)  # anything still queued; the summary ops' values stay queued
        if self._opened_here:
            self._opened_here = False
            self.__exit__(None, None, None)

    # -- collection -----------------------------------------------------------------------------
    def _collect(self, params) -> None:
        if params.get("mode", "train") != "train":
            return
        if self._first_step:
            self._tensor_steps = self._tensor_range(params)
            self._collect_step(params, None)
            self._first_step = False
            self._record.flush()
            return
        current = params.cur_epoch_num if self._sink_mode else params.cur_step_num
        regular = current % self._collect_freq == 0
        if regular and current in self._tensor_steps:
            self._collect_step(params, None)
        elif current in self._tensor_steps:
            self._collect_step(params, lambda plugin: plugin == "tensor")
        elif regular:
            self._collect_step(params, lambda plugin: plugin != "tensor")

    def _tensor_range(self, params) -> range:
        """The steps at which TensorSummary values are written."""
        total = params.epoch_num * (1 if self._sink_mode else params.batch_num)
        if self._collect_tensor_freq is not None:
            return range(0, total + 1, self._collect_tensor_freq)
        regular = range(0, total + 1, self._collect_freq)
        if len(regular) <= _TENSOR_SUMMARY_LIMIT:
            return regular
        freq = total // (_TENSOR_SUMMARY_LIMIT - 1)
        if freq > 1:
            return range(0, total + 1, freq)[:_TENSOR_SUMMARY_LIMIT]
        return range(0, total + 1)[: _TENSOR_SUMMARY_LIMIT + 1]

    def _collect_step(self, params, plugin_filter) -> None:
        self._collect_input(params)
        self._collect_loss(params)
        self._collect_learning_rate()
        self._collect_histograms(params)
        self._record.record(params.cur_step_num, plugin_filter=plugin_filter)

    def _collect_input(self, params) -> None:
        if not self._specified.get("collect_input_data"):
            return
        data = params.get("train_dataset_element")
        if isinstance(data, (list, tuple)):
            data = data[0] if data else None
        if not isinstance(data, Tensor):
            logger.warning(
                "The input data of the network is not a Tensor, so SummaryCollector will not "
                "collect it."
            )
            self._specified["collect_input_data"] = False
            return
        try:
            self._record.add_value("image", "input_data/auto", data)
        except (TypeError, ValueError):
            logger.warning(
                "The input data of the network is not an NCHW image batch, so SummaryCollector "
                "will not collect it."
            )
            self._specified["collect_input_data"] = False

    def _collect_loss(self, params) -> None:
        if not self._specified.get("collect_metric") or self._loss_failed:
            return
        output = params.get("net_outputs")
        if isinstance(output, (list, tuple)) and output:
            output = output[0]
        if not isinstance(output, (int, float, Tensor)) or isinstance(output, bool):
            logger.warning(
                "The network output is not a Tensor, a number or a sequence of them, so "
                "SummaryCollector will not collect the loss."
            )
            self._loss_failed = True
            return
        value = output.asnumpy() if isinstance(output, Tensor) else np.asarray(output)
        self._record.add_value("scalar", "loss/auto", np.mean(value, dtype=np.float64))

    def _find_optimizer(self, params):
        from ..nn import Optimizer

        if self._optimizer is None:
            optimizer = params.get("optimizer")
            if optimizer is None:
                network = params.get("train_network") or params.get("eval_network")
                for _, cell in network.cells_and_names() if network is not None else ():
                    candidate = cell if isinstance(cell, Optimizer) else None
                    candidate = candidate or getattr(cell, "optimizer", None)
                    if isinstance(candidate, Optimizer):
                        optimizer = candidate
                        break
            if not isinstance(optimizer, Optimizer):
                logger.warning(
                    "Can not find the optimizer of the network, so SummaryCollector will not "
                    "collect the learning rate or the weight histograms."
                )
                optimizer = False
            self._optimizer = optimizer
        return self._optimizer or None

    def _current_lr(self, params):
        optimizer = self._find_optimizer(params)
        if optimizer is None:
            return None
        rate = optimizer.get_lr()
        if isinstance(rate, tuple):  # group learning rates: the first group's
            rate = rate[0] if rate else None
        return None if rate is None else np.array(rate.asnumpy(), np.float64).reshape(-1)[:1]

    def _collect_learning_rate(self) -> None:
        if self._specified.get("collect_train_lineage") and self._learning_rate is not None:
            self._record.add_value("scalar", "learning_rate/auto", self._learning_rate)

    def _collect_histograms(self, params) -> None:
        if "histogram_regular" not in self._specified:
            return
        optimizer = self._find_optimizer(params)
        if optimizer is None:
            return
        regular = self._specified["histogram_regular"]
        if regular is None:
            chosen = list(optimizer.parameters)[:_HISTOGRAM_DEFAULT_COUNT]
        else:
            chosen = [p for p in optimizer.parameters if re.match(regular, p.name)]
        for parameter in chosen:
            self._record.add_value("histogram", parameter.name + "/auto", parameter)
