"""``cellax.dataset.audio``: audio transforms for ``Dataset.map`` (MindSpore's
``mindspore.dataset.audio``), on NumPy (and SciPy's ``lfilter``). Each transform is a callable
object, applied in a pipeline or eagerly to a NumPy array of shape <..., time> (waveforms),
<..., freq, time> (spectrograms) or <..., 2> (complex values as real/imaginary pairs).

Examples:
    >>> import numpy as np
    >>> from cellax.dataset import audio
    >>> wave = np.sin(np.arange(1600, dtype=np.float32) / 5)
    >>> audio.MelSpectrogram(sample_rate=16000, n_fft=256, n_mels=32)(wave).shape
    (32, 13)
"""

from . import transforms, utils
from ._effects import *  # noqa: F401,F403
from ._effects import __all__ as _effects_all
from ._filters import *  # noqa: F401,F403
from ._filters import __all__ as _filters_all
from ._pending import *  # noqa: F401,F403
from ._pending import __all__ as _pending_all
from ._spectral import *  # noqa: F401,F403
from ._spectral import __all__ as _spectral_all
from .utils import *  # noqa: F401,F403

__all__ = [
    "transforms",
    "utils",
    *_spectral_all,
    *_filters_all,
    *_effects_all,
    *_pending_all,
    *utils.__all__,
]
