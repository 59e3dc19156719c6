"""Model: MindSpore's high-level train / eval / predict loop (eager in PyNative, compiled in
GRAPH_MODE)."""

from __future__ import annotations

from collections.abc import Iterable

from .. import amp, nn
from .._tensor import Tensor
from ._callback import RunContext, _CallbackManager, _InternalCallbackParam
from ..nn._metrics import Loss, Metric, get_metric_fn

__all__ = ["Model"]


def _batches(dataset):
    """Iterate a MindSpore-style dataset or any iterable of (data, label, ...) batches."""
    if hasattr(dataset, "create_tuple_iterator"):
        return dataset.create_tuple_iterator(num_epochs=1)
    return iter(dataset)


def _epochs(dataset, num_epochs: int):
    """A callable giving each epoch's batches. A dataset is read through ONE iterator of
    ``num_epochs`` epochs, so that its shuffles change from epoch to epoch as in MindSpore."""
    if hasattr(dataset, "create_tuple_iterator"):
        iterator = dataset.create_tuple_iterator(num_epochs=num_epochs)
        return lambda: iterator
    return lambda: iter(dataset)


def _as_tensors(batch) -> tuple:
    if not isinstance(batch, (tuple, list)):
        batch = (batch,)
    return tuple(b if isinstance(b, Tensor) else Tensor(b) for b in batch)


def _dataset_size(dataset) -> int | None:
    if hasattr(dataset, "get_dataset_size"):
        return dataset.get_dataset_size()
    try:
        return len(dataset)
    except TypeError:
        return None


class Model:
    """Train, evaluate and predict with a network, a loss and an optimizer.

    ``train`` builds ``TrainOneStepCell(WithLossCell(network, loss_fn), optimizer)`` and runs
    it as the mode says: in PyNative (the default) step by step in Python, its gradients on the
    eager tape, so prints and hooks in ``construct`` run every step; in GRAPH_MODE compiled
    (the top-level Cell call compiles with :func:`cellax.jit`). A dataset is a MindSpore dataset (anything with
    ``create_tuple_iterator``) or any iterable of ``(data, label)`` batches of Tensors or NumPy
    arrays.

    Args:
        network (Cell): The network.
        loss_fn (Cell): The loss. Default: ``None``.
        optimizer (Optimizer): The optimizer. Default: ``None``.
        metrics (Union[dict, set]): Metric names (``{'accuracy'}``) or ``{name: Metric}``.
            Default: ``None``.
        eval_network (Cell): Network used by ``eval``. Default: ``None``.
        amp_level (str): Mixed precision level, see ``cellax.amp``. Default: ``"O0"``.

    Examples:
        >>> import numpy as np
        >>> import cellax as ms
        >>> from cellax import nn
        >>> from cellax.train import Model
        >>> net = nn.Dense(4, 2)
        >>> model = Model(net, nn.CrossEntropyLoss(), nn.SGD(net.trainable_params(), 0.1),
        ...               metrics={"accuracy"})
        >>> data = [(np.ones((8, 4), np.float32), np.zeros((8,), np.int32))] * 4
        >>> model.train(2, data)
        >>> model.eval(data)["accuracy"]
        1.0

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/train/mindspore.train.Model.html
    """

    def __init__(
        self,
        network,
        loss_fn=None,
        optimizer=None,
        metrics=None,
        eval_network=None,
        eval_indexes=None,
        amp_level="O0",
        boost_level="O0",
        **kwargs,
    ) -> None:
        if not isinstance(network, nn.Cell):
            raise TypeError(
                f"For 'Model', 'network' must be a Cell, but got {type(network).__name__}."
            )
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._metrics = self._build_metrics(metrics)
        self._eval_indexes = eval_indexes
        if amp_level != "O0":
            network = amp.auto_mixed_precision(network, amp_level)
        if optimizer is not None:
            if loss_fn is not None:
                self._train_network = nn.TrainOneStepCell(
                    nn.WithLossCell(network, loss_fn), optimizer
                )
            else:
                self._train_network = nn.TrainOneStepCell(network, optimizer)
        elif loss_fn is not None:
            self._train_network = nn.WithLossCell(network, loss_fn)
        else:  # ``network`` is already a training cell (a TrainOneStepCell, say)
            self._train_network = network
        if eval_network is None and loss_fn is not None:
            eval_network = nn.WithEvalCell(network, loss_fn)
            self._eval_indexes = [0, 1, 2]
        elif eval_indexes is not None and not (
            isinstance(eval_indexes, list) and len(eval_indexes) == 3
        ):
            raise ValueError(
                "For 'Model', the argument 'eval_indexes' must be a list or None. If "
                "'eval_indexes' is a list, length of it must be three. But got 'eval_indexes' "
                f"{eval_indexes}"
            )
        self._eval_network = eval_network
        self._loss_scale_manager = kwargs.get("loss_scale_manager")
        # MindSpore runs the step as the mode says: op by op in PyNative (gradients on the
        # eager tape), compiled in GRAPH_MODE, where a top-level Cell call compiles itself
        self._train_step = self._train_network
        self._eval_step = self._eval_network
        self._predict_step = self._network

    @staticmethod
    def _build_metrics(metrics) -> dict:
        if metrics is None:
            return {}
        if isinstance(metrics, dict):
            items = metrics.items()
        elif isinstance(metrics, (set, list, tuple)):
            items = ((name, name) for name in metrics)
        else:
            raise TypeError(
                f"For 'Model', 'metrics' must be a dict or a set, got {type(metrics).__name__}."
            )
        built = {}
        for name, metric in items:
            built[name] = get_metric_fn(metric) if isinstance(metric, str) else metric
            if not isinstance(built[name], Metric):
                raise TypeError(f"For 'Model', metric {name!r} must be a Metric, got {metric!r}.")
        return built

    @property
    def train_network(self):
        return self._train_network

    @property
    def predict_network(self):
        return self._network

    @property
    def eval_network(self):
        return self._eval_network

    def train(
        self,
        epoch,
        train_dataset,
        callbacks=None,
        dataset_sink_mode=False,
        sink_size=-1,
        initial_epoch=0,
    ) -> None:
        """Train for ``epoch`` epochs, calling ``callbacks`` around epochs and steps.

        Every callback is entered as a context manager for the whole run and gets MindSpore's
        ``cb_params`` fields (``cur_epoch_num``, ``cur_step_num``, ``batch_num``,
        ``epoch_num``, ``net_outputs``, ``train_network``, ``train_dataset_element``...);
        ``run_context.request_stop()`` ends the run after the current step (the epoch still
        ends with ``on_train_epoch_end``). Epochs run from ``initial_epoch + 1`` to ``epoch``.
        A ``cellax.dataset`` dataset is read through one ``create_tuple_iterator(num_epochs=...)``
        so that its shuffles change every epoch as in MindSpore.

        Without an ``optimizer`` the Model trains by calling its network (MindSpore's rule):
        ``network`` is then a training cell such as ``TrainOneStepCell``.

        Differences from MindSpore: cellax feeds the compiled step from the host and has no
        device queue, so ``dataset_sink_mode=True`` trains as MindSpore does on CPU: step by
        step, with callbacks every step, and ``cb_params.batch_num`` is ``sink_size`` when it
        is positive.

        Raises:
            ValueError: If ``epoch`` is not a positive int, ``initial_epoch`` is negative or not
                below ``epoch``, ``sink_size`` is 0 or below -1, or the dataset is empty.
            TypeError: If ``dataset_sink_mode`` is not a bool or ``sink_size`` not an int.
        """
        self._check_run_args("Model.train", epoch, train_dataset, dataset_sink_mode, sink_size)
        self._check_initial_epoch("Model.train", epoch, initial_epoch)
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch)

    def fit(
        self,
        epoch,
        train_dataset,
        valid_dataset=None,
        valid_frequency=1,
        callbacks=None,
        dataset_sink_mode=False,
        valid_dataset_sink_mode=False,
        sink_size=-1,
        initial_epoch=0,
    ) -> None:
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs (an int, or
        a list of epoch numbers) before that epoch's ``on_train_epoch_end``.

        The evaluation calls the same callbacks' ``on_eval_*`` methods (entering them again),
        with the training ``cb_params`` extended by ``eval_network``, ``valid_dataset``,
        ``metrics`` and ``eval_results`` (the metrics plus ``eval_loss``); the training fields
        are restored afterwards and ``metrics``/``eval_results`` dropped after the epoch ends.
        """
        self._check_run_args("Model.fit", epoch, train_dataset, dataset_sink_mode, sink_size)
        self._check_initial_epoch("Model.fit", epoch, initial_epoch)
        if valid_dataset is not None and not self._metrics:
            raise ValueError(
                "For 'Model.fit', the model argument 'metrics' can not be None or empty when "
                "'valid_dataset' is given; set 'metrics' on the Model."
            )
        valid = (valid_dataset, valid_frequency)
        self._train(
            epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch, valid
        )

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False) -> dict:
        """Evaluate the metrics over ``valid_dataset``; return ``{name: value}``.

        ``callbacks`` are entered as context managers and get ``on_eval_begin``,
        ``on_eval_epoch_begin``, ``on_eval_step_begin``/``on_eval_step_end`` for every
        batch, ``on_eval_epoch_end`` and ``on_eval_end``, with MindSpore's ``cb_params``
        (``cur_step_num``, ``batch_num``, ``net_outputs``, ``eval_dataset_element``, and
        ``metrics`` at the end).

        Raises:
            RuntimeError: If the Model has no metrics or no loss/eval network.
        """
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(
                f"For 'Model.eval', 'dataset_sink_mode' must be a bool, got {dataset_sink_mode!r}."
            )
        if not self._metrics:
            raise RuntimeError("For 'Model.eval', the Model needs 'metrics' to evaluate.")
        if self._eval_step is None:
            raise RuntimeError("For 'Model.eval', the Model needs 'loss_fn' or 'eval_network'.")
        cb_params = _InternalCallbackParam()
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = _dataset_size(valid_dataset) or 0
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        cb_params.list_callback = _callback_list(callbacks)
        cb_params.network = self._network
        with _CallbackManager(cb_params.list_callback) as list_callback:
            return self._eval_process(valid_dataset, list_callback, cb_params)

    def predict(self, *predict_data, backend=None, config=None):
        """Run the network in predict mode on ``predict_data``."""
        self._network.set_train(False)
        return self._predict_step(*_as_tensors(predict_data))

    def _train(
        self, epoch, dataset, callbacks, sink_mode, sink_size, initial_epoch, valid=(None, 1)
    ) -> None:
        cb_params = _InternalCallbackParam()
        cb_params.cur_step_num = 0
        cb_params.train_network = self._train_network
        cb_params.epoch_num = epoch - initial_epoch
        size = _dataset_size(dataset) or 0
        cb_params.batch_num = sink_size if sink_mode and sink_size > 0 else size
        cb_params.mode = "train"
        cb_params.loss_fn = self._loss_fn
        cb_params.optimizer = self._optimizer
        cb_params.parallel_mode = "stand_alone"
        cb_params.device_number = 1
        cb_params.train_dataset = dataset
        cb_params.list_callback = _callback_list(callbacks)
        cb_params.train_dataset_element = None
        cb_params.network = self._network
        cb_params.last_save_ckpt_step = None
        cb_params.latest_ckpt_file = None
        cb_params.loss_scale_mananger = self._loss_scale_manager  # MindSpore's spelling
        cb_params.initial_step = 0
        with _CallbackManager(cb_params.list_callback) as list_callback:
            self._train_process(epoch, dataset, list_callback, cb_params, initial_epoch, valid)

    def _train_process(self, epoch, dataset, list_callback, cb_params, initial_epoch, valid):
        cb_params.dataset_sink_mode = False
        run_context = RunContext(cb_params)
        next_epoch = _epochs(dataset, epoch - initial_epoch)
        self._network.set_train(True)
        list_callback.on_train_begin(run_context)
        for epoch_index in range(initial_epoch, epoch):
            cb_params.cur_epoch_num = epoch_index + 1
            list_callback.on_train_epoch_begin(run_context)
            for batch in next_epoch():
                batch = _as_tensors(batch)
                if self._loss_fn is not None and len(batch) != 2:
                    raise ValueError(
                        "When 'loss_fn' is not None, 'train_dataset' should return two "
                        f"elements, but got {len(batch)}, please check the number of elements "
                        "returned by 'train_dataset'."
                    )
                cb_params.cur_step_num += 1
                cb_params.train_dataset_element = batch
                list_callback.on_train_step_begin(run_context)
                self._network.set_train(True)
                cb_params.net_outputs = self._train_step(*batch)
                list_callback.on_train_step_end(run_context)
                if run_context.get_stop_requested():
                    break
            cb_params.batch_num = cb_params.batch_num or cb_params.cur_step_num
            self._eval_during_train(valid, cb_params, list_callback)
            list_callback.on_train_epoch_end(run_context)
            cb_params.pop("metrics", None)
            cb_params.pop("eval_results", None)
            if run_context.get_stop_requested():
                break
        list_callback.on_train_end(run_context)
        self._network.set_train(False)

    def _eval_during_train(self, valid, cb_params, list_callback) -> None:
        valid_dataset, frequency = valid
        epoch = cb_params.cur_epoch_num
        due = epoch % frequency == 0 if isinstance(frequency, int) else epoch in frequency
        if valid_dataset is None or not due:
            return
        saved = {
            key: cb_params[key]
            for key in ("cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs")
        }
        cb_params.eval_network = self._eval_network
        cb_params.valid_dataset = valid_dataset
        cb_params.batch_num = _dataset_size(valid_dataset) or 0
        cb_params.mode = "eval"
        cb_params.cur_step_num = 0
        with _CallbackManager(list_callback._callbacks) as eval_callbacks:
            self._eval_process(valid_dataset, eval_callbacks, cb_params, add_eval_loss=True)
        cb_params.mode = "train"
        cb_params.update(saved)

    def _eval_process(self, valid_dataset, list_callback, cb_params, add_eval_loss=False):
        for metric in self._metrics.values():
            metric.clear()
        eval_loss = Loss() if add_eval_loss else None
        run_context = RunContext(cb_params)
        cb_params.dataset_sink_mode = False
        self._network.set_train(False)
        list_callback.on_eval_begin(run_context)
        list_callback.on_eval_epoch_begin(run_context)
        for batch in _batches(valid_dataset):
            cb_params.cur_step_num += 1
            batch = _as_tensors(batch)
            cb_params.eval_dataset_element = batch
            list_callback.on_eval_step_begin(run_context)
            self._network.set_train(False)
            outputs = self._eval_step(*batch)
            cb_params.net_outputs = outputs
            list_callback.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if eval_loss is not None:
                eval_loss.update(outputs[self._eval_indexes[0]])
            if run_context.get_stop_requested():
                break
        list_callback.on_eval_epoch_end(run_context)
        metrics = {name: metric.eval() for name, metric in self._metrics.items()}
        cb_params.metrics = metrics
        if eval_loss is not None:
            cb_params.eval_results = {**metrics, "eval_loss": eval_loss.eval()}
        list_callback.on_eval_end(run_context)
        return metrics

    def _update_metrics(self, outputs) -> None:
        if isinstance(outputs, Tensor):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"The argument 'outputs' should be tuple, but got {type(outputs)}.")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"The length of 'outputs' must be >= 3, but got {len(outputs)}")
        for metric in self._metrics.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    @staticmethod
    def _check_run_args(api, epoch, dataset, sink_mode, sink_size) -> None:
        if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch <= 0:
            raise ValueError(f"For '{api}', 'epoch' must be a positive int, got {epoch!r}.")
        if not isinstance(sink_mode, bool):
            raise TypeError(f"For '{api}', 'dataset_sink_mode' must be a bool, got {sink_mode!r}.")
        if isinstance(sink_size, bool) or not isinstance(sink_size, int):
            raise TypeError(f"For '{api}', 'sink_size' must be an int, got {sink_size!r}.")
        if sink_size < -1 or sink_size == 0:
            raise ValueError(
                f"For '{api}', The argument 'sink_size' must be -1 or positive, but got "
                f"{sink_size}."
            )
        if _dataset_size(dataset) == 0:
            raise ValueError(
                "There is no valid data in dataset, please check dataset file firstly."
            )

    @staticmethod
    def _check_initial_epoch(api, epoch, initial_epoch) -> None:
        if (
            isinstance(initial_epoch, bool)
            or not isinstance(initial_epoch, int)
            or initial_epoch < 0
        ):
            raise ValueError(
                f"For '{api}', 'initial_epoch' must be a non-negative int, got {initial_epoch!r}."
            )
        if initial_epoch >= epoch:
            raise ValueError(
                f"For '{api}', the parameter 'epoch' must bigger than parameter "
                f"'initial_epoch', but got the parameter 'epoch' is {epoch}, 'initial_epoch' "
                f"is {initial_epoch}."
            )


def _callback_list(callbacks) -> list:
    """MindSpore's ``_transform_callbacks``: None -> [], an iterable -> a list, else [it]."""
    if callbacks is None:
        return []
    if isinstance(callbacks, Iterable):
        return list(callbacks)
    return [callbacks]
