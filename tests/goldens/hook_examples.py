"""Hook / bprop examples (seed 001, seed 002 method docs, and edge cases) shared by
record_hooks.py (run with MindSpore) and tests/test_hooks.py (run with cellax).

Each example is code run with ``ms``, ``nn``, ``ops``, ``Tensor``, ``Parameter`` and ``np``
in scope; its printed output is the golden.
"""

EXAMPLES = {}

EXAMPLES["seed001_hookbackward"] = """
def hook_fn(grad_out):
    print("hook_fn print grad_out:", grad_out)

hook = ops.HookBackward(hook_fn)
def hook_test(x, y):
    z = x * y
    z = hook(z)
    z = z * y
    return z

def net(x, y):
    return ms.grad(hook_test, grad_position=(0, 1))(x, y)

output = net(ms.Tensor(1, ms.float32), ms.Tensor(2, ms.float32))
print("output:", output)
"""

_RELU_NET = """
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x

net = Net()
grad_net = ms.grad(net, grad_position=(0, 1))

x = ms.Tensor(np.ones([1]).astype(np.float32))
y = ms.Tensor(np.ones([1]).astype(np.float32))
"""

EXAMPLES["seed001_forward_pre_hook"] = (
    """
def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)
    input_x = inputs[0]
    return input_x
"""
    + _RELU_NET
    + """
output = net(x, y)
print(output)
gradient = grad_net(x, y)
print(gradient)
net.handle.remove()
gradient = grad_net(x, y)
print(gradient)
"""
)

EXAMPLES["seed001_forward_pre_hook_new_data"] = (
    """
def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)
    return ms.Tensor(np.ones([1]).astype(np.float32))
"""
    + _RELU_NET
    + """
gradient = grad_net(x, y)
print(gradient)
"""
)

EXAMPLES["seed001_forward_hook"] = (
    """
def forward_hook_fn(cell, inputs, outputs):
    print("forward inputs: ", inputs)
    print("forward outputs: ", outputs)
    outputs = outputs + outputs
    return outputs
"""
    + _RELU_NET.replace(
        "register_forward_pre_hook(forward_pre_hook_fn)", "register_forward_hook(forward_hook_fn)"
    )
    + """
gradient = grad_net(x, y)
print(gradient)
net.handle.remove()
gradient = grad_net(x, y)
print(gradient)
"""
)

EXAMPLES["seed001_backward_hook_conv_bn"] = """
def backward_hook_function(cell_id, grad_input, grad_output):
    print(grad_input)
    print(grad_output)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = nn.Conv2d(1, 2, kernel_size=2, stride=1, padding=0, weight_init="ones",
                              pad_mode="valid")
        self.bn = nn.BatchNorm2d(2, momentum=0.99, eps=0.00001, gamma_init="ones")
        self.handle = self.bn.register_backward_hook(backward_hook_function)
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.conv(x)
        x = self.bn(x)
        x = self.relu(x)
        return x

net = Net()
grad_net = ms.grad(net)
output = grad_net(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print(output)
net.handle.remove()
output = grad_net(ms.Tensor(np.ones([1, 1, 2, 2]).astype(np.float32)))
print("-------------\\n", output)
"""

EXAMPLES["seed001_combined"] = """
def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)
    input_x = inputs[0]
    return input_x

def forward_hook_fn(cell, inputs, outputs):
    print("forward inputs: ", inputs)
    print("forward outputs: ", outputs)
    outputs = outputs + outputs
    return outputs

def backward_hook_fn(cell_id, grad_input, grad_output):
    print("grad input: ", grad_input)
    print("grad output: ", grad_output)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_pre_hook(forward_pre_hook_fn)
        self.handle2 = self.relu.register_forward_hook(forward_hook_fn)
        self.handle3 = self.relu.register_backward_hook(backward_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x

net = Net()
grad_net = ms.grad(net, grad_position=(0, 1))
gradient = grad_net(ms.Tensor(np.ones([1]).astype(np.float32)),
                    ms.Tensor(np.ones([1]).astype(np.float32)))
print(gradient)
"""

_DOC_RELU = """
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.REGISTER(HOOK)

    def construct(self, x):
        x = x + x
        x = self.relu(x)
        return x

grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
print(output)
"""

EXAMPLES["seed002_backward_hook"] = """
def backward_hook_fn(cell, grad_input, grad_output):
    print("backward input: ", grad_output)
    print("backward output: ", grad_input)
""" + _DOC_RELU.replace("REGISTER", "register_backward_hook").replace("HOOK", "backward_hook_fn")

EXAMPLES["seed002_backward_pre_hook"] = """
def backward_pre_hook_fn(cell, grad_output):
    print("backward input: ", grad_output)
""" + _DOC_RELU.replace("REGISTER", "register_backward_pre_hook").replace(
    "HOOK", "backward_pre_hook_fn"
)

_DOC_MATMUL = """
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.mul = nn.MatMul()
        self.handle = self.mul.REGISTER(HOOK)

    def construct(self, x, y):
        x = x + x
        x = self.mul(x, y)
        return x

grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)), Tensor(np.ones([1]).astype(np.float32)))
print(output)
"""

EXAMPLES["seed002_forward_hook"] = """
def forward_hook_fn(cell, inputs, output):
    print("forward inputs: ", inputs)
    print("forward output: ", output)
""" + _DOC_MATMUL.replace("REGISTER", "register_forward_hook").replace("HOOK", "forward_hook_fn")

EXAMPLES["seed002_forward_pre_hook"] = """
def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)
""" + _DOC_MATMUL.replace("REGISTER", "register_forward_pre_hook").replace(
    "HOOK", "forward_pre_hook_fn"
)

EXAMPLES["backward_hooks_replace_and_order"] = """
class M(nn.Cell):
    def construct(self, x, y):
        return x * y * 3, x + y

class N(nn.Cell):
    def __init__(self):
        super().__init__()
        self.m = M()
    def construct(self, x, y):
        a, b = self.m(x, y)
        return a * 5 + b * 7

def pre(cell, grad_output):
    print("pre", grad_output)
    return (grad_output[0] * 2, grad_output[1])

def post(cell, grad_input, grad_output):
    print("post in", grad_input)
    print("post out", grad_output)
    return (grad_input[0] + 1, grad_input[1] * 0)

def post2(cell, grad_input, grad_output):
    print("post2 in", grad_input)

n = N()
h1 = n.m.register_backward_pre_hook(pre)
h2 = n.m.register_backward_hook(post)
h3 = n.m.register_backward_hook(post2)
x = Tensor(np.array([1.0, 2.0], np.float32))
y = Tensor(np.array([3.0, 4.0], np.float32))
print(ms.grad(n, grad_position=(0, 1))(x, y))
h1.remove()
h2.remove()
print(ms.grad(n, grad_position=(0, 1))(x, y))
h3.remove()
print(ms.grad(n, grad_position=(0, 1))(x, y))
"""

EXAMPLES["tensor_register_hook"] = """
def h(g):
    print("tensor hook", g)
    return g * 3

def f(x):
    y = x * 2
    y.register_hook(h)
    return y * y

x = Tensor(np.ones([2]).astype(np.float32))
print(ms.grad(f)(x))
handle = x.register_hook(lambda g: print("input hook", g))
print(ms.grad(lambda x: x * 5)(x))
handle.remove()
print(ms.grad(lambda x: x * 5)(x))

class P(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0], np.float32)), name='w')
    def construct(self, x):
        return self.w * x

p = P()
hd = p.w.register_hook(lambda g: g * 10)
print(ms.grad(p, None, p.trainable_params())(Tensor(np.array([3.0], np.float32))))
hd.remove()
print(ms.grad(p, None, p.trainable_params())(Tensor(np.array([3.0], np.float32))))
"""

EXAMPLES["hookbackward_replace"] = """
def hf(g):
    print("hb", g)
    return (g[0] * 100,)

hook = ops.HookBackward(hf)
print(ms.grad(lambda x, y: hook(x * y) * y, grad_position=(0, 1))(
    Tensor(1, ms.float32), Tensor(2, ms.float32)))
hook2 = ops.HookBackward(lambda g: print("two", g))
print(ms.grad(lambda x, y: ops.mul(*hook2(x, y)), grad_position=(0, 1))(
    Tensor(3, ms.float32), Tensor(2, ms.float32)))
"""

EXAMPLES["bprop_extended"] = """
class NetWithParam(nn.Cell):
    def __init__(self):
        super(NetWithParam, self).__init__()
        self.w = Parameter(Tensor(np.array([2.0], dtype=np.float32)), name='weight')
        self.internal_params = [self.w]

    def construct(self, x):
        output = self.w * x
        return output

    def bprop(self, *args):
        return (self.w * args[-1],), {self.w: args[0] * args[-1]}

n = NetWithParam()
print(ms.grad(n, 0, n.trainable_params())(Tensor(np.array([3.0], np.float32))))

class Plain(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.array([2.0], dtype=np.float32)), name='w2')
    def construct(self, x, y):
        return self.w * x * y
    def bprop(self, x, y, out, dout):
        return (dout * 7, dout * 11)

p = Plain()
print(ms.grad(p, (0, 1), p.trainable_params())(Tensor(np.array([3.0], np.float32)),
                                               Tensor(np.array([5.0], np.float32))))
"""
