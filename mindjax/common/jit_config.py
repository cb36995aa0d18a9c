"""``mindspore.common.jit_config``: ``JitConfig``, the options of one compiled Cell or function.

Example:
    >>> from mindjax.common.jit_config import JitConfig
    >>> JitConfig(jit_level="O1").jit_config_dict["jit_level"]
    'O1'
"""
from __future__ import annotations

from typing import Any

__all__ = ["JitConfig"]

_CHOICES = {
    "jit_level": ("", "O0", "O1", "O2"),
    "exc_mode": ("auto", "sink", "no_sink"),
    "jit_syntax_level": ("", "STRICT", "COMPATIBLE", "LAX"),
    "debug_level": ("RELEASE", "DEBUG"),
    "infer_boost": ("", "on", "off"),
}


class JitConfig:
    """Options for ``Cell.set_jit_config`` and ``ms.jit(jit_config=...)`` (MindSpore's ``JitConfig``).

    XLA compiles every program the same way, so the options are validated and recorded
    (``jit_config_dict``) but do not change the program.

    Arguments:
        jit_level: ``""``, ``"O0"``, ``"O1"`` or ``"O2"``.
        exc_mode: ``"auto"``, ``"sink"`` or ``"no_sink"``.
        jit_syntax_level: ``""``, ``"STRICT"``, ``"COMPATIBLE"`` or ``"LAX"``.
        debug_level: ``"RELEASE"`` or ``"DEBUG"``.
        infer_boost: ``""``, ``"on"`` or ``"off"``.
        kwargs: further options, recorded as given.

    Raises:
        ValueError: an option outside its choices.
    """

    def __init__(self, jit_level: str = "", exc_mode: str = "auto", jit_syntax_level: str = "",
                 debug_level: str = "RELEASE", infer_boost: str = "off", **kwargs: Any) -> None:
        given = {"jit_level": jit_level, "exc_mode": exc_mode, "jit_syntax_level": jit_syntax_level,
                 "debug_level": debug_level, "infer_boost": infer_boost}
        for key, value in given.items():
            if value not in _CHOICES[key]:
                raise ValueError(f"For 'JitConfig', '{key}' must be one of {list(_CHOICES[key])}, got {value!r}")
        kwargs.pop("suppress_infer_boost_warning", None)
        self.jit_config_dict: dict[str, Any] = dict(kwargs)
        self.jit_config_dict.update(given)
        if "backend" not in self.jit_config_dict:
            self.jit_config_dict["backend"] = "GE" if jit_level == "O2" else "ms_backend"

    def __repr__(self) -> str:
        return f"JitConfig({self.jit_config_dict})"
