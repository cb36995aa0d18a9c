"""``mindspore.tools``: ``set_dump``, and MindSpore's Ascend hardware checks.

MindSpore dumps the tensors of marked Cells and Primitives from its Ascend
runtime. MindJAX writes no such dumps: ``set_dump`` checks its arguments as
MindSpore does, sets the ``dump`` flag of the Cell and its sub-Cells
(``cell._flags``), and warns naming JAX's ways to see values and programs:
``jax.debug.print`` (or ``ops.Print``) inside the program, and
``XLA_FLAGS=--xla_dump_to=DIR`` for the compiled HLO. The silent-data-
corruption and stress detectors (``sdc_detect_*``, ``stress_detect``) test
Ascend chips and raise NotImplementedError.
"""
from __future__ import annotations

import warnings
from typing import Any

__all__ = ["stress_detect", "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result", "set_dump"]

_NO_DUMP = ("set_dump: MindJAX writes no tensor dumps; print values inside the program with jax.debug.print "
            "(or ops.Print), and dump the compiled XLA programs with XLA_FLAGS=--xla_dump_to=DIR")


def set_dump(target: Any, enabled: bool = True) -> None:
    """Mark a Cell (and its sub-Cells) or a Primitive for dumping (MindSpore's ``set_dump``; see the module).

    Arguments:
        target (Union[Cell, Primitive]): what to mark.
        enabled (bool): mark or unmark. Default: ``True``.

    Raises:
        ValueError: ``target`` is neither a Cell nor a Primitive, or ``enabled`` is not a bool
            (MindSpore's messages).
    """
    from mindjax.cells.cell import Cell  # tools sits above the Cells and ops
    from mindjax.ops.primitive import Primitive

    if not isinstance(target, (Cell, Primitive)):
        raise ValueError(f"The \"target\" parameter must be an instance of Cell or Primitive, but got an "
                         f"instance of {type(target)}.")
    if not isinstance(enabled, bool):
        raise ValueError("The \"enabled\" parameter must be bool.")
    warnings.warn(_NO_DUMP, UserWarning, stacklevel=2)
    if isinstance(target, Cell):
        target.add_flags_recursive(dump=enabled)
    else:
        target.add_prim_attr("dump", "true" if enabled else "false")


def _ascend_check(name: str) -> NotImplementedError:
    return NotImplementedError(f"'{name}' checks Ascend chips for silent data corruption or stress faults; it has "
                               f"no counterpart on XLA's CPU, GPU or TPU backends.")


def stress_detect(detect_type: str = "aic") -> int:
    """MindSpore's Ascend stress test: not available (raises NotImplementedError)."""
    raise _ascend_check("stress_detect")


def sdc_detect_start() -> None:
    """MindSpore's Ascend silent-data-corruption detector: not available (raises NotImplementedError)."""
    raise _ascend_check("sdc_detect_start")


def sdc_detect_stop() -> None:
    """MindSpore's Ascend silent-data-corruption detector: not available (raises NotImplementedError)."""
    raise _ascend_check("sdc_detect_stop")


def get_sdc_detect_result() -> Any:
    """MindSpore's Ascend silent-data-corruption detector: not available (raises NotImplementedError)."""
    raise _ascend_check("get_sdc_detect_result")
