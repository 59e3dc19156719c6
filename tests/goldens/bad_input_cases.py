"""Bad calls whose MindSpore 2.10 exception types are recorded (record_bad_input.py ->
bad_input.json) and compared with cellax's (tests/test_bad_input_goldens.py).

Each case is a Python expression evaluated with ``ms``, ``Tensor``, ``nn``, ``ops``, ``np`` and
the inputs of SETUP in scope; the same text runs under MindSpore and cellax.
"""

SETUP = """
x = Tensor(np.ones((2, 3), np.float32))
seq = Tensor(np.ones((2, 3, 4), np.float32))
empty = Tensor(np.ones((0, 3, 4), np.float32))
scalar = Tensor(np.float32(1.0))
"""

CASES = {
    # zero-size batches: MindSpore returns a result
    "flatten_zero_batch": "ops.flatten(empty)",
    "Flatten_zero_batch": "nn.Flatten()(empty)",
    "GroupNorm_zero_batch": "nn.GroupNorm(1, 3)(Tensor(np.ones((0, 3, 4, 4), np.float32)))",
    "reshape_zero_minus_one": "ops.reshape(Tensor(np.ones((0, 3), np.float32)), (0, -1))",
    # reshape sizes
    "reshape_size": "ops.reshape(x, (4,))",
    "reshape_minus_one_size": "ops.reshape(x, (4, -1))",
    "Tensor_reshape_size": "x.reshape(4)",
    # out-of-range indices, eagerly
    "gather_range": "ops.gather(x, Tensor([0, 5]), 0)",
    "gather_d_range": "ops.gather_d(x, 1, Tensor([[0, 9]] * 2))",
    "gather_nd_range": "ops.gather_nd(x, Tensor([[5, 0]]))",
    "index_select_range": "ops.index_select(x, 0, Tensor([0, 5]))",
    "tensor_scatter_update_range": (
        "ops.tensor_scatter_update(x, Tensor([[5]]), Tensor(np.ones((1, 3), np.float32)))"
    ),
    "Embedding_range": "nn.Embedding(3, 2)(Tensor([5]))",
    "getitem_tensor_range": "x[Tensor([0, 5])]",
    "getitem_list_range": "x[[0, 5]]",
    "getitem_int_range": "x[5]",
    "cross_entropy_target_range": "ops.cross_entropy(x, Tensor([0, 7]))",
    "nll_loss_target_range": "ops.nll_loss(x, Tensor([0, 7]))",
    # recurrent layers
    "GRU_int_input": "nn.GRU(4, 5)(Tensor(np.ones((2, 3, 4), np.int32)))",
    "LSTM_bool_input": "nn.LSTM(4, 5)(Tensor(np.ones((2, 3, 4), np.bool_)))",
    "RNN_int_input": "nn.RNN(4, 5)(Tensor(np.ones((2, 3, 4), np.int32)))",
    "GRU_too_many_inputs": "nn.GRU(4, 5)(seq, 1, 2, 3)",
    "LSTM_unknown_keyword": "nn.LSTM(4, 5)(seq, foo=1)",
    "GRUCell_hx_batch": "nn.GRUCell(4, 4)(Tensor(np.ones((0, 4), np.float32)), "
    "Tensor(np.ones((2, 4), np.float32)))",
    # layer inputs
    "Dense_None": "nn.Dense(4, 3)(None)",
    "Dense_str": "nn.Dense(4, 3)('abc')",
    "Dense_0d": "nn.Dense(4, 3)(scalar)",
    "Dense_too_many_inputs": "nn.Dense(3, 4)(x, x)",
    "Softmax_0d": "nn.Softmax()(scalar)",
    "GLU_0d": "nn.GLU()(scalar)",
    "AdaptiveAvgPool1d_1d": "nn.AdaptiveAvgPool1d(4)(Tensor(np.ones(3, np.float32)))",
    "AvgPool2d_bool": "nn.AvgPool2d()(Tensor(np.ones((2, 4, 4, 4), np.bool_)))",
    "MaxPool2d_bool": "nn.MaxPool2d()(Tensor(np.ones((2, 4, 4, 4), np.bool_)))",
    "OneHot_bool": "nn.OneHot(depth=4)(Tensor(np.ones((2, 4), np.bool_)))",
    "CrossEntropyLoss_0d": "nn.CrossEntropyLoss()(scalar, Tensor(np.array([0, 1], np.int32)))",
    # constructor arguments
    "ReLU_unknown_keyword": "nn.ReLU(foo=1)",
    "L1Loss_unknown_keyword": "nn.L1Loss(foo=1)",
    "BatchNorm2d_unknown_keyword": "nn.BatchNorm2d(3, foo=1)",
    "Dense_str_channels": "nn.Dense(3, 'a')",
    "Dense_missing_argument": "nn.Dense(3)",
    "Conv2d_None_channels": "nn.Conv2d(3, None, 3)",
    "Dropout_p_above_one": "nn.Dropout(p=1.5)",
    "Embedding_str_size": "nn.Embedding('a', 4)",
    # optimizers
    "Adam_unknown_keyword": "nn.Adam(nn.Dense(3, 2).trainable_params(), 0.1, no_such=1)",
    "SGD_ragged_learning_rate": "nn.SGD(nn.Dense(3, 2).trainable_params(), [[1, 2], [3]])",
    "Momentum_str_learning_rate": "nn.Momentum(nn.Dense(3, 2).trainable_params(), 'abc', 0.9)",
    "SGD_None_params": "nn.SGD(None, 0.1)",
    # primitives and functions
    "primitive_unknown_keyword": "ops.Add()(Tensor(1.0), Tensor(2.0), foo=1)",
    "pad_None": "ops.pad(None, (1, 1))",
    "max_pool2d_int": "ops.max_pool2d(3, 2)",
    "transpose_short_perm": "ops.transpose(x, (0,))",
    "matmul_shapes": "ops.matmul(x, x)",
    "softmax_axis": "ops.softmax(x, 5)",
    "argmax_axis": "ops.argmax(x, 5)",
    "concat_shapes": "ops.concat((x, Tensor(np.ones((3, 3), np.float32))), 1)",
    "add_str": "x + 'abc'",
    "Tensor_str": "Tensor('abc')",
    "Tensor_ragged": "Tensor([[1, 2], [3]])",
    "repeat_negative": "Tensor(np.ones(3, np.float32)).repeat(-1)",
}
