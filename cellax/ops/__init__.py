"""cellax.ops: MindSpore's functional ops and primitive classes on JAX.

The implementation lives in ``ops/_impl/``, one module per concept (``ops/README.md`` says
where a new op goes); each defines ``__all__`` and this package re-exports them. The other
modules of ``cellax.ops`` are MindSpore's own import paths (``functional``, ``operations``,
``composite``, ``primitive``, ``function``, ``auto_generate``, ``communication``).

Differences from MindSpore: cellax's ops accept some arguments MindSpore 2.10 (CPU) refuses,
deliberately (the bad-argument campaign of ``tools/fuzz_bad_input_ops.py`` measures them):
integer and bool Tensors where MindSpore's CPU kernels take floats only (``ops.sin``,
``ops.log``, ``ops.sigmoid``, ``ops.log_softmax``, ``ops.elu``, ``ops.logit`` of an int32
Tensor compute in Float32, as on MindSpore's other devices; also ``ops.cross``,
``ops.nan_to_num``, Bool ``ops.diag``, ``ops.max`` and ``ops.min``) or have no kernel for the
dtype (Bool ``ops.amax``/``amin``/``argmin``/``sort``/``argsort``/``cummax``/``cummin``/
``std``/``var``, Int32 ``std``/``var``, Int32 and Bool ``ops.searchsorted``); ops MindSpore
2.10 CPU does not register at all (``mint.argmax``, ``cumsum``, ``sort``, ``topk``,
``index_select``, ``roll``, ``tril``, ``stack``, ``repeat_interleave``, ``arange``, ``full``,
``linspace``, ``mint.nn.functional.elu``, ``gelu``, ``hardtanh``, ``leaky_relu``,
``log_softmax``, ``ops.take``) compute; dtypes MindSpore refuses where the result is plain:
``ops.count_nonzero`` of a Bool Tensor (the number of True values), ``ops.logsumexp`` of an
Int32 Tensor (MindSpore takes Int64 and Bool; cellax computes in Float32), ``ops.histc`` of
Int64 and Float64 Tensors (MindSpore: Float16, Float32, Int32), Bool Tensors in
``ops.repeat_interleave``, ``ops.repeat_elements`` and ``Tensor.repeat_interleave`` (a
repeated mask; MindSpore takes numbers only), and BFloat16 wherever MindSpore's list of
float dtypes omits it (``ops.unfold``, ``ops.kl_div``, ``ops.multinomial``: JAX's training
dtype); Tensors of different dtypes, promoted as in ``ops.add``, where MindSpore requires one
dtype (``ops.matmul``, ``mint.matmul``, ``ops.mm``, ``ops.mv``, ``ops.inner``,
``ops.tensor_dot``, ``ops.addcmul``, ``ops.isclose``, and ``ops.concat``/``ops.cat``,
``ops.hstack``, ``ops.vstack``, ``ops.block_diag``, ``mint.cat`` and ``mint.stack``, whose
CPU Concat kernel refuses the mix: refusing would break mixed-precision code, float16 against
float32; ``ops.dense`` takes two float widths too; ``ops.stack`` and ``ops.kl_div`` refuse any
mix, as MindSpore does) and integer or bool inputs of ``ops.cosine_similarity``; Python
numbers among ``ops.stack``'s Tensors, and an int or a list as ``ops.randint``'s ``size``
(MindSpore: a tuple only); zero-size Tensors wherever the result is defined (``ops.argmax``,
``ops.einsum``, ``ops.max``, ``ops.tile``, ``ops.tril``, ``ops.diff``, ``ops.pad``, ``ops.prelu``, ``nn.LayerNorm`` of a ``(0, 3)`` Tensor
and ``mint.split`` of one return empty results where MindSpore CPU raises); counts of zero where
an empty result is defined (``ops.topk(x, 0)``, ``ops.randperm(0)``, ``ops.vander(x, 0)``,
``ops.repeat_elements(x, 0)``, ``ops.repeat_interleave(x, 0)``, ``ops.diff(x, 0)``), and
``ops.diff`` of any order ``n`` (MindSpore 2.10 CPU takes ``n=1`` only; beyond the axis length
the result is empty, as in NumPy); ``stride=None`` in the 1-D and 2-D pooling functions (the
kernel size, as in ``mint``); broadcasting where MindSpore requires equal shapes (``ops.where``
of a 0-D condition, ``ops.cosine_similarity`` and ``ops.binary_cross_entropy_with_logits``
weights that broadcast to the input's shape); a non-Bool condition of ``ops.where`` (true where
nonzero, as in NumPy; MindSpore's CPU kernel takes Bool only); and what MindSpore's API
documents but its CPU kernels refuse: ``ops.pdist`` of a batch ``(..., N, M)``, ``ops.prelu``
with a 0-D weight. A 0-D Tensor reduced over axis 0 or -1 (``ops.sum(s, 0)``, ``ops.argmax``,
``ops.squeeze``) is returned as it is, as in MindSpore; ops MindSpore refuses a 0-D input for
(``ops.flip``, ``ops.sort``, ``ops.cumsum``, ``ops.var`` with an axis) raise ValueError.
Where MindSpore 2.10 CPU reads memory outside its inputs, cellax raises or returns a defined
value: ``ops.cross`` of Tensors of different shapes (MindSpore returns arbitrary values or
crashes) and an empty ``on_value`` of ``ops.one_hot`` raise ValueError; ``ops.histc`` of an
empty Tensor counts zeros. Float sizes, complex or non-numeric scalars where real ones are
required, out-of-range or repeated axes, sizes no device can allocate and non-Tensor inputs of
the ops that need a Tensor raise MindSpore's exception types, naming the op. An alias's errors
name the function it is (``ops.cat`` reports as ``'concat'``, ``ops.clip`` as ``'clamp'``), as
MindSpore's name its primitive.
"""

from ._impl.primitive import Primitive as Primitive
from ._impl.primitive import PrimitiveWithInfer as PrimitiveWithInfer
from ._impl.primitive import prim_attr_register as prim_attr_register
from .._transforms import GradOperation as GradOperation

# elementwise math
from ._impl.ufuncs import *  # noqa: F403
from ._impl.elementwise import *  # noqa: F403
from ._impl.ufunc_primitives import *  # noqa: F403
from ._impl.special import *  # noqa: F403

# creating and rearranging arrays
from ._impl.creation import *  # noqa: F403
from ._impl.windows import *  # noqa: F403
from ._impl.shape import *  # noqa: F403
from ._impl.casting import *  # noqa: F403
from ._impl.queries import *  # noqa: F403
from ._impl.array_primitives import *  # noqa: F403
from ._impl.matrix_diag import *  # noqa: F403
from ._impl.rearrange import *  # noqa: F403
from ._impl.resample import *  # noqa: F403

# indexing
from ._impl.indexing import *  # noqa: F403
from ._impl.scatter import *  # noqa: F403
from ._impl.sorting import *  # noqa: F403
from ._impl.segment import *  # noqa: F403

# reductions
from ._impl.reductions import *  # noqa: F403
from ._impl.cumulative import *  # noqa: F403
from ._impl.statistics import *  # noqa: F403

# linear algebra and transforms
from ._impl.products import *  # noqa: F403
from ._impl.decompositions import *  # noqa: F403
from ._impl.norms import *  # noqa: F403
from ._impl.distances import *  # noqa: F403
from ._impl.fft import *  # noqa: F403

# neural-network functionals
from ._impl.activations import *  # noqa: F403
from ._impl.dropout import *  # noqa: F403
from ._impl.flash_attention import *  # noqa: F403
from ._impl.infer_attention import *  # noqa: F403
from ._impl.paged_attention import *  # noqa: F403
from ._impl.moe import *  # noqa: F403
from ._impl.convolution import *  # noqa: F403
from ._impl.pooling import *  # noqa: F403
from ._impl.unpooling import *  # noqa: F403
from ._impl.normalization import *  # noqa: F403
from ._impl.losses import *  # noqa: F403
from ._impl.ctc import *  # noqa: F403
from ._impl.margin_losses import *  # noqa: F403
from ._impl.boxes import *  # noqa: F403

# randomness, state, gradients, control flow, debugging
from ._impl.random import *  # noqa: F403
from ._impl.state import *  # noqa: F403
from ._impl.inplace import *  # noqa: F403
from ._impl.hook import *  # noqa: F403
from ._impl.loops import *  # noqa: F403
from ._impl.composite import *  # noqa: F403
from ._impl.debug import *  # noqa: F403
from ._impl.sharding import *  # noqa: F403
from ._impl.communication import *  # noqa: F403

# other names of MindSpore's list: aliases, and names with no counterpart on JAX
from ._impl.aliases import *  # noqa: F403
from ._impl.unavailable import *  # noqa: F403
from ._impl.custom_ops import *  # noqa: F403
from ._impl.ext_primitives import MoveTo as MoveTo
from ._impl.ext_primitives import StridedSlice as StridedSlice
from ._impl import tensor_methods as _tensor_methods  # noqa: F401 (registers Tensor methods)
from ._impl import tensor_method_forms as _tensor_method_forms  # noqa: F401
from ._impl import tensor_methods_runtime as _tensor_methods_runtime  # noqa: F401
from . import primitive as primitive  # noqa: E402
from .primitive import constexpr as constexpr
from .._tensor import Tensor as Tensor

# MindSpore's ops submodules, imported on first use (keeps ``import cellax`` fast).
_LAZY_SUBMODULES = (
    "functional",
    "operations",
    "composite",
    "function",
    "auto_generate",
    "communication",
    "_grad_experimental",
)


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
