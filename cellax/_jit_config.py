"""JitConfig: MindSpore's compile options, recorded for ``Cell.set_jit_config``."""

from __future__ import annotations

__all__ = ["JitConfig"]

_CHOICES = {
    "jit_level": ("", "O0", "O1", "O2"),
    "exc_mode": ("auto", "sink", "no_sink"),
    "jit_syntax_level": ("", "STRICT", "COMPATIBLE", "LAX"),
    "debug_level": ("RELEASE", "DEBUG"),
    "infer_boost": ("", "on", "off"),
}


class JitConfig:
    """Compile options for a Cell or ``jit`` (``mindspore.JitConfig``).

    Args:
        jit_level (str): ``""``, ``"O0"``, ``"O1"`` or ``"O2"``. Default: ``""``.
        exc_mode (str): ``"auto"``, ``"sink"`` or ``"no_sink"``. Default: ``"auto"``.
        jit_syntax_level (str): ``""``, ``"STRICT"``, ``"COMPATIBLE"`` or ``"LAX"``.
            Default: ``""``.
        debug_level (str): ``"RELEASE"`` or ``"DEBUG"``. Default: ``"RELEASE"``.
        infer_boost (str): ``"on"`` or ``"off"``. Default: ``"off"``.
        **kwargs: Other options, kept in ``jit_config_dict``.

    Raises:
        ValueError: If an option is not one of its allowed values.

    Examples:
        >>> import cellax as ms
        >>> config = ms.JitConfig(jit_level="O1")
        >>> config.jit_config_dict["jit_level"]
        'O1'

    Differences from MindSpore: XLA chooses its own optimizations, so the options are validated
    and recorded (``Cell.set_jit_config`` keeps them) but do not change the compiled program.

    MindSpore API: https://www.mindspore.cn/docs/en/master/api_python/mindspore/mindspore.JitConfig.html
    """

    def __init__(
        self,
        jit_level: str = "",
        exc_mode: str = "auto",
        jit_syntax_level: str = "",
        debug_level: str = "RELEASE",
        infer_boost: str = "off",
        **kwargs,
    ) -> None:
        values = {
            "jit_level": jit_level,
            "exc_mode": exc_mode,
            "jit_syntax_level": jit_syntax_level,
            "debug_level": debug_level,
            "infer_boost": infer_boost,
        }
        for name, value in values.items():
            if value not in _CHOICES[name]:
                raise ValueError(
                    f"For 'JitConfig', '{name}' must be one of {list(_CHOICES[name])}, but got "
                    f"{value!r}."
                )
        self.jit_config_dict = dict(kwargs)
        self.jit_config_dict.update(values)
        if "backend" not in self.jit_config_dict and jit_level:
            self.jit_config_dict["backend"] = "GE" if jit_level == "O2" else "ms_backend"

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"
