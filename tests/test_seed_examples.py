"""Every code example of the spec seeds (/work/shared/seeds/000..004) run on cellax.

Each example is kept as close to verbatim as possible; the only systematic change is
``mindspore`` -> ``cellax``. The code lives in ``EXAMPLES`` below (as source text, so that it is
run exactly as written, with ``__name__ == "__main__"`` as in a script); its printed output is
compared with what the seed shows or, where the seed disagrees with MindSpore 2.10, with what
MindSpore 2.10 prints (recorded by tests/goldens/record_seed_examples.py into
tests/goldens/seed_examples.json, which runs these same sources with ``cellax`` ->
``mindspore``).

Modes: ``exec`` runs the code as a script; ``doctest`` echoes the repr of every top-level
expression statement whose value is not None (the ``>>>`` examples of seed 002); ``notebook``
echoes only a trailing expression (the Jupyter cells of seeds 001 and 004). ``needs`` lists
examples run first in the same namespace (a notebook's earlier cells); their output is not
checked here (each has its own test). Before each chain ``np.random.seed(0)`` makes NumPy's
random draws identical in cellax and MindSpore, so the seeds' ``np.random`` examples compare
exactly.
"""

import ast
import contextlib
import io
import linecache
import os
import re

import numpy as np
import pytest

from ._goldens import load_json

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN_PATH = os.path.join(HERE, "goldens", "seed_examples.json")

EXAMPLES = {}

# =============================================================================================
# Seed 000 (and 003: the same page as markdown; its six code blocks are identical to 000's)
# =============================================================================================

EXAMPLES["000_functional_in_cell"] = {
    "code": """
import cellax as ms
import cellax.nn as nn
import cellax.ops as ops

class MyCell(nn.Cell):
    def construct(self, x, y):
        output = ops.add(x, y)
        return output

net = MyCell()
x = ms.Tensor([1, 2, 3], ms.float32)
y = ms.Tensor([4, 5, 6], ms.float32)
output = net(x, y)
print(output)
"""
}

EXAMPLES["000_functional_standalone"] = {
    "code": """
import cellax as ms
import cellax.ops as ops

x = ms.Tensor([1, 2, 3], ms.float32)
y = ms.Tensor([4, 5, 6], ms.float32)
output = ops.add(x, y)
print(output)
"""
}

EXAMPLES["000_cell_auto_prefix"] = {
    "code": """
import cellax.nn as nn
import cellax.ops as ops

class MyCell(nn.Cell):
    def __init__(self, forward_net):
        super(MyCell, self).__init__(auto_prefix=True)
        self.net = forward_net
        self.relu = ops.ReLU()

    def construct(self, x):
        y = self.net(x)
        return self.relu(y)

inner_net = nn.Conv2d(120, 240, 4, has_bias=False)
my_net = MyCell(inner_net)
print(my_net.trainable_params())
"""
}

EXAMPLES["000_trainable_params"] = {
    "code": """
import cellax.nn as nn

net = nn.Dense(2, 1, has_bias=True)
print(net.trainable_params())

for param in net.trainable_params():
    param_name = param.name
    if "bias" in param_name:
        param.requires_grad = False

print(net.trainable_params())
"""
}

EXAMPLES["000_checkpoint"] = {
    "code": """
import cellax as ms
import cellax.ops as ops
import cellax.nn as nn

net = nn.Dense(2, 1, has_bias=True)
for param in net.get_parameters():
    print(param.name, param.data.asnumpy())

ms.save_checkpoint(net, "dense.ckpt")
dense_params = ms.load_checkpoint("dense.ckpt")
print(dense_params)

new_params = {}
for param_name in dense_params:
    print(param_name, dense_params[param_name].data.asnumpy())
    new_params[param_name] = ms.Parameter(ops.ones_like(dense_params[param_name].data),
                                          name=param_name)

ms.load_param_into_net(net, new_params)
for param in net.get_parameters():
    print(param.name, param.data.asnumpy())
"""
}

EXAMPLES["000_submodules"] = {
    "code": """
from cellax import nn

class MyCell(nn.Cell):
    def __init__(self):
        super(MyCell, self).__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        # 使用insert_child_to_cell添加子模块
        self.insert_child_to_cell('conv3', nn.Conv2d(64, 128, 3, 1))
        self.sequential_block = nn.SequentialCell(
            nn.ReLU(),
            nn.Conv2d(128, 256, 3, 1),
            nn.ReLU()
        )

    def construct(self, x):
        x = self.conv1(x)
        x = self.conv2(x)
        x = self.conv3(x)
        x = self.sequential_block(x)
        return x

module = MyCell()

# 使用cells_and_names遍历所有子模块(包括直接和间接子模块)
for name, cell_instance in module.cells_and_names():
    print(f"Cell name: {name}, type: {type(cell_instance)}")
"""
}

# =============================================================================================
# Seed 001 (a notebook: the Parameter / Cell cells share one namespace)
# =============================================================================================

EXAMPLES["001_network"] = {
    "code": """
import numpy as np
import cellax
from cellax import nn
from cellax import ops
from cellax import Tensor, Parameter

class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.random.randn(5, 3), cellax.float32), name='w') # weight
        self.b = Parameter(Tensor(np.random.randn(3,), cellax.float32), name='b') # bias

    def construct(self, x):
        z = ops.matmul(x, self.w) + self.b
        return z

net = Network()
"""
}

EXAMPLES["001_get_single_param"] = {
    "needs": ["001_network"],
    "code": """
print(net.b.asnumpy())
""",
}

EXAMPLES["001_trainable_params"] = {
    "needs": ["001_network"],
    "code": """
print(net.trainable_params())
""",
}

EXAMPLES["001_get_parameters_type"] = {
    "needs": ["001_network"],
    "code": """
print(type(net.get_parameters()))
""",
}

EXAMPLES["001_parameters_and_names"] = {
    "needs": ["001_network"],
    "code": """
for name, param in net.parameters_and_names():
    print(f"{name}:\\n{param.asnumpy()}")
""",
}

EXAMPLES["001_setitem"] = {
    "needs": ["001_network"],
    "code": """
net.b[0] = 1.
print(net.b.asnumpy())
""",
}

EXAMPLES["001_set_data"] = {
    "needs": ["001_network", "001_setitem"],
    "code": """
net.b.set_data(Tensor([3, 4, 5]))
print(net.b.asnumpy())
""",
}

EXAMPLES["001_jit_assign"] = {
    "needs": ["001_network", "001_setitem", "001_set_data"],
    "code": """
import cellax as ms

@ms.jit
def modify_parameter():
    b_hat = ms.Tensor([7, 8, 9])
    ops.assign(net.b, b_hat)
    return True

modify_parameter()
print(net.b.asnumpy())
""",
}

EXAMPLES["001_parameter_tuple"] = {
    "needs": ["001_network", "001_jit_assign"],
    "code": """
from cellax.common.initializer import initializer
from cellax import ParameterTuple
# 创建
x = Parameter(default_input=ms.Tensor(np.arange(2 * 3).reshape((2, 3))), name="x")
y = Parameter(default_input=initializer('ones', [1, 2, 3], ms.float32), name='y')
z = Parameter(default_input=2.0, name='z')
params = ParameterTuple((x, y, z))

# 从params克隆并修改名称为"params_copy"
params_copy = params.clone("params_copy")

print(params)
print(params_copy)
""",
}

EXAMPLES["001_set_train_true"] = {
    "needs": ["001_network"],
    "code": """
net.set_train()
print(net.phase)
""",
}

EXAMPLES["001_set_train_false"] = {
    "needs": ["001_network", "001_set_train_true"],
    "code": """
net.set_train(False)
print(net.phase)
""",
}

EXAMPLES["001_threshold"] = {
    "needs": ["001_network"],
    "mode": "notebook",
    "code": """
class Threshold(nn.Cell):
    def __init__(self, threshold, value):
        super().__init__()
        self.threshold = threshold
        self.value = value

    def construct(self, inputs):
        cond = ops.gt(inputs, self.threshold)
        value = ops.fill(inputs.dtype, inputs.shape, self.value)
        return ops.select(cond, inputs, value)

m = Threshold(0.1, 20)
inputs = cellax.Tensor([0.1, 0.2, 0.3], cellax.float32)
m(inputs)
""",
}

# The seed only defines and instantiates Dropout2d; the lines after "# test:" exercise its bprop
# (test-only addition): the input gradient is the forward mask scaled by 1 / keep_prob.
EXAMPLES["001_bprop_dropout2d"] = {
    "needs": ["001_network"],
    "code": """
class Dropout2d(nn.Cell):
    def __init__(self, keep_prob):
        super().__init__()
        self.keep_prob = keep_prob
        self.dropout2d = ops.Dropout2D(keep_prob)

    def construct(self, x):
        return self.dropout2d(x)

    def bprop(self, x, out, dout):
        _, mask = out
        dy, _ = dout
        if self.keep_prob != 0:
            dy = dy * (1 / self.keep_prob)
        dy = mask.astype(cellax.float32) * dy
        return (dy.astype(x.dtype), )

dropout_2d = Dropout2d(0.8)
dropout_2d.bprop_debug = True
# test:
x = Tensor(np.ones((2, 8, 1, 1)), cellax.float32)
out, mask = dropout_2d(x)
dx = cellax.grad(lambda x: dropout_2d(x)[0])(x)
print(out.shape, mask.shape, mask.dtype, dx.dtype)
print(np.allclose(dx.asnumpy(), mask.asnumpy().astype(np.float32) / 0.8))
print(np.allclose(out.asnumpy(), mask.asnumpy().astype(np.float32) / 0.8))
""",
}

# The seed only defines NetWithParam; the lines after "# test:" take the gradients its bprop
# defines (test-only addition): d/dx = w * dout, d/dw = x * dout.
EXAMPLES["001_bprop_with_param"] = {
    "needs": ["001_network"],
    "code": """
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
# test:
net_p = NetWithParam()
x = Tensor(np.array([3.0], dtype=np.float32))
print(cellax.grad(net_p, grad_position=0, weights=net_p.trainable_params())(x))
""",
}

EXAMPLES["001_hook_backward"] = {
    "code": '''
import cellax as ms
from cellax import ops

ms.set_context(mode=ms.PYNATIVE_MODE)

def hook_fn(grad_out):
    """打印梯度"""
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
'''
}

EXAMPLES["001_forward_pre_hook"] = {
    "code": """
import numpy as np
import cellax as ms
import cellax.nn as nn

ms.set_context(mode=ms.PYNATIVE_MODE)

def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)
    input_x = inputs[0]
    return input_x

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

output = net(x, y)
print(output)
gradient = grad_net(x, y)
print(gradient)
net.handle.remove()
gradient = grad_net(x, y)
print(gradient)
"""
}

EXAMPLES["001_forward_pre_hook_new_data"] = {
    "code": """
import numpy as np
import cellax as ms
import cellax.nn as nn

ms.set_context(mode=ms.PYNATIVE_MODE)

def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)
    return ms.Tensor(np.ones([1]).astype(np.float32))

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

gradient = grad_net(x, y)
print(gradient)
"""
}

EXAMPLES["001_forward_hook"] = {
    "code": """
import numpy as np
import cellax as ms
import cellax.nn as nn

ms.set_context(mode=ms.PYNATIVE_MODE)

def forward_hook_fn(cell, inputs, outputs):
    print("forward inputs: ", inputs)
    print("forward outputs: ", outputs)
    outputs = outputs + outputs
    return outputs

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_forward_hook(forward_hook_fn)

    def construct(self, x, y):
        x = x + y
        x = self.relu(x)
        return x

net = Net()
grad_net = ms.grad(net, grad_position=(0, 1))

x = ms.Tensor(np.ones([1]).astype(np.float32))
y = ms.Tensor(np.ones([1]).astype(np.float32))

gradient = grad_net(x, y)
print(gradient)
net.handle.remove()
gradient = grad_net(x, y)
print(gradient)
"""
}

EXAMPLES["001_backward_hook_conv_bn"] = {
    "code": """
import numpy as np
import cellax as ms
import cellax.nn as nn

ms.set_context(mode=ms.PYNATIVE_MODE)

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
}

EXAMPLES["001_all_hooks"] = {
    "code": """
import numpy as np
import cellax as ms
import cellax.nn as nn

ms.set_context(mode=ms.PYNATIVE_MODE)

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
}

# =============================================================================================
# Seed 002: the nn.Cell API reference (``>>>`` examples, run in doctest mode)
# =============================================================================================

EXAMPLES["002_cell"] = {
    "mode": "doctest",
    "code": """
import cellax.nn as nn
from cellax import ops
class MyCell(nn.Cell):
    def __init__(self, forward_net):
        super(MyCell, self).__init__(auto_prefix=False)
        self.net = forward_net
        self.relu = ops.ReLU()

    def construct(self, x):
        y = self.net(x)
        return self.relu(y)

inner_net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
my_net = MyCell(inner_net)
print(my_net.trainable_params())
# If the 'auto_prefix' set to True or not set when call the '__init__' method of the parent class,
# the parameter's name will be 'net.weight'.
""",
}

_FLAGS_NET = """
import cellax as ms
from cellax import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()

    def construct(self, x):
        x = self.relu(x)
        return x
net = Net()
"""

EXAMPLES["002_add_flags"] = {
    "mode": "doctest",
    "code": _FLAGS_NET
    + """\
net.add_flags(sink_mode=True)
print(net.sink_mode)
""",
}

EXAMPLES["002_add_flags_recursive"] = {
    "mode": "doctest",
    "code": _FLAGS_NET
    + """\
net.add_flags_recursive(sink_mode=True)
print(net.sink_mode)
""",
}

EXAMPLES["002_apply"] = {
    "mode": "doctest",
    "code": """
import cellax.nn as nn
from cellax.common.initializer import initializer, One
net = nn.SequentialCell(nn.Dense(2, 2), nn.Dense(2, 2))
def func(cell):
    if isinstance(cell, nn.Dense):
        cell.weight.set_data(initializer(One(), cell.weight.shape, cell.weight.dtype))
net.apply(func)
print(net[0].weight.asnumpy())
""",
}

_NET_AB = """
import cellax

class NetB(cellax.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_b = cellax.nn.Buffer(cellax.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_b

class NetA(cellax.nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = cellax.nn.Buffer(cellax.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a

net_b = NetB()
net_a = NetA(net_b)
"""

# The seed's loop body is written as a second ``>>>`` line (a SyntaxError in a doctest);
# nearest working version: the print is the loop body.
EXAMPLES["002_buffers"] = {
    "mode": "doctest",
    "code": _NET_AB
    + """
for buffer in net_a.buffers():
    print(f'buffer is {buffer}')
""",
}

_DENSE_NET = """
import cellax as ms
from cellax import Tensor, nn

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.dense = nn.Dense(2, 2)

    def construct(self, x):
        x = self.dense(x)
        return x
net = Net()
"""

EXAMPLES["002_cells"] = {
    "mode": "doctest",
    "code": _DENSE_NET
    + """\
print(net.cells())
""",
}

# The lines after "# test:" check the list the seed builds (test-only addition).
EXAMPLES["002_cells_and_names"] = {
    "mode": "doctest",
    "code": """
from cellax import nn
class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.conv = nn.Conv2d(3, 64, 3)
    def construct(self, x):
        out = self.conv(x)
        return out
names = []
n = Net()
for m in n.cells_and_names():
    if m[0]:
        names.append(m[0])
# test:
print(names)
""",
}

_NET_ABC = """
import cellax

class NetC(cellax.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_c = cellax.nn.Buffer(cellax.tensor([0, 0, 0]))
DENSE_C
    def construct(self, x):
        return RETURN_C

class NetB(cellax.nn.Cell):
    def __init__(self, net_c):
        super().__init__()
        self.net_c = net_c
        self.buffer_b = cellax.nn.Buffer(cellax.tensor([1, 2, 3]))

    def construct(self, x):
        return self.net_c(x) + self.buffer_b

class NetA(cellax.nn.Cell):
    def __init__(self, net_b):
        super().__init__()
        self.net_b = net_b
        self.buffer_a = cellax.nn.Buffer(cellax.tensor([4, 5, 6]))

    def construct(self, x):
        return self.net_b(x) + self.buffer_a

net_c = NetC()
net_b = NetB(net_c)
net_a = NetA(net_b)
"""

EXAMPLES["002_get_buffer"] = {
    "mode": "doctest",
    "code": _NET_ABC.replace("DENSE_C\n", "").replace("RETURN_C", "x + self.buffer_c")
    + """\
buffer_c = net_a.get_buffer("net_b.net_c.buffer_c")
print(f'buffer_c is {buffer_c}')
""",
}

EXAMPLES["002_get_flags"] = {
    "mode": "doctest",
    "code": _FLAGS_NET
    + """\
net.add_flags(sink_mode=True)
print(net.get_flags())
""",
}

_RELU_NET = """
import numpy as np
import cellax as ms
from cellax import nn, Tensor

class ReluNet(nn.Cell):
    def __init__(self):
        super(ReluNet, self).__init__()
        self.relu = nn.ReLU()
    def construct(self, x):
        return self.relu(x)

net = ReluNet()
input_dyn = Tensor(shape=[3, None], dtype=ms.float32)
net.set_inputs(input_dyn)
"""

EXAMPLES["002_get_inputs"] = {
    "mode": "doctest",
    "code": _RELU_NET
    + """\
get_inputs = net.get_inputs()
print(get_inputs)
""",
}

EXAMPLES["002_get_parameters"] = {
    "mode": "doctest",
    "code": """
import cellax as ms
from cellax import nn, ops, Tensor
import numpy as np
class TestNet(nn.Cell):
    def __init__(self):
        super().__init__()
        self.my_w1 = ms.Parameter(Tensor(np.ones([4, 4]), ms.float32))
        self.my_w2 = ms.Parameter(Tensor(np.ones([16]), ms.float32))
    def construct(self, x):
        x += self.my_w1
        x = ops.reshape(x, (16,)) - self.my_w2
        return x
class TestNet2(nn.Cell):
    def __init__(self):
        super().__init__()
        self.my_t1 = ms.Parameter(Tensor(np.ones([4, 4]), ms.float32))
        # self.subcell is a subcell of TestNet2, when using expand=True, the parameters of
        # TestNet will also be gathered.
        self.subcell = TestNet()
    def construct(self, x):
        x += self.my_w1
        x = ops.reshape(x, (16,)) - self.my_w2
        return x
net = TestNet2()
print([p for p in net.get_parameters(expand=True)])
""",
}

EXAMPLES["002_get_sub_cell"] = {
    "mode": "doctest",
    "code": _NET_ABC.replace("DENSE_C", "        self.dense_c = cellax.nn.Dense(5, 3)\n").replace(
        "RETURN_C", "self.dense_c(x) + self.buffer_c"
    )
    + """\
net_c = net_a.get_sub_cell("net_b.net_c")
print(f'net_c is {net_c}')
""",
}

EXAMPLES["002_init_parameters_data"] = {
    "mode": "doctest",
    "code": _DENSE_NET
    + """\
print(net.init_parameters_data())
""",
}

EXAMPLES["002_insert_child_to_cell"] = {
    "mode": "doctest",
    "code": """
import cellax as ms
from cellax import Tensor, nn

net1 = nn.ReLU()
net2 = nn.Dense(2, 2)
net1.insert_child_to_cell("child", net2)
print(net1)
""",
}

EXAMPLES["002_insert_param_to_cell"] = {
    "mode": "doctest",
    "code": _FLAGS_NET.replace(
        "from cellax import Tensor, nn", "from cellax import Tensor, nn, Parameter"
    )
    + """\
net.insert_param_to_cell("bias", Parameter(Tensor([1, 2, 3])))
print(net.bias)
""",
}

_MODEL_STATE = """
import cellax
class Model(cellax.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = cellax.nn.Buffer(cellax.tensor([4, 5, 6]))
        self.param_a = cellax.Parameter(cellax.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a

model = Model()
print(model.state_dict())
"""

EXAMPLES["002_load_state_dict"] = {
    "mode": "doctest",
    "code": "\nimport os"
    + _MODEL_STATE
    + """\
cellax.save_checkpoint(model.state_dict(), './model_state_dict_ckpt')
new_model = Model()
new_model.load_state_dict(cellax.load_checkpoint('./model_state_dict_ckpt'))
print(new_model.state_dict())
os.remove('./model_state_dict_ckpt')
""",
}

EXAMPLES["002_name_cells"] = {
    "mode": "doctest",
    "code": _DENSE_NET
    + """\
print(net.name_cells())
""",
}

EXAMPLES["002_named_buffers"] = {
    "mode": "doctest",
    "code": _NET_AB
    + """
for name, buffer in net_a.named_buffers():
    print(f'buffer name is {name}, buffer is {buffer}')
""",
}

# The seed uses ``np`` and ``lazy_inline`` without importing them (NameError at the
# ``@lazy_inline`` line); nearest working version imports both. The seed never instantiates
# ``Nets``; the lines after "# test:" do (test-only addition), with the seed's shapes.
EXAMPLES["002_offload"] = {
    "mode": "doctest",
    "code": """
import numpy as np
from cellax import lazy_inline
import cellax.nn as nn
from cellax import ops
from cellax.common import Tensor, Parameter

class Block(nn.Cell):
    def __init__(self):
        super(Block, self).__init__()
        self.transpose1 = ops.Transpose()
        self.transpose2 = ops.Transpose()
        self.transpose3 = ops.Transpose()
        self.transpose4 = ops.Transpose()
        self.real_div1 = ops.RealDiv()
        self.real_div2 = ops.RealDiv()
        self.batch_matmul1 = ops.BatchMatMul()
        self.batch_matmul2 = ops.BatchMatMul()
        self.softmax = ops.Softmax(-1)
        self.expand_dims = ops.ExpandDims()
        self.sub = ops.Sub()
        self.y = Parameter(Tensor(np.ones((1024, 128, 128)).astype(np.float32)))
    def construct(self, x):
        transpose1 = self.transpose1(x, (0, 2, 1, 3))
        real_div1 = self.real_div1(transpose1, Tensor(2.37891))
        transpose2 = self.transpose2(x, (0, 2, 3, 1))
        real_div2 = self.real_div2(transpose2, Tensor(2.37891))
        batch_matmul1 = self.batch_matmul1(real_div1, real_div2)
        expand_dims = self.expand_dims(self.y, 1)
        sub = self.sub(Tensor([1.0]), expand_dims)
        soft_max = self.softmax(sub)
        transpose3 = self.transpose3(x, (0, 2, 1, 3))
        batch_matmul2 = self.batch_matmul2(soft_max[0], transpose3)
        transpose4 = self.transpose4(batch_matmul2, (0, 2, 1, 3))
        return transpose4

class OuterBlock(nn.Cell):
    @lazy_inline
    def __init__(self):
        super(OuterBlock, self).__init__()
        self.block = Block()
    def construct(self, x):
        return self.block(x)

class Nets(nn.Cell):
    def __init__(self):
        super(Nets, self).__init__()
        self.blocks = nn.CellList()
        for _ in range(3):
            b = OuterBlock()
            b.offload()
            self.blocks.append(b)
    def construct(self, x):
        out = x
        for i in range(3):
            out = self.blocks[i](out)
        return out
# test:
nets = Nets()
print(len(nets.blocks), [p.name for p in nets.trainable_params()])
""",
}

EXAMPLES["002_param_prefix"] = {
    "mode": "doctest",
    "code": _DENSE_NET
    + """\
net.update_cell_prefix()
print(net.dense.param_prefix)
""",
}

# The lines after "# test:" check the list the seed builds (test-only addition).
EXAMPLES["002_parameters_and_names"] = {
    "mode": "doctest",
    "code": """
from cellax import nn
n = nn.Dense(3, 4)
names = []
for m in n.parameters_and_names():
    if m[0]:
        names.append(m[0])
# test:
print(names)
""",
}

EXAMPLES["002_parameters_dict"] = {
    "mode": "doctest",
    "code": _DENSE_NET.replace(
        "from cellax import Tensor, nn", "from cellax import Tensor, nn, Parameter"
    )
    + """\
print(net.parameters_dict())
""",
}

EXAMPLES["002_place"] = {
    "mode": "doctest",
    "code": """
from cellax import context
import cellax.nn as nn
context.set_context(mode=context.GRAPH_MODE)
fc = nn.Dense(2, 3)
fc.place('MS_WORKER', 0)
""",
}

EXAMPLES["002_register_backward_hook"] = {
    "mode": "doctest",
    "code": """
import numpy as np
import cellax as ms
from cellax import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)
def backward_hook_fn(cell, grad_input, grad_output):
    print("backward input: ", grad_output)
    print("backward output: ", grad_input)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_backward_hook(backward_hook_fn)

    def construct(self, x):
        x = x + x
        x = self.relu(x)
        return x
grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
print(output)
""",
}

EXAMPLES["002_register_backward_pre_hook"] = {
    "mode": "doctest",
    "code": """
import numpy as np
import cellax as ms
from cellax import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)
def backward_pre_hook_fn(cell, grad_output):
    print("backward input: ", grad_output)

class Net(nn.Cell):
    def __init__(self):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.handle = self.relu.register_backward_pre_hook(backward_pre_hook_fn)

    def construct(self, x):
        x = x + x
        x = self.relu(x)
        return x
grad = ops.GradOperation(get_all=True)
net = Net()
output = grad(net)(Tensor(np.ones([1]).astype(np.float32)))
print(output)
""",
}

# The seed calls ``net.register_buffer(mindspore.tensor("buffer0", [4, 5, 6]))`` (arguments
# swapped into ``tensor``) and its ``construct`` reads an undefined ``self.net_buffer``; nearest
# working version registers ``("buffer0", tensor([4, 5, 6]))`` (which replaces the buffer) and
# the construct reads ``self.buffer0``.
EXAMPLES["002_register_buffer"] = {
    "mode": "doctest",
    "code": """
import cellax

class Net(cellax.nn.Cell):
    def __init__(self):
        super().__init__()
        self.register_buffer("buffer0", cellax.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer0

net = Net()
print(net.buffer0)
net.register_buffer("buffer0", cellax.tensor([4, 5, 6]))
print(net.buffer0)
""",
}

_MATMUL_HOOK_NET = """
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

EXAMPLES["002_register_forward_hook"] = {
    "mode": "doctest",
    "code": """
import numpy as np
import cellax as ms
from cellax import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)
def forward_hook_fn(cell, inputs, output):
    print("forward inputs: ", inputs)
    print("forward output: ", output)
"""
    + _MATMUL_HOOK_NET.replace("REGISTER", "register_forward_hook").replace(
        "HOOK", "forward_hook_fn"
    ),
}

EXAMPLES["002_register_forward_pre_hook"] = {
    "mode": "doctest",
    "code": """
import numpy as np
import cellax as ms
from cellax import Tensor, nn, ops
ms.set_context(mode=ms.PYNATIVE_MODE)
def forward_pre_hook_fn(cell, inputs):
    print("forward inputs: ", inputs)
"""
    + _MATMUL_HOOK_NET.replace("REGISTER", "register_forward_pre_hook").replace(
        "HOOK", "forward_pre_hook_fn"
    ),
}

EXAMPLES["002_register_state_dict_pre_hook"] = {
    "mode": "doctest",
    "code": """
import cellax

class NetA(cellax.nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_a = cellax.nn.Buffer(cellax.tensor([1, 2, 3]))
        self.param_a = cellax.Parameter(cellax.tensor([1, 2, 3]))

    def construct(self, x):
        return x + self.buffer_a + self.param_a

def _add_extra_param(cell, prefix, keep_vars):
    cell._params["extra_param"] = cellax.Parameter(cellax.tensor([4, 5, 6]))

net = NetA()
handle = net.register_state_dict_pre_hook(_add_extra_param)
net_state_dict = net.state_dict()
handle.remove()
print("extra_param" in net_state_dict)
""",
}

EXAMPLES["002_set_data_parallel"] = {
    "mode": "doctest",
    "code": """
import cellax.nn as nn
net = nn.Dense(3, 4)
net.set_data_parallel()
""",
}

# The lines after "# test:" check the outputs' shapes (test-only addition).
EXAMPLES["002_set_inputs"] = {
    "mode": "doctest",
    "code": _RELU_NET
    + """\
input = Tensor(np.random.random([3, 10]), dtype=ms.float32)
output = net(input)

net2 = ReluNet()
net2.set_inputs(x=input_dyn)
output = net2(input)
# test:
print(output.shape, bool((output.asnumpy() == np.maximum(input.asnumpy(), 0)).all()))
""",
}

EXAMPLES["002_set_jit_config"] = {
    "mode": "doctest",
    "code": _FLAGS_NET
    + """\
jitconfig = ms.JitConfig()
net.set_jit_config(jitconfig)
""",
}

# The seed's Block/example never call ``super().__init__()``, use the nonexistent ``nn.Dense2``
# and use the return value of ``Cell.shard`` (None in MindSpore 2.10, whose own docstring now
# calls ``self.block2.shard(...)`` and runs ``self.block2``); as written it only defines the
# classes. Nearest working version: ``super().__init__()``, ``nn.Dense``, shard called for its
# effect, and ``example`` instantiated and run (test-only addition after "# test:").
EXAMPLES["002_shard"] = {
    "mode": "doctest",
    "code": """
import cellax
import cellax.nn as nn

class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense1 = nn.Dense(10, 10)
        self.relu = nn.ReLU()
        self.dense2 = nn.Dense(10, 10)
    def construct(self, x):
        x = self.relu(self.dense2(self.relu(self.dense1(x))))
        return x

class example(nn.Cell):
    def __init__(self):
        super().__init__()
        self.block1 = Block()
        self.block2 = Block()
        self.block2.shard(in_strategy=((2, 1),),
                          parameter_plan={'self.block2.shard.dense1.weight': (4, 1)})
    def construct(self, x):
        x = self.block1(x)
        x = self.block2(x)
        return x
# test:
net = example()
print(net(cellax.ops.ones((2, 10), cellax.float32)).shape)
""",
}

EXAMPLES["002_state_dict"] = {"mode": "doctest", "code": _MODEL_STATE}

EXAMPLES["002_to_float"] = {
    "mode": "doctest",
    "code": """
import cellax.nn as nn
from cellax import dtype as mstype

net = nn.Conv2d(120, 240, 4, has_bias=False, weight_init='normal')
net.to_float(mstype.float16)
""",
}

# =============================================================================================
# Seed 004 (two notebooks: network building, and functional autodiff)
# =============================================================================================

EXAMPLES["004_network_print"] = {
    "code": """
import cellax
from cellax import nn, ops

class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28*28, 512, weight_init="normal", bias_init="zeros"),
            nn.ReLU(),
            nn.Dense(512, 512, weight_init="normal", bias_init="zeros"),
            nn.ReLU(),
            nn.Dense(512, 10, weight_init="normal", bias_init="zeros")
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits

model = Network()
print(model)
"""
}

EXAMPLES["004_logits"] = {
    "needs": ["004_network_print"],
    "mode": "notebook",
    "code": """
X = ops.ones((1, 28, 28), cellax.float32)
logits = model(X)
# print logits
logits
""",
}

EXAMPLES["004_predicted_class"] = {
    "needs": ["004_network_print", "004_logits"],
    "code": """
pred_probab = nn.Softmax(axis=1)(logits)
y_pred = pred_probab.argmax(1)
print(f"Predicted class: {y_pred}")
""",
}

EXAMPLES["004_input_image"] = {
    "needs": ["004_network_print"],
    "code": """
input_image = ops.ones((3, 28, 28), cellax.float32)
print(input_image.shape)
""",
}

EXAMPLES["004_flatten"] = {
    "needs": ["004_network_print", "004_input_image"],
    "code": """
flatten = nn.Flatten()
flat_image = flatten(input_image)
print(flat_image.shape)
""",
}

EXAMPLES["004_dense"] = {
    "needs": ["004_network_print", "004_input_image", "004_flatten"],
    "code": """
layer1 = nn.Dense(in_channels=28*28, out_channels=20)
hidden1 = layer1(flat_image)
print(hidden1.shape)
""",
}

EXAMPLES["004_relu"] = {
    "needs": ["004_network_print", "004_input_image", "004_flatten", "004_dense"],
    "code": """
print(f"Before ReLU: {hidden1}\\n\\n")
hidden1 = nn.ReLU()(hidden1)
print(f"After ReLU: {hidden1}")
""",
}

EXAMPLES["004_sequential"] = {
    "needs": ["004_network_print", "004_input_image", "004_flatten", "004_dense"],
    "code": """
seq_modules = nn.SequentialCell(
    flatten,
    layer1,
    nn.ReLU(),
    nn.Dense(20, 10)
)

logits = seq_modules(input_image)
print(logits.shape)
""",
}

# The seed prints nothing here; the line after "# test:" checks the rows sum to 1 (test-only).
EXAMPLES["004_softmax"] = {
    "needs": ["004_network_print", "004_input_image", "004_flatten", "004_dense", "004_sequential"],
    "code": """
softmax = nn.Softmax(axis=1)
pred_probab = softmax(logits)
# test:
print(pred_probab.shape, np.allclose(pred_probab.asnumpy().sum(axis=1), 1.0))
""".replace("# test:\n", "# test:\nimport numpy as np\n"),
}

EXAMPLES["004_model_parameters"] = {
    "needs": ["004_network_print"],
    "code": """
print(f"Model structure: {model}\\n\\n")

for name, param in model.parameters_and_names():
    print(f"Layer: {name}\\nSize: {param.shape}\\nValues : {param[:2]} \\n")
""",
}

# w and b come from np.random.randn; the two set_data lines after "# test:" (test-only) make
# z = x @ w + b the z the seed prints ([-0.3650626 2.1383815 -0.45075506]), so that every
# printed loss / gradient below is the seed's own (the seed's loss 1.0899742 is mean(softplus(z))).
EXAMPLES["004_autodiff_setup"] = {
    "code": """
import numpy as np
import cellax
from cellax import nn
from cellax import ops
from cellax import Tensor, Parameter

x = ops.ones(5, cellax.float32)  # input tensor
y = ops.zeros(3, cellax.float32)  # expected output
w = Parameter(Tensor(np.random.randn(5, 3), cellax.float32), name='w') # weight
b = Parameter(Tensor(np.random.randn(3,), cellax.float32), name='b') # bias
# test:
w.set_data(Tensor(np.zeros((5, 3)), cellax.float32))
b.set_data(Tensor(np.array([-0.3650626, 2.1383815, -0.45075506]), cellax.float32))

def function(x, y, w, b):
    z = ops.matmul(x, w) + b
    loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
    return loss

def function_with_logits(x, y, w, b):
    z = ops.matmul(x, w) + b
    loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
    return loss, z
"""
}

EXAMPLES["004_loss"] = {
    "needs": ["004_autodiff_setup"],
    "code": """
loss = function(x, y, w, b)
print(loss)
""",
}

EXAMPLES["004_grad"] = {
    "needs": ["004_autodiff_setup"],
    "code": """
grad_fn = cellax.grad(function, (2, 3))
grads = grad_fn(x, y, w, b)
print(grads)
""",
}

EXAMPLES["004_grad_with_logits"] = {
    "needs": ["004_autodiff_setup"],
    "code": """
grad_fn = cellax.grad(function_with_logits, (2, 3))
grads = grad_fn(x, y, w, b)
print(grads)
""",
}

EXAMPLES["004_stop_gradient"] = {
    "needs": ["004_autodiff_setup"],
    "code": """
def function_stop_gradient(x, y, w, b):
    z = ops.matmul(x, w) + b
    loss = ops.binary_cross_entropy_with_logits(z, y, ops.ones_like(z), ops.ones_like(z))
    return loss, ops.stop_gradient(z)

grad_fn = cellax.grad(function_stop_gradient, (2, 3))
grads = grad_fn(x, y, w, b)
print(grads)
""",
}

EXAMPLES["004_has_aux"] = {
    "needs": ["004_autodiff_setup"],
    "code": """
grad_fn = cellax.grad(function_with_logits, (2, 3), has_aux=True)
grads, (z,) = grad_fn(x, y, w, b)
print(grads, z)
""",
}

EXAMPLES["004_value_and_grad_cell"] = {
    "needs": ["004_autodiff_setup"],
    "code": """
# Define model
class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = w
        self.b = b

    def construct(self, x):
        z = ops.matmul(x, self.w) + self.b
        return z

# Instantiate model
model = Network()
# Instantiate loss function
loss_fn = nn.BCEWithLogitsLoss()

# Define forward function
def forward_fn(x, y):
    z = model(x)
    loss = loss_fn(z, y)
    return loss

grad_fn = cellax.value_and_grad(forward_fn, None, weights=model.trainable_params())
loss, grads = grad_fn(x, y)
print(grads)
""",
}


# =============================================================================================
# Runner (the recording script has its own copy, for MindSpore)
# =============================================================================================


def _exec_source(src, name, scope, mode):
    filename = f"<seed example {name}>"
    linecache.cache[filename] = (len(src), None, src.splitlines(True), filename)
    tree = ast.parse(src, filename)
    if mode == "exec":
        exec(compile(tree, filename, "exec"), scope)
        return
    body = tree.body
    for i, stmt in enumerate(body):
        echo = isinstance(stmt, ast.Expr) and (mode == "doctest" or i == len(body) - 1)
        if echo:
            code = compile(ast.Interactive([stmt]), filename, "single")
        else:
            code = compile(ast.Module([stmt], []), filename, "exec")
        exec(code, scope)


def run_example(name, capsys):
    """Run ``name`` (after its ``needs``) and return what it printed."""
    ex = EXAMPLES[name]
    scope = {"__name__": "__main__"}
    np.random.seed(0)
    with contextlib.redirect_stdout(io.StringIO()):
        for need in ex.get("needs", []):
            _exec_source(EXAMPLES[need]["code"], need, scope, EXAMPLES[need].get("mode", "exec"))
    capsys.readouterr()
    _exec_source(ex["code"], name, scope, ex.get("mode", "exec"))
    return capsys.readouterr().out


_CACHE = {}


def run_example_once(name, capsys):
    """``run_example`` shared by the two tests (tolerant / exact) of one slow example."""
    if name not in _CACHE:
        _CACHE[name] = run_example(name, capsys)
    return _CACHE[name]


GOLDEN = load_json("seed_examples.json")


# =============================================================================================
# Tests
# =============================================================================================

# Seed 003 is seed 000 as markdown: its six code blocks are the same six examples, character
# for character (and print the same), so the 000_* tests cover 003 too.

# Examples whose output is fully deterministic and equals what MindSpore 2.10 prints. Where the
# seed's text differs, MindSpore 2.10 (the golden) wins:
#   002_add_flags(_recursive)/get_flags: add_flags returns the Cell, so the doctest echoes
#     "Net(\n  (relu): ReLU()\n)"; get_flags prints {'sink_mode': True} (seed: {'sink_mode':True})
#   002_buffers/get_buffer/named_buffers: buffers print like numpy, [4 5 6] (seed: [4, 5, 6])
#   002_init_parameters_data/insert_param_to_cell: "shape=(2, 2)" and "Parameter (name=" (seed:
#     "shape=(2,2)", "Parameter(name=")
#   002_get_inputs: a 2-D placeholder Tensor prints "value=\n)" (seed: "value= )")
#   002_load_state_dict: the doctest echoes load_state_dict's "<All keys matched successfully>"
#   002_register_buffer: see its comment (the seed's own example is broken)
#   004_network_print: Cell reprs are "Network(\n  (flatten): Flatten()\n ..." (seed 2.2.14:
#     "Network<(flatten): Flatten<>...>")
#   001_parameters_and_names etc.: np.random.seed(0) values (the seed's run had other draws)
# MindSpore 2.10 has no nn.Buffer: the recording registers the same buffers with
# register_buffer (see record_seed_examples.py).
EXACT = [
    "000_functional_in_cell",
    "000_functional_standalone",
    "000_cell_auto_prefix",
    "000_trainable_params",
    "001_get_single_param",
    "001_trainable_params",
    "001_get_parameters_type",
    "001_parameters_and_names",
    "001_setitem",
    "001_set_data",
    "001_jit_assign",
    "001_parameter_tuple",
    "001_set_train_true",
    "001_set_train_false",
    "001_threshold",
    "001_bprop_dropout2d",
    "001_bprop_with_param",
    "001_hook_backward",
    "001_forward_pre_hook",
    "001_forward_pre_hook_new_data",
    "001_forward_hook",
    "002_cell",
    "002_add_flags",
    "002_add_flags_recursive",
    "002_apply",
    "002_buffers",
    "002_cells",
    "002_cells_and_names",
    "002_get_buffer",
    "002_get_flags",
    "002_get_inputs",
    "002_get_parameters",
    "002_get_sub_cell",
    "002_init_parameters_data",
    "002_insert_child_to_cell",
    "002_insert_param_to_cell",
    "002_load_state_dict",
    "002_name_cells",
    "002_named_buffers",
    "002_param_prefix",
    "002_parameters_and_names",
    "002_parameters_dict",
    "002_register_backward_hook",
    "002_register_backward_pre_hook",
    "002_register_buffer",
    "002_register_forward_hook",
    "002_register_forward_pre_hook",
    "002_register_state_dict_pre_hook",
    "002_set_inputs",
    "002_set_jit_config",
    "002_state_dict",
    "002_to_float",
    "004_network_print",
    "004_input_image",
    "004_flatten",
    "004_dense",
    "004_sequential",
    "004_softmax",
    "004_loss",
]

# Distributed requests: MindSpore 2.10 accepts them silently (single process); cellax records
# offload/place and warns that they have no effect (the warning is part of cellax's contract).
# shard and set_data_parallel take effect under SEMI_AUTO/AUTO_PARALLEL: silent, as in 2.10.
WARNS = {
    "002_offload": "Cell.offload",
    "002_place": "Cell.place",
}
EXACT += ["002_set_data_parallel", "002_shard"]


def _run_checked(name, capsys):
    if name in WARNS:
        with pytest.warns(UserWarning, match=f"For '{WARNS[name]}', .*has no effect in cellax"):
            return run_example(name, capsys)
    return run_example(name, capsys)


def test_every_example_has_a_golden_and_a_test():
    assert set(GOLDEN) == set(EXAMPLES)
    checked = set(EXACT) | set(SPECIAL) | {"001_network", "004_autodiff_setup"}
    assert checked == set(EXAMPLES)
    assert len(set(EXACT)) == len(EXACT)


@pytest.mark.parametrize("name", EXACT)
def test_example_prints_like_mindspore(name, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _run_checked(name, capsys) == GOLDEN[name]


SPECIAL = {}


def special(fn):
    SPECIAL[fn.__name__.replace("test_", "", 1)] = fn
    return fn


@special
def test_000_checkpoint(capsys, tmp_path, monkeypatch):
    # The weights come from the HeUniform initializer (random): the printed weight must be
    # the same before saving and after loading; the rest matches MindSpore exactly.
    monkeypatch.chdir(tmp_path)
    out = run_example("000_checkpoint", capsys)
    lines = out.splitlines()
    gold = GOLDEN["000_checkpoint"].splitlines()
    assert len(lines) == len(gold) == 7
    assert re.fullmatch(r"weight \[\[ ?(-?\d\.\d+) +(-?\d\.\d+) *\]\]", lines[0])
    assert re.fullmatch(r"bias \[ ?-?\d\.\d+\]", lines[1])
    assert lines[2] == gold[2]
    assert lines[3:5] == lines[0:2]
    assert lines[5:] == gold[5:] == ["weight [[1. 1.]]", "bias [1.]"]


_MODULE_PATHS = {
    "cellax.nn._conv.": "cellax.nn.layer.conv.",
    "cellax.nn._container.": "cellax.nn.layer.container.",
    "cellax.nn._activation.": "cellax.nn.layer.activation.",
}


@special
def test_000_submodules(capsys):
    # MindSpore's classes live in mindspore.nn.layer.<family>; cellax's in cellax.nn._<family>.
    # Same text once the module path is mapped (the exact path: next test).
    out = run_example_once("000_submodules", capsys)
    for ours, theirs in _MODULE_PATHS.items():
        out = out.replace(ours, theirs)
    assert out == GOLDEN["000_submodules"].replace("mindspore.", "cellax.")


def test_000_submodules_module_paths(capsys):
    # built-in Cells print under MindSpore's module paths (cellax/nn/_aliases.py)
    out = run_example_once("000_submodules", capsys)
    assert out == GOLDEN["000_submodules"].replace("mindspore.", "cellax.")


@special
def test_001_all_hooks(capsys):
    # Seed 001 (and the hooks issue) define the backward hook as seeing only the Cell's own
    # gradients, not those of the Add added by the forward hook: grad output is 2, as the seed
    # prints. MindSpore 2.10 moved the boundary after the forward hooks and prints 1 there;
    # everything else is the oracle's text.
    oracle_line = "grad output:  (Tensor(shape=[1], dtype=Float32, value= [ 1.00000000e+00]),)"
    seed_line = "grad output:  (Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00]),)"
    assert oracle_line in GOLDEN["001_all_hooks"]
    expected = GOLDEN["001_all_hooks"].replace(oracle_line, seed_line)
    assert run_example("001_all_hooks", capsys) == expected


def _skeleton(text):
    return re.sub(r"-?\d+\.\d*(?:e[-+]\d+)?", "#", text)


@special
def test_001_backward_hook_conv_bn(capsys):
    # seed 001 prints the same text as MindSpore 2.10 except the last two Tensors, which 2.10
    # computes as 1.99999 (the seed's 2.2 printed 2.). The text is compared with the numbers
    # masked, the numbers to 1e-6 and never character for character: BatchNorm's inference scale
    # 1/sqrt(1 + 1e-5) under jit is correctly rounded on some CPUs and 1 ulp off on others (XLA CPU
    # picks its rsqrt by the vector ISA), so the last printed digit is not a property of cellax.
    out = run_example_once("001_backward_hook_conv_bn", capsys)
    assert _skeleton(out) == _skeleton(GOLDEN["001_backward_hook_conv_bn"])
    assert _numbers(out) == pytest.approx(_numbers(GOLDEN["001_backward_hook_conv_bn"]), rel=1e-6)


@special
@pytest.mark.xfail(
    strict=True,
    reason="Cell naming: MindSpore names the Parameters of a Cell "
    "appended to an EMPTY CellList '<index>.<path>' ('0.block.y': its container "
    "derives the prefix from the existing children's Parameter names, none here); "
    "cellax uses the list's own prefix ('blocks.0.block.y')",
)
def test_002_offload(capsys):
    assert _run_checked("002_offload", capsys) == GOLDEN["002_offload"]


@special
def test_002_place(capsys):
    # MindSpore 2.10 no longer has Cell.place (AttributeError); seed 002 documents it and
    # prints nothing: cellax follows the seed (records the request and warns).
    assert GOLDEN["002_place"].startswith("<raised AttributeError")
    assert _run_checked("002_place", capsys) == ""


# Seed 004's autodiff examples: with z fixed to the seed's printed z, cellax prints the seed's
# gradients character for character. MindSpore 2.10 on CPU differs in the last digits
# (1.36578366e-01 vs the seed's 1.36578202e-01: its sigmoid kernel); checked to 2e-6.


def _grads_text(vals):
    row = ",  ".join(vals)
    return (
        "(Tensor(shape=[5, 3], dtype=Float32, value=\n"
        + "[[ {r}],\n [ {r}],\n [ {r}],\n [ {r}],\n [ {r}]]".format(r=row)
        + "), Tensor(shape=[3], dtype=Float32, value= [ "
        + row
        + "]))"
    )


_SEED_GRADS = _grads_text(["1.36578202e-01", "2.98192739e-01", "1.29727095e-01"])
_SEED_GRADS_LOGITS = _grads_text(["1.13657820e+00", "1.29819274e+00", "1.12972713e+00"])


def _numbers(text):
    return [float(v) for v in re.findall(r"-?\d+\.\d*(?:e[-+]\d+)?", text)]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("004_grad", _SEED_GRADS + "\n"),
        ("004_stop_gradient", _SEED_GRADS + "\n"),
        ("004_value_and_grad_cell", _SEED_GRADS + "\n"),
        ("004_grad_with_logits", _SEED_GRADS_LOGITS + "\n"),
        ("004_has_aux", _SEED_GRADS + " [-0.3650626   2.1383815  -0.45075506]\n"),
    ],
)
def test_004_grads(name, expected, capsys):
    out = run_example(name, capsys)
    assert out == expected
    assert _numbers(out) == pytest.approx(_numbers(GOLDEN[name]), rel=2e-6)


for _n in [
    "004_grad",
    "004_stop_gradient",
    "004_value_and_grad_cell",
    "004_grad_with_logits",
    "004_has_aux",
]:
    SPECIAL[_n] = test_004_grads


@special
def test_004_logits(capsys):
    # random weights: MindSpore's repr of a [1, 10] Tensor shows 3 ... 3 per row (as the seed)
    out = run_example("004_logits", capsys)
    num = r"-?\d\.\d{8}e[-+]\d\d"
    assert re.fullmatch(
        r"Tensor\(shape=\[1, 10\], dtype=Float32, value=\n"
        rf"\[\[ ?{num}, +{num}, +{num} \.\.\. +{num}, +{num}, +{num}\]\]\)\n",
        out,
    )
    assert re.fullmatch(
        r"Tensor\(shape=\[1, 10\], dtype=Float32, value=\n"
        rf"\[\[ ?{num}, +{num}, +{num} \.\.\. +{num}, +{num}, +{num}\]\]\)\n",
        GOLDEN["004_logits"],
    )


@special
def test_004_predicted_class(capsys):
    # random weights: the class is argmax of the logits (one value in 0..9)
    out = run_example("004_predicted_class", capsys)
    assert re.fullmatch(r"Predicted class: \[\d\]\n", out)
    assert re.fullmatch(r"Predicted class: \[\d\]\n", GOLDEN["004_predicted_class"])


@special
def test_004_relu(capsys):
    # random Dense weights: the three rows (ones input) are identical and After = max(Before, 0)
    out = run_example("004_relu", capsys)
    before, after = out.split("\n\n\n")
    assert before.startswith("Before ReLU: [[") and after.startswith("After ReLU: [[")
    b = np.array(_numbers(before), np.float32).reshape(3, 20)
    a = np.array(_numbers(after), np.float32).reshape(3, 20)
    np.testing.assert_array_equal(a, np.maximum(b, 0))
    assert (b == b[0]).all()
    # numpy's layout, like MindSpore's: 6 per line for this width, continuation indent 2
    assert before.splitlines()[1].startswith("  -") or before.splitlines()[1].startswith("   ")


@special
def test_004_model_parameters(capsys):
    # random "normal" weights (sigma 0.01); the structure, names, sizes and zero biases match
    out = run_example("004_model_parameters", capsys)
    gold = GOLDEN["004_model_parameters"]
    head = gold.split("Layer: ")[0]
    assert out.startswith(head)
    layers = out.split("Layer: ")[1:]
    gold_layers = gold.split("Layer: ")[1:]
    assert len(layers) == len(gold_layers) == 6
    for ours, theirs in zip(layers, gold_layers):
        assert ours.splitlines()[:2] == theirs.splitlines()[:2]
        if ".bias" in ours.splitlines()[0]:
            assert (
                ours
                == theirs
                == ours.splitlines()[0] + "\n" + ours.splitlines()[1] + "\nValues : [0. 0.] \n\n"
            )
        else:
            assert ours.splitlines()[2].startswith("Values : [[")
            assert " ... " in ours
            vals = _numbers(ours.split("Values : ")[1])
            assert len(vals) == 12 and max(abs(v) for v in vals) < 0.1
