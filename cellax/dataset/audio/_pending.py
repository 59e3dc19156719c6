"""MindSpore 2.10 audio transforms that cellax does not compute yet: they construct (so
pipelines and modules that name them build) and raise ``NotImplementedError`` when applied."""

from __future__ import annotations

from ._base import AudioTransform

_NAMES = (
    "DetectPitchFrequency Dither Flanger GriffinLim InverseMelScale InverseSpectrogram "
    "PhaseVocoder Phaser PitchShift TimeStretch Vad"
).split()

__all__ = list(_NAMES)


def _pending(name: str) -> type:
    def __init__(self, *args, **kwargs):
        self.args, self.kwargs = args, kwargs

    def _apply(self, *inputs):
        raise NotImplementedError(
            f"For '{name}', cellax.dataset.audio does not implement this MindSpore transform yet. "
            "Compute it with NumPy in a function passed to Dataset.map, or use torchaudio/librosa."
        )

    doc = (
        f"MindSpore's ``mindspore.dataset.audio.{name}``: constructs, and raises "
        "``NotImplementedError`` when applied (not implemented in cellax yet).\n\n"
        f"MindSpore: https://www.mindspore.cn/docs/en/master/api_python/dataset_audio/mindspore.dataset.audio.{name}.html\n"
    )
    namespace = {"__init__": __init__, "_apply": _apply, "__doc__": doc, "__module__": __name__}
    cls = type(name, (AudioTransform,), namespace)
    cls._cellax_unavailable = True
    return cls


for _name in _NAMES:
    globals()[_name] = _pending(_name)
del _name
