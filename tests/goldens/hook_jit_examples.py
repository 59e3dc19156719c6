"""Hooks under ``@jit`` and GRAPH_MODE, shared by record_hooks_jit.py (run with MindSpore, one
subprocess per example) and tests/test_hooks_jit.py (run with cellax).

Each example is code run with ``ms``, ``nn``, ``ops``, ``Tensor``, ``Parameter`` and ``np`` in
scope. Observing hooks report with ``print(tag, *values)`` where each value is a bool, an int
or one Tensor (never a tuple: MindSpore's graph-mode ``print`` flattens tuples), so that the
report is the same whatever prints it. Hooks that replace gradients do not print. The example
leaves its gradients in ``out`` (a Tensor or a tuple of Tensors).

The golden (hooks_jit.json) holds, per example, the distinct reports ``[tag, values]`` (a bool
as 0/1, a Tensor as its flattened float values; MindSpore may call a forward hook more than
once and prints in its own order), ``out`` and MindSpore's raw printed text.
"""

TAGS = ("fpre", "fhook", "bpre", "bhook", "hb", "th", "igo")

EXAMPLES = {}

_NET = """
def fpre(cell, inputs):
    print("fpre", isinstance(inputs, tuple), len(inputs), inputs[0])

def fhook(cell, inputs, output):
    print("fhook", isinstance(inputs, tuple), isinstance(output, tuple), output)

def bpre(cell, grad_output):
    print("bpre", isinstance(grad_output, tuple), len(grad_output), grad_output[0])

def bhook(cell, grad_input, grad_output):
    print("bhook", isinstance(grad_input, tuple), isinstance(grad_output, tuple),
          len(grad_input), grad_input[0], grad_output[0])

def bhook_times10(cell, grad_input, grad_output):
    return (grad_input[0] * 10,)

def hb_fn(grad):
    print("hb", isinstance(grad, tuple), grad[0])

def th(grad):
    print("th", grad)

def times3(grad):
    return grad * 3

hb = ops.HookBackward(hb_fn)
ig = ops.InsertGradientOf(times3)

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.relu = nn.ReLU()
        self.relu.register_forward_pre_hook(fpre)
        self.relu.register_forward_hook(fhook)
        self.relu.register_backward_pre_hook(bpre)
        self.relu.register_backward_hook(bhook)
        self.relu.register_backward_hook(bhook_times10)

    def construct(self, x, y):
        z = x * y
        z.register_hook(th)
        z = hb(z)
        z = ig(z)
        z = self.relu(z)
        return z * 2

class JitNet(Net):
    @ms.jit
    def construct(self, x, y):
        z = x * y
        z.register_hook(th)
        z = hb(z)
        z = ig(z)
        z = self.relu(z)
        return z * 2

x = Tensor(np.array([1.0, 2.0], np.float32))
y = Tensor(np.array([3.0, 4.0], np.float32))
"""

# every hook kind inside a Cell, GRAPH_MODE
EXAMPLES["graph_mode_cell"] = (
    _NET
    + """
ms.set_context(mode=ms.GRAPH_MODE)
out = ms.grad(Net(), grad_position=(0, 1))(x, y)
"""
)

# the same inside a @jit construct, differentiated from PyNative
EXAMPLES["jit_construct"] = (
    _NET
    + """
out = ms.grad(JitNet(), grad_position=(0, 1))(x, y)
"""
)

# the same, the whole gradient compiled
EXAMPLES["jit_of_grad"] = (
    _NET
    + """
out = ms.jit(ms.grad(Net(), grad_position=(0, 1)))(x, y)
"""
)

_HOOK_FN = """
def hb_fn(grad):
    print("hb", isinstance(grad, tuple), grad[0])
    return (grad[0] * 100,)

hook = ops.HookBackward(hb_fn)

def f(x, y):
    return hook(x * y) * y

x = Tensor(np.array([1.0], np.float32))
y = Tensor(np.array([2.0], np.float32))
"""

# a replacing HookBackward in a function: compiled gradient, then the gradient of a jit function
EXAMPLES["hookbackward_jit_of_grad"] = (
    _HOOK_FN
    + """
out = ms.jit(ms.grad(f, grad_position=(0, 1)))(x, y)
"""
)

EXAMPLES["hookbackward_grad_of_jit"] = (
    _HOOK_FN
    + """
out = ms.grad(ms.jit(f), grad_position=(0, 1))(x, y)
"""
)

# Tensor.register_hook inside a compiled gradient: an observing and a replacing hook
EXAMPLES["tensor_hook_inside_jit"] = """
def th(grad):
    print("th", grad)

def times3(grad):
    return grad * 3

def f(a):
    b = a * 3
    b.register_hook(th)  # (graph mode allows one hook per Tensor)
    c = b * 2
    c.register_hook(times3)
    return c * 2

out = ms.jit(ms.grad(f))(Tensor(np.array([1.0], np.float32)))
"""

# a hook registered on an input outside, the input then passed into a compiled gradient
EXAMPLES["tensor_hook_on_jit_input"] = """
def times3(grad):
    return grad * 3

def times5(a):
    return a * 5

x = Tensor(np.array([1.0], np.float32))
handle = x.register_hook(times3)
out = ms.jit(ms.grad(times5))(x)
"""

# a Parameter's hook, gradient with respect to the weights compiled
EXAMPLES["parameter_hook_jit"] = """
def times10(grad):
    return grad * 10

class P(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0], np.float32)), name="w")

    def construct(self, x):
        return self.w * x

p = P()
p.w.register_hook(times10)
out = ms.jit(ms.grad(p, None, p.trainable_params()))(Tensor(np.array([3.0], np.float32)))
"""

# InsertGradientOf clipping a gradient: PyNative and compiled give the same
EXAMPLES["insert_gradient_of"] = """
def clip(grad):
    return ops.clip_by_value(grad, -0.5, 0.5)

ig = ops.InsertGradientOf(clip)

def f(x, y):
    return ig(x * y) * 3

x = Tensor(np.array([1.0, 2.0], np.float32))
y = Tensor(np.array([3.0, -4.0], np.float32))
eager = ms.grad(f, grad_position=(0, 1))(x, y)
compiled = ms.jit(ms.grad(f, grad_position=(0, 1)))(x, y)
out = eager + compiled
"""
