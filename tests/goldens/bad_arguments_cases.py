"""Bad arguments of issue 38 whose MindSpore 2.10 exception types are recorded
(``record_bad_input.py bad_arguments`` -> bad_arguments.json) and compared with cellax's
(tests/test_bad_arguments.py): non-Tensor inputs, sizes that cannot be allocated, NumPy/JAX
errors that reached the user, and arguments that were silently accepted.

Each case is a Python expression evaluated with ``ms``, ``Tensor``, ``nn``, ``ops``, ``np`` and
the inputs of SETUP in scope; the same text runs under MindSpore and cellax. No case allocates
much memory in either (sizes beyond any machine fail before allocating).
"""

SETUP = """
x = Tensor(np.ones((2, 3), np.float32))
y = Tensor(np.ones((2, 3), np.float32))
x3 = Tensor(np.ones((2, 4, 4), np.float32))
x4 = Tensor(np.ones((1, 3, 2, 2), np.float32))
w4 = Tensor(np.ones((4, 3, 3, 3), np.float32))
labels = Tensor(np.array([0, 1], np.int32))
idx = Tensor(np.array([0], np.int32))
a3 = Tensor(np.ones((2, 3, 4), np.float32))
b3 = Tensor(np.ones((2, 4, 5), np.float32))
a6 = Tensor(np.ones((1, 1, 1, 2, 3, 4), np.float32))
v1 = Tensor(np.ones(3, np.float32))
bn = Tensor(np.ones((2, 3), np.float32))
c3 = Tensor(np.ones(3, np.float32))
c0 = Tensor(np.ones(0, np.float32))
"""

CASES = {
    # crashes and hangs before
    "linspace_huge": "ops.linspace(0.0, 1.0, 10**12)",
    "scatter_nd_huge": "ops.scatter_nd(idx.reshape(1, 1), Tensor(np.ones(1, np.float32)), (10**13,))",
    # a non-Tensor input
    "Dropout_None": "nn.Dropout(p=0.5)(None)",
    "pad_object": "ops.pad(object(), (1, 1))",
    "nll_loss_int": "ops.nll_loss(3, labels)",
    "LayerNorm_int": "nn.LayerNorm((4,))(3)",
    "Conv1d_int": "nn.Conv1d(3, 4, 3)(3)",
    "GRU_int": "nn.GRU(4, 8)(3)",
    "gather_int": "ops.gather(3, idx, 0)",
    "split_int": "ops.split(3, 2, 0)",
    "chunk_int": "ops.chunk(3, 2, 0)",
    "roll_int": "ops.roll(3, 1, 0)",
    "Dense_object": "nn.Dense(4, 3)(object())",
    "ReLU_None": "nn.ReLU()(None)",
    # constructor arguments
    "LayerNorm_huge": "nn.LayerNorm((10**6, 10**6))",
    "TransformerEncoderLayer_float_ffn": "nn.TransformerEncoderLayer(8, 2, 2.5)",
    "PReLU_huge": "nn.PReLU(channel=10**12)",
    # NumPy / JAX errors that reached the user
    "Tensor_bool_ambiguous": "bool(v1)",
    "Tensor_str_index": "x['a']",
    "grad_str_input": "ms.grad(lambda t: t)('abc')",
    "repeat_interleave_negative": "ops.repeat_interleave(x, -1, 0)",
    "BatchMatMul_extra_inputs": "ops.BatchMatMul()(a3, b3, 0, 0)",
    "batch_norm_empty_mean": "ops.batch_norm(bn, c0, c0, c3, c3)",
    # silently accepted before
    "zeros_float_size": "ops.zeros((2.5, 3))",
    "ones_float_size": "ops.ones((2.5, 3))",
    "full_float_size": "ops.full((2.5, 3), 1.5)",
    "tile_float_dims": "ops.tile(x, (2.5, 3))",
    "clamp_complex": "ops.clamp(x, 1j, 0.5)",
    "lerp_complex": "ops.lerp(x, y, 1j)",
    "leaky_relu_complex": "ops.leaky_relu(x, 1j)",
    "bmm_ranks": "ops.bmm(a6, a3)",
    "MatMul_1d": "ops.MatMul()(v1, v1)",
    "max_pool2d_3d": "ops.max_pool2d(x3, 2)",
    "avg_pool2d_3d": "ops.avg_pool2d(x3, 2)",
    "conv2d_kernel_too_large": "ops.conv2d(x4, w4)",
    "pad_negative_empties": "ops.pad(x, (-10, 0))",
    "narrow_negative_length": "ops.narrow(x, 1, 0, -1)",
    "roll_repeated_axis": "ops.roll(x, (1, 1), (0, 0))",
    "stack_nested": "ops.stack(((x, x), (x, x)))",
    "batch_norm_None_mean": "ops.batch_norm(bn, None, None, c3, c3)",
}
