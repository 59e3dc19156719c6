"""MindSpore's module paths for the nn classes (``cellax.nn.layer.conv.Conv2d`` ...).

``type(cell)`` prints like MindSpore's (``<class 'cellax.nn.layer.conv.Conv2d'>`` for
``<class 'mindspore.nn.layer.conv.Conv2d'>``, through the Cell metaclass) and those paths
import. The classes keep their real ``__module__`` (doctest discovery and pickling use it).
The alias modules are registered once, when ``cellax.nn`` is imported.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
import types

# MindSpore 2.10's module of each public nn class (module suffix -> class names).
_MINDSPORE_MODULES = {
    "cell": "Cell GraphCell",
    "grad.cell_grad": "Jvp Vjp",
    "layer.activation": (
        "CELU ELU FastGelu GELU GLU HShrink HSigmoid HSwish Hardtanh LRN LeakyReLU "
        "LogSigmoid LogSoftmax LogSoftmaxExt Mish PReLU PReLUExt RReLU ReLU ReLU6 SeLU "
        "SiLU Sigmoid SoftShrink Softmax Softmax2d Softmin Softsign Tanh Tanhshrink "
        "Threshold"
    ),
    "layer.basic": (
        "ClipByNorm Dense Dropout Dropout1d Dropout2d Dropout2dExt Dropout3d DropoutExt "
        "Flatten Identity L1Regularizer Linear MatrixDiag MatrixDiagPart MatrixSetDiag "
        "Norm OneHot Pad Roll Tril Triu Unflatten Unfold Upsample"
    ),
    "layer.channel_shuffle": "ChannelShuffle",
    "layer.combined": "Conv2dBnAct DenseBnAct",
    "layer.container": "CellDict CellList SequentialCell",
    "layer.conv": "Conv1d Conv1dTranspose Conv2d Conv2dTranspose Conv3d Conv3dTranspose",
    "layer.dense": "BiDense",
    "layer.embedding": "Embedding EmbeddingExt EmbeddingLookup MultiFieldEmbeddingLookup",
    "layer.image": "CentralCrop ImageGradients MSSSIM PSNR PixelShuffle PixelUnshuffle SSIM",
    "layer.math": (
        "DiGamma IGamma LBeta LGamma MatDet MatInverse MatMul Moments Range ReduceLogSumExp"
    ),
    "layer.normalization": (
        "BatchNorm1d BatchNorm2d BatchNorm3d GroupNorm InstanceNorm1d InstanceNorm2d "
        "InstanceNorm3d LayerNorm LayerNormExt SyncBatchNorm"
    ),
    "layer.padding": (
        "ConstantPad1d ConstantPad2d ConstantPad3d ReflectionPad1d ReflectionPad2d "
        "ReflectionPad3d ReplicationPad1d ReplicationPad2d ReplicationPad3d ZeroPad2d"
    ),
    "layer.pooling": (
        "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
        "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool1dExt AvgPool2d "
        "AvgPool2dExt AvgPool3d AvgPool3dExt FractionalMaxPool2d FractionalMaxPool3d "
        "LPPool1d LPPool2d MaxPool1d MaxPool2d MaxPool2dExt MaxPool3d MaxUnpool1d "
        "MaxUnpool2d MaxUnpool3d"
    ),
    "layer.rnn_cells": "GRUCell LSTMCell RNNCell RNNCellBase",
    "layer.rnns": "GRU LSTM RNN",
    "layer.thor_layer": "Conv2dThor DenseThor EmbeddingLookupThor EmbeddingThor",
    "layer.timedistributed": "TimeDistributed",
    "layer.transformer": (
        "MultiheadAttention Transformer TransformerDecoder TransformerDecoderLayer "
        "TransformerEncoder TransformerEncoderLayer"
    ),
    "learning_rate_schedule": (
        "LearningRateSchedule CosineDecayLR ExponentialDecayLR InverseDecayLR NaturalExpDecayLR "
        "PolynomialDecayLR WarmUpLR"
    ),
    "loss.loss": (
        "BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss DiceLoss "
        "FocalLoss GaussianNLLLoss HingeEmbeddingLoss HuberLoss KLDivLoss L1Loss "
        "L1LossExt LossBase MAELoss MSELoss MarginRankingLoss MultiClassDiceLoss "
        "MultiLabelSoftMarginLoss MultiMarginLoss MultilabelMarginLoss NLLLoss "
        "PoissonNLLLoss RMSELoss SampledSoftmaxLoss SmoothL1Loss SoftMarginLoss "
        "SoftmaxCrossEntropyWithLogits TripletMarginLoss TripletMarginWithDistanceLoss"
    ),
    "optim.ada_grad": "Adagrad",
    "optim.adadelta": "Adadelta",
    "optim.adafactor": "AdaFactor",
    "optim.adam": "Adam AdamOffload AdamWeightDecay",
    "optim.adamax": "AdaMax",
    "optim.adasum": "AdaSumByDeltaWeightWrapCell AdaSumByGradWrapCell",
    "optim.asgd": "ASGD",
    "optim.ftrl": "FTRL",
    "optim.lamb": "Lamb",
    "optim.lars": "LARS",
    "optim.lazyadam": "LazyAdam",
    "optim.momentum": "Momentum",
    "optim.optimizer": "Optimizer",
    "optim.proximal_ada_grad": "ProximalAdagrad",
    "optim.rmsprop": "RMSProp",
    "optim.rprop": "Rprop",
    "optim.sgd": "SGD",
    "optim.tft_wrapper": "OptTFTWrapper",
    "sparse.sparse": "SparseTensorDenseMatmul SparseToDense",
    "wrap.cell_wrapper": (
        "ForwardValueAndGrad GetNextSingleOp GradAccumulationCell MicroBatchInterleaved "
        "ParameterUpdate PipelineCell TrainOneStepCell VirtualDatasetCellTriple "
        "WithEvalCell WithGradCell WithLossCell"
    ),
    "wrap.grad_reducer": "DistributedGradReducer PipelineGradReducer",
    "wrap.loss_scale": (
        "DynamicLossScaleUpdateCell FixedLossScaleUpdateCell TrainOneStepWithLossScaleCell"
    ),
}


def register(namespace: dict, package: str) -> None:
    """Record every class of ``namespace`` listed above under its MindSpore module path and
    make those modules importable."""
    for suffix, names in _MINDSPORE_MODULES.items():
        module_name = f"{package}.{suffix}"
        module = sys.modules.get(module_name)
        for name in names.split():
            cls = namespace.get(name)
            if not isinstance(cls, type) or not cls.__module__.startswith("cellax."):
                continue
            if module is None:
                module = _module(module_name)
            setattr(module, name, cls)
            type.__setattr__(cls, "_mindspore_path", f"{module_name}.{name}")
            if "." in suffix:  # nn.layer, nn.optim, nn.loss, nn.wrap export their children's
                setattr(sys.modules[module_name.rpartition(".")[0]], name, cls)
    for suffix, (source, names) in _HELPERS.items():
        module = sys.modules.get(f"{package}.{suffix}") or _module(f"{package}.{suffix}")
        for name in names.split():
            setattr(module, name, getattr(importlib.import_module(source, package), name))
    # ``__all__`` as MindSpore's: the public classes of the module (a package: and its
    # children's); tinyms re-exports ``nn.wrap.__all__``
    for name, module in list(sys.modules.items()):
        if name.startswith(package + ".") and module.__spec__ is not None:
            if module.__spec__.loader is None and "__all__" not in module.__dict__:
                module.__all__ = sorted(
                    key
                    for key, value in vars(module).items()
                    if isinstance(value, type) and not key.startswith("_")
                )


# Non-class helpers that real code imports from these modules: (cellax module, names).
_HELPERS = {
    "optim.optimizer": ("._optim._init_args", "opt_init_args_register"),
    "layer.activation": ("._activation", "get_activation"),
    "wrap.cell_wrapper": ("._pipeline", "_MicroBatch _VirtualDatasetCell"),
    "loss.loss": ("._loss", "_Loss"),
}


def _module(name: str) -> types.ModuleType:
    parent_name, _, child = name.rpartition(".")
    parent = sys.modules.get(parent_name) or _module(parent_name)
    module = types.ModuleType(name, f"MindSpore's path {name}; the classes live in cellax.nn.")
    # A spec and a package path make the alias importable like a file module (import hooks
    # and importlib.util.find_spec need them).
    module.__spec__ = importlib.machinery.ModuleSpec(name, None, is_package=True)
    module.__path__ = []
    sys.modules[name] = module
    setattr(parent, child, module)
    return module
