"""Cell's forward and backward hooks: registration and the forward-hook calls."""

from __future__ import annotations

from ..._core import add_hook
from ..._transforms import _custom_vjp

__all__ = ["CellHooksMixin"]


class CellHooksMixin:
    """``register_forward_pre_hook``, ``register_forward_hook``, ``register_backward_pre_hook``
    and ``register_backward_hook`` (mixed into :class:`Cell`)."""

    def _run_forward_pre_hooks(self, args: tuple, kwargs: dict):
        return _custom_vjp.run_forward_pre_hooks(
            self, list(self._forward_pre_hooks.values()), args, kwargs
        )

    def _run_forward_hooks(self, args: tuple, out, kwargs: dict | None = None):
        hooks = list(self._forward_hooks.values())
        return _custom_vjp.run_forward_hooks(self, hooks, args, kwargs or {}, out)

    def register_forward_pre_hook(
        self, hook_fn, *, prepend: bool = False, with_kwargs: bool = False
    ):
        """Register a hook that runs before ``construct`` and may replace its inputs.

        ``hook_fn(cell, inputs) -> None or new inputs``; with ``with_kwargs=True``,
        ``hook_fn(cell, inputs, kwargs) -> None or (new inputs, new kwargs)``. ``inputs`` is the
        tuple of positional inputs; a returned non-tuple becomes a 1-tuple. Ops the hook applies
        to the inputs are differentiated too; returning new data (not computed from the inputs)
        stops the gradient there. They lie outside this Cell's backward hooks.

        Under ``cellax.jit`` / GRAPH_MODE (where MindSpore 2.10 runs it too): the hook is traced.
        A hook returning new inputs computed with cellax ops becomes part of the compiled
        program (its printing happens once, at trace time). A hook that returns None only
        observes: it runs at every call with the real values (``jax.debug.callback``).

        Args:
            hook_fn (function): The hook.
            prepend (bool): Run it before the hooks already registered. Default: ``False``.
            with_kwargs (bool): Pass and return the keyword inputs too. Default: ``False``.

        Returns:
            A handle; ``handle.remove()`` unregisters the hook.

        Raises:
            TypeError: If ``hook_fn`` is not callable.

        Examples:
            >>> import numpy as np
            >>> import cellax as ms
            >>> from cellax import Tensor, nn, ops
            >>> def forward_pre_hook_fn(cell, inputs):
            ...     print("forward inputs: ", inputs)
            >>> class Net(nn.Cell):
            ...     def __init__(self):
            ...         super(Net, self).__init__()
            ...         self.mul = nn.MatMul()
            ...         self.handle = self.mul.register_forward_pre_hook(forward_pre_hook_fn)
            ...     def construct(self, x, y):
            ...         x = x + x
            ...         x = self.mul(x, y)
            ...         return x
            >>> grad = ops.GradOperation(get_all=True)
            >>> net = Net()
            >>> x = Tensor(np.ones([1]).astype(np.float32))
            >>> y = Tensor(np.ones([1]).astype(np.float32))
            >>> output = grad(net)(x, y)
            forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), \
Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))
            >>> print(output)
            (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), \
Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))
        """

        return _custom_vjp.add_cell_hook(
            self._forward_pre_hooks, hook_fn, "register_forward_pre_hook", prepend, with_kwargs
        )

    def register_forward_hook(
        self,
        hook_fn,
        *,
        prepend: bool = False,
        with_kwargs: bool = False,
        always_call: bool = False,
    ):
        """Register a hook that runs after ``construct`` and may replace its output.

        ``hook_fn(cell, inputs, output) -> None or new output``; with ``with_kwargs=True``,
        ``hook_fn(cell, inputs, kwargs, output)``. Ops the hook applies to the output are
        differentiated too (outside this Cell's backward hooks); returning new data stops the
        gradient. Under ``cellax.jit`` / GRAPH_MODE it behaves like
        :meth:`register_forward_pre_hook`: replacing hooks are traced, observing hooks run at
        every call with real values.

        Args:
            hook_fn (function): The hook.
            prepend (bool): Run it before the hooks already registered. Default: ``False``.
            with_kwargs (bool): Pass the keyword inputs too. Default: ``False``.
            always_call (bool): Accepted for compatibility. Default: ``False``.

        Returns:
            A handle; ``handle.remove()`` unregisters the hook.

        Raises:
            TypeError: If ``hook_fn`` is not callable.

        Examples:
            >>> import numpy as np
            >>> import cellax as ms
            >>> from cellax import Tensor, nn, ops
            >>> def forward_hook_fn(cell, inputs, output):
            ...     print("forward inputs: ", inputs)
            ...     print("forward output: ", output)
            >>> class Net(nn.Cell):
            ...     def __init__(self):
            ...         super(Net, self).__init__()
            ...         self.mul = nn.MatMul()
            ...         self.handle = self.mul.register_forward_hook(forward_hook_fn)
            ...     def construct(self, x, y):
            ...         x = x + x
            ...         x = self.mul(x, y)
            ...         return x
            >>> grad = ops.GradOperation(get_all=True)
            >>> net = Net()
            >>> x = Tensor(np.ones([1]).astype(np.float32))
            >>> y = Tensor(np.ones([1]).astype(np.float32))
            >>> output = grad(net)(x, y)
            forward inputs:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), \
Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]))
            forward output:  2.0
            >>> print(output)
            (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]), \
Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]))
        """

        if not isinstance(always_call, bool):
            raise TypeError(
                f"For 'register_forward_hook', 'always_call' must be a bool, but got "
                f"{always_call!r}."
            )
        return _custom_vjp.add_cell_hook(
            self._forward_hooks, hook_fn, "register_forward_hook", prepend, with_kwargs
        )

    def register_backward_pre_hook(self, hook_fn):
        """Register a hook that sees (and may replace) the gradient arriving at this Cell.

        ``hook_fn(cell, grad_output) -> None or new grad_output``: ``grad_output`` is the tuple
        of gradients of this Cell's floating outputs; a returned tuple of the same length and
        shapes replaces it (a Tensor is accepted when there is one output). Runs during
        ``grad``/``value_and_grad``. Under ``cellax.jit`` / GRAPH_MODE (where MindSpore 2.10
        runs it too, with the same tuple) a hook that returns None runs at every call with the
        real gradients
        (``jax.debug.callback``); a replacing hook is traced into the program.

        Args:
            hook_fn (function): The hook.

        Returns:
            A handle; ``handle.remove()`` unregisters the hook.

        Raises:
            TypeError: If ``hook_fn`` is not callable, or (during the backward pass) returns a
                structure other than None or one gradient per output.

        Examples:
            >>> import numpy as np
            >>> import cellax as ms
            >>> from cellax import Tensor, nn, ops
            >>> def backward_pre_hook_fn(cell, grad_output):
            ...     print("backward input: ", grad_output)
            >>> class Net(nn.Cell):
            ...     def __init__(self):
            ...         super(Net, self).__init__()
            ...         self.relu = nn.ReLU()
            ...         self.handle = self.relu.register_backward_pre_hook(backward_pre_hook_fn)
            ...     def construct(self, x):
            ...         x = x + x
            ...         x = self.relu(x)
            ...         return x
            >>> grad = ops.GradOperation(get_all=True)
            >>> net = Net()
            >>> output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
            backward input:  (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)
            >>> print(output)
            (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
        """
        return add_hook(self._backward_pre_hooks, hook_fn, "register_backward_pre_hook")

    def register_backward_hook(self, hook_fn):
        """Register a hook that sees (and may replace) the gradients of this Cell's inputs.

        ``hook_fn(cell, grad_input, grad_output) -> None or new grad_input``: ``grad_input`` is
        the tuple of gradients of the Cell's floating Tensor inputs, ``grad_output`` those of
        its outputs (after backward pre hooks). A returned tuple with one gradient per input
        replaces ``grad_input`` (a Tensor is accepted for one input); several hooks chain.
        Only the Cell's own computation lies between the two: ops added by forward (pre) hooks
        are not included. Under ``cellax.jit`` / GRAPH_MODE it behaves like
        :meth:`register_backward_pre_hook`.

        Args:
            hook_fn (function): The hook.

        Returns:
            A handle; ``handle.remove()`` unregisters the hook.

        Raises:
            TypeError: If ``hook_fn`` is not callable, or (during the backward pass) returns a
                structure other than None or one gradient per input.

        Examples:
            >>> import numpy as np
            >>> import cellax as ms
            >>> from cellax import Tensor, nn, ops
            >>> def backward_hook_fn(cell, grad_input, grad_output):
            ...     print("backward input: ", grad_output)
            ...     print("backward output: ", grad_input)
            >>> class Net(nn.Cell):
            ...     def __init__(self):
            ...         super(Net, self).__init__()
            ...         self.relu = nn.ReLU()
            ...         self.handle = self.relu.register_backward_hook(backward_hook_fn)
            ...     def construct(self, x):
            ...         x = x + x
            ...         x = self.relu(x)
            ...         return x
            >>> grad = ops.GradOperation(get_all=True)
            >>> net = Net()
            >>> output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
            backward input:  (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)
            backward output:  (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)
            >>> print(output)
            (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)
        """
        return add_hook(self._backward_hooks, hook_fn, "register_backward_hook")
