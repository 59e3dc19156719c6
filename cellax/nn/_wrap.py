"""Training wrappers: WithLossCell, WithEvalCell, WithGradCell, TrainOneStepCell, ...

They compose a network, a loss and an optimizer into Cells; the gradients come from the same
machinery as ``cellax.value_and_grad`` (one forward and one backward pass per step), so the
wrappers work eagerly, under ``cellax.jit`` and in GRAPH_MODE.
"""

from __future__ import annotations

import types

import jax.numpy as jnp

from .. import _transforms
from .._parameter import Parameter, ParameterTuple
from .._tensor import unwrap, wrap, wrap_tree
from .._errors import check_bools
from ._cell import Cell, check_cell
from ._grad_reducer import implicit_reducer
from ._optim import Optimizer

__all__ = [
    "WithLossCell",
    "WithEvalCell",
    "WithGradCell",
    "ForwardValueAndGrad",
    "TrainOneStepCell",
    "ParameterUpdate",
]


def _check_callable(api: str, name: str, value) -> None:
    if not callable(value):
        raise TypeError(
            f"For '{api}', '{name}' must be a Cell or a function, but got {type(value).__name__}."
        )


def _scale(grads, factor):
    if factor == 1.0:
        return grads
    return tuple(wrap(unwrap(g) * jnp.asarray(factor, unwrap(g).dtype)) for g in grads)


class WithLossCell(Cell):
    """A network followed by a loss: ``loss_fn(backbone(data), label)``.

    Args:
        backbone (Cell): The network.
        loss_fn (Union[Cell, Callable]): The loss, called as ``loss_fn(logits, label)``.

    Inputs:
        - **data** (Tensor) - The network input.
        - **label** (Tensor) - The target.

    Outputs:
        Tensor, the loss.

    Raises:
        TypeError: If ``backbone`` is not a Cell or ``loss_fn`` is not callable.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
        >>> def l1(out, label):
        ...     return abs(out - label).sum()
        >>> loss_net = nn.WithLossCell(net, l1)
        >>> print(loss_net(ms.ops.ones((2, 3)), ms.ops.zeros((2, 1))))
        6.0

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.WithLossCell.html
    """

    def __init__(self, backbone, loss_fn) -> None:
        super().__init__(auto_prefix=False)
        check_cell("WithLossCell", backbone, "backbone")
        _check_callable("WithLossCell", "loss_fn", loss_fn)
        self._backbone = backbone
        self._loss_fn = loss_fn

    def construct(self, data, label):
        return self._loss_fn(self._backbone(data), label)

    @property
    def backbone_network(self) -> Cell:
        """The wrapped network."""
        return self._backbone


class WithEvalCell(Cell):
    """A network and a loss for evaluation: returns ``(loss, outputs, label)``.

    Args:
        network (Cell): The network.
        loss_fn (Union[Cell, Callable]): The loss.
        add_cast_fp32 (bool): Cast outputs and label to float32 before the loss.
            Default: ``False``.

    Inputs:
        - **data** (Tensor) - The network input.
        - **label** (Tensor) - The target.

    Outputs:
        Tuple of Tensors ``(loss, outputs, label)``.

    Raises:
        TypeError: If ``network`` is not a Cell or ``loss_fn`` is not callable.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(3, 1, weight_init="ones", bias_init="zeros")
        >>> eval_net = nn.WithEvalCell(net, lambda out, label: abs(out - label).sum())
        >>> loss, out, label = eval_net(ms.ops.ones((2, 3)), ms.ops.zeros((2, 1)))
        >>> print(loss, out.shape)
        6.0 (2, 1)

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.WithEvalCell.html
    """

    def __init__(self, network, loss_fn, add_cast_fp32: bool = False) -> None:
        super().__init__(auto_prefix=False)
        check_cell("WithEvalCell", network, "network")
        _check_callable("WithEvalCell", "loss_fn", loss_fn)
        if not isinstance(add_cast_fp32, bool):
            raise TypeError(
                f"For 'WithEvalCell', 'add_cast_fp32' must be a bool, but got {add_cast_fp32!r}."
            )
        self._network = network
        self._loss_fn = loss_fn
        self.add_cast_fp32 = add_cast_fp32

    def construct(self, data, label):
        outputs = self._network(data)
        if self.add_cast_fp32:
            label = wrap(jnp.asarray(unwrap(label)).astype(jnp.float32))
            outputs = wrap(jnp.asarray(unwrap(outputs)).astype(jnp.float32))
        loss = self._loss_fn(outputs, label)
        return loss, outputs, label


class WithGradCell(Cell):
    """The gradients of a network's loss with respect to its trainable Parameters.

    Args:
        network (Cell): The network (returning the loss when ``loss_fn`` is None).
        loss_fn (Union[Cell, Callable, None]): A loss to wrap the network with
            (:class:`WithLossCell`). Default: ``None``.
        sens (Union[float, Tensor, None]): Scale of the output gradient (sensitivity); None
            means ones. Default: ``None``.

    Inputs:
        - **\\*inputs** (Tensor) - The inputs of the (loss) network.

    Outputs:
        tuple[Tensor], one gradient per trainable Parameter.

    Raises:
        TypeError: If ``network`` is not a Cell.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        >>> grad_net = nn.WithGradCell(net, lambda out, label: (out * label).sum())
        >>> grads = grad_net(ms.Tensor([[1.0, 2.0]]), ms.Tensor([[3.0]]))
        >>> print(grads[0], grads[1])
        [[3. 6.]] [3.]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.WithGradCell.html
    """

    def __init__(self, network, loss_fn=None, sens=None) -> None:
        super().__init__(auto_prefix=False)
        check_cell("WithGradCell", network, "network")
        self.network = network
        self.loss_fn = loss_fn
        self.weights = ParameterTuple(network.trainable_params())
        self.sens = sens
        if loss_fn is None:
            self.network_with_loss = network
        else:
            self.network_with_loss = WithLossCell(network, loss_fn)
        self.network_with_loss.set_train()

    def construct(self, *inputs):
        _, _, grads = _transforms.differentiate(
            "WithGradCell",
            self.network_with_loss,
            inputs,
            {},
            None,
            list(self.weights),
            False,
            self.sens,
        )
        return tuple(wrap(g) for g in grads)


class ForwardValueAndGrad(Cell):
    """The network's output and its gradients, in one pass: ``(loss, grads)``.

    Args:
        network (Union[Cell, Callable]): The network or function.
        weights (Union[ParameterTuple, list[Parameter], None]): Parameters to differentiate
            when ``get_by_list``. Default: ``None``.
        get_all (bool): Gradients of all inputs (a tuple). Default: ``False``.
        get_by_list (bool): Gradients of ``weights``. Default: ``False``.
        sens_param (bool): The last input is the output's sensitivity. Default: ``False``.

    Inputs:
        - **\\*inputs** (Tensor) - The network inputs (then the sensitivity with
          ``sens_param``).

    Outputs:
        ``(loss, grads)``: grads as in ``ops.GradOperation`` (first input's gradient by
        default; inputs, weights, or ``(inputs, weights)``).

    Raises:
        TypeError: If ``network`` is not callable, a flag is not a bool, or ``weights`` is not
            a list of Parameters with ``get_by_list``.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        >>> fvg = nn.ForwardValueAndGrad(net, net.trainable_params(), get_by_list=True)
        >>> loss, grads = fvg(ms.Tensor([[1.0, 2.0]]))
        >>> print(loss, grads[0])
        [[3.]] [[1. 2.]]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.ForwardValueAndGrad.html
    """

    def __init__(
        self, network, weights=None, get_all=False, get_by_list=False, sens_param=False
    ) -> None:
        super().__init__(auto_prefix=False)
        api = "ForwardValueAndGrad"
        if not isinstance(network, (Cell, types.FunctionType, types.MethodType)):
            raise TypeError(
                f"For '{api}', 'network' must be a Cell, function or method, but got "
                f"{type(network).__name__}."
            )
        check_bools(api, get_all=get_all, get_by_list=get_by_list, sens_param=sens_param)
        if get_by_list and not (
            isinstance(weights, (tuple, list)) and all(isinstance(w, Parameter) for w in weights)
        ):
            raise TypeError(
                f"For '{api}', 'weights' must be a list of Parameters when get_by_list=True, "
                f"but got {type(weights).__name__}."
            )
        self.network = network
        self.weights = weights
        self.get_all, self.get_by_list, self.sens_param = get_all, get_by_list, sens_param

    def construct(self, *inputs):
        sens = None
        if self.sens_param:
            inputs, sens = inputs[:-1], inputs[-1]
        if self.get_all:
            positions = tuple(range(len(inputs)))
        elif self.get_by_list:
            positions = None
        else:
            positions = (0,)
        weights = list(self.weights) if self.get_by_list else None
        out, input_grads, weight_grads = _transforms.differentiate(
            "ForwardValueAndGrad", self.network, inputs, {}, positions, weights, False, sens
        )
        input_grads = tuple(wrap(g) for g in input_grads)
        weight_grads = tuple(wrap(g) for g in weight_grads)
        if self.get_by_list and self.get_all:
            grads = (input_grads, weight_grads)
        elif self.get_by_list:
            grads = weight_grads
        elif self.get_all:
            grads = input_grads
        else:
            grads = input_grads[0]
        return wrap_tree(out), grads


class TrainOneStepCell(Cell):
    """One training step: forward, gradients of the loss, optimizer update; returns the loss.

    Args:
        network (Cell): The network with loss (e.g. :class:`WithLossCell`).
        optimizer (Optimizer): Updates ``optimizer.parameters``.
        sens (Union[float, None]): Scale of the loss gradient; None means 1.0.
            Default: ``None``.
        return_grad (bool): Also return ``{parameter name: gradient}``. Default: ``False``.

    Inputs:
        - **\\*inputs** (Tensor) - The inputs of ``network``.

    Outputs:
        Tensor, the loss (before the update); with ``return_grad`` also the gradients.

    Raises:
        TypeError: If ``network`` is not a Cell or ``optimizer`` not an Optimizer.
        ValueError: If ``sens`` is 0.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
        >>> loss_net = nn.WithLossCell(net, lambda out, label: ((out - label) ** 2).sum())
        >>> train_net = nn.TrainOneStepCell(loss_net, nn.SGD(net.trainable_params(), 0.1))
        >>> x, y = ms.Tensor([[1.0, 1.0]]), ms.Tensor([[0.0]])
        >>> print(train_net(x, y), train_net(x, y))
        4.0 0.6400001

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.TrainOneStepCell.html
    """

    def __init__(self, network, optimizer, sens=None, return_grad: bool = False) -> None:
        super().__init__(auto_prefix=False)
        api = "TrainOneStepCell"
        check_cell(api, network, "network")
        if not isinstance(optimizer, Optimizer):
            raise TypeError(
                f"For '{api}', 'optimizer' must be an nn.Optimizer, but got "
                f"{type(optimizer).__name__}."
            )
        if sens is not None and not isinstance(sens, (int, float)) or isinstance(sens, bool):
            raise TypeError(f"For '{api}', 'sens' must be a float or None, but got {sens!r}.")
        if sens == 0:
            raise ValueError(f"For '{api}', 'sens' can not be 0.")
        if not isinstance(return_grad, bool):
            raise TypeError(f"For '{api}', 'return_grad' must be a bool, but got {return_grad!r}.")
        self.network = network
        self.network.set_grad()
        self.optimizer = optimizer
        self.weights = optimizer.parameters
        self.sense_flag = sens is not None
        self.sens = 1.0 if sens is None else float(sens)
        self.return_grad = return_grad
        reducer = implicit_reducer(self.weights)  # DATA/HYBRID_PARALLEL, as in MindSpore
        self.grad_reducer = (lambda grads: grads) if reducer is None else reducer
        # MindSpore's attributes that custom train steps (subclasses) use.
        self.grad = _transforms.GradOperation(get_by_list=True, sens_param=True)
        self.grad_no_sens = _transforms.GradOperation(get_by_list=True)
        self.reducer_flag = reducer is not None
        self.parallel_mode = "stand_alone" if reducer is None else "data_parallel"
        if return_grad:
            self.weights_name = [p.name for p in self.weights]
        object.__setattr__(self, "_grad_replay", None)  # see _run

    def _run(self, *args, **kwargs):
        # set_context(pynative_grad_replay=True): the whole step (gradient and update) is
        # watched on its first PyNative call and, if that showed no Python-visible effect,
        # replayed from one compiled program afterwards (cellax/_transforms/_grad_replay.py)
        if not _transforms.grad_replay_wanted():
            return super()._run(*args, **kwargs)
        replay = self._grad_replay
        if replay is None:
            replay = _transforms.GradReplay(super()._run)
            object.__setattr__(self, "_grad_replay", replay)
        return replay(args, kwargs)

    def __getstate__(self):
        state = super().__getstate__()
        state["_grad_replay"] = None  # a copy watches and compiles its own step
        return state

    def construct(self, *inputs):
        out, _, grads = _transforms.differentiate(
            "TrainOneStepCell", self.network, inputs, {}, None, list(self.weights), False
        )
        # The gradient is linear in the output cotangent: sens * ones gives sens * grads.
        grads = self.grad_reducer(_scale(tuple(wrap(g) for g in grads), self.sens))
        self.optimizer(grads)
        loss = wrap_tree(out)
        if self.return_grad:
            return loss, dict(zip(self.weights_name, grads))
        return loss


class ParameterUpdate(Cell):
    """Assign its input to a Parameter: ``ParameterUpdate(param)(x)`` sets ``param`` to ``x``.

    Args:
        param (Parameter): The Parameter to update.

    Inputs:
        - **x** (Tensor) - The new value (the Parameter's shape).

    Outputs:
        Tensor, ``x``.

    Raises:
        TypeError: If ``param`` is not a Parameter.

    Examples:
        >>> import cellax as ms
        >>> from cellax import nn
        >>> w = ms.Parameter(ms.Tensor([1.0, 2.0]), name="w")
        >>> _ = nn.ParameterUpdate(w)(ms.Tensor([3.0, 4.0]))
        >>> print(w.asnumpy())
        [3. 4.]

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/nn/mindspore.nn.ParameterUpdate.html
    """

    def __init__(self, param) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(
                f"For 'ParameterUpdate', 'param' must be a Parameter, but got "
                f"{type(param).__name__}."
            )
        self._param = param

    def construct(self, x):
        value = jnp.asarray(unwrap(x))
        current = self._param._value
        if value.shape != current.shape:
            raise ValueError(
                f"For 'ParameterUpdate', 'x' must have the shape {tuple(current.shape)} of "
                f"Parameter '{self._param.name}', but got {tuple(value.shape)}."
            )
        self._param._value = value.astype(current.dtype)
        return x
