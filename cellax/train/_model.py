"""Model: MindSpore's high-level train / eval / predict loop, compiled with cellax.jit."""

from __future__ import annotations

from types import SimpleNamespace

from .. import amp, nn
from .._tensor import Tensor
from .._transforms import jit
from ._callback import Callback, RunContext
from ._metrics import Metric, get_metric_fn

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
    it compiled with :func:`cellax.jit`. A dataset is a MindSpore dataset (anything with
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
        else:
            self._train_network = None
        if eval_network is None and loss_fn is not None:
            eval_network = nn.WithEvalCell(network, loss_fn)
        self._eval_network = eval_network
        self._train_step = jit(self._train_network) if self._train_network is not None else None
        self._eval_step = jit(self._eval_network) if self._eval_network is not None else None
        self._predict_step = jit(self._network)

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

        A ``cellax.dataset`` dataset is read through one ``create_tuple_iterator(num_epochs=...)``
        so that its shuffles change every epoch as in MindSpore. ``dataset_sink_mode`` and
        ``sink_size`` are accepted and ignored: cellax always feeds the compiled step from the
        host (there is no device queue), so sink mode trains exactly like non-sink mode.

        Raises:
            RuntimeError: If the Model has no optimizer.
        """
        if self._train_step is None:
            raise RuntimeError("For 'Model.train', the Model needs an 'optimizer' to train.")
        if isinstance(epoch, bool) or not isinstance(epoch, int) or epoch <= 0:
            raise ValueError(f"For 'Model.train', 'epoch' must be a positive int, got {epoch!r}.")
        callbacks = self._callbacks(callbacks)
        args = SimpleNamespace(
            train_network=self._train_network,
            epoch_num=epoch,
            cur_epoch_num=initial_epoch,
            cur_step_num=0,
            batch_num=_dataset_size(train_dataset) or 0,
            net_outputs=None,
            optimizer=self._optimizer,
            train_dataset=train_dataset,
        )
        context = RunContext(args)
        next_epoch = _epochs(train_dataset, epoch - initial_epoch)
        self._network.set_train(True)
        self._fire(callbacks, "on_train_begin", context)
        for epoch_index in range(initial_epoch, epoch):
            args.cur_epoch_num = epoch_index + 1
            self._fire(callbacks, "on_train_epoch_begin", context)
            steps = 0
            for batch in next_epoch():
                args.cur_step_num += 1
                steps += 1
                self._fire(callbacks, "on_train_step_begin", context)
                args.net_outputs = self._train_step(*_as_tensors(batch))
                self._fire(callbacks, "on_train_step_end", context)
                if context.get_stop_requested():
                    break
            args.batch_num = args.batch_num or steps
            self._fire(callbacks, "on_train_epoch_end", context)
            if context.get_stop_requested():
                break
        self._fire(callbacks, "on_train_end", context)
        self._network.set_train(False)

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
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs."""
        for epoch_index in range(initial_epoch, epoch):
            self.train(epoch_index + 1, train_dataset, callbacks, initial_epoch=epoch_index)
            if valid_dataset is not None and (epoch_index + 1) % valid_frequency == 0:
                print(f"Eval result: epoch {epoch_index + 1}, metrics: {self.eval(valid_dataset)}")

    def eval(self, valid_dataset, callbacks=None, dataset_sink_mode=False) -> dict:
        """Evaluate the metrics over ``valid_dataset``; return ``{name: value}``.

        Raises:
            RuntimeError: If the Model has no metrics or no loss/eval network.
        """
        if not self._metrics:
            raise RuntimeError("For 'Model.eval', the Model needs 'metrics' to evaluate.")
        if self._eval_step is None:
            raise RuntimeError("For 'Model.eval', the Model needs 'loss_fn' or 'eval_network'.")
        for metric in self._metrics.values():
            metric.clear()
        self._network.set_train(False)
        for batch in _batches(valid_dataset):
            outputs = self._eval_step(*_as_tensors(batch))
            if self._eval_indexes is not None:
                outputs = tuple(outputs[i] for i in self._eval_indexes)
            loss, logits, labels = outputs
            for metric in self._metrics.values():
                if type(metric).__name__ == "Loss":
                    metric.update(loss)
                else:
                    metric.update(logits, labels)
        return {name: metric.eval() for name, metric in self._metrics.items()}

    def predict(self, *predict_data, backend=None, config=None):
        """Run the network in predict mode on ``predict_data``."""
        self._network.set_train(False)
        return self._predict_step(*_as_tensors(predict_data))

    @staticmethod
    def _callbacks(callbacks) -> list:
        if callbacks is None:
            return []
        if isinstance(callbacks, Callback):
            return [callbacks]
        callbacks = list(callbacks)
        for callback in callbacks:
            if not isinstance(callback, Callback):
                raise TypeError(
                    f"For 'Model.train', every callback must be a Callback, got {callback!r}."
                )
        return callbacks

    @staticmethod
    def _fire(callbacks, event: str, context) -> None:
        for callback in callbacks:
            getattr(callback, event)(context)
