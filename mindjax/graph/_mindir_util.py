"""``load_mindir``/``save_mindir``: MindSpore's MindIR model files, which MindJAX does not read or write.

MindIR is MindSpore's serialized graph (a protobuf ``ModelProto`` of its own IR).
MindJAX compiles with XLA and exports programs as StableHLO
(``ms.export(net, *inputs, file_name=..., file_format='STABLEHLO')``, read back
with ``ms.load``), as :func:`mindjax.export` says for ``file_format='MINDIR'``.
"""
from __future__ import annotations

from typing import Any

__all__ = ["load_mindir", "save_mindir"]

_INSTEAD = ("MindJAX compiles with XLA: export a network as StableHLO with "
            "ms.export(net, *inputs, file_name=..., file_format='STABLEHLO') and read it back with ms.load")


def load_mindir(file_name: str) -> Any:
    """MindSpore's MindIR reader: not supported (see the module).

    Raises:
        ValueError: always, naming the StableHLO export to use instead.
    """
    raise ValueError(f"For 'load_mindir', MINDIR ({file_name!r}) is not supported; {_INSTEAD}.")


def save_mindir(model: Any, file_name: str) -> None:
    """MindSpore's MindIR writer: not supported (see the module).

    Raises:
        ValueError: always, naming the StableHLO export to use instead.
    """
    raise ValueError(f"For 'save_mindir', MINDIR ({file_name!r}) is not supported; {_INSTEAD}.")
