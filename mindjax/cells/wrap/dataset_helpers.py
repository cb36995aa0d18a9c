"""``ParameterUpdate``, ``VirtualDatasetCellTriple`` and ``GetNextSingleOp`` (MindSpore's ``nn.wrap.cell_wrapper``)."""
from __future__ import annotations

from typing import Any

from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter
from mindjax.ops.functional import assign

__all__ = ["ParameterUpdate", "VirtualDatasetCellTriple", "GetNextSingleOp"]


class ParameterUpdate(Cell):
    """A Cell whose call writes its input into ``param`` (MindSpore's ``ParameterUpdate``).

    Arguments:
        param: the :class:`~mindjax.Parameter` to update.

    Inputs:
        x: a Tensor of the Parameter's shape (cast to its dtype).

    Outputs:
        ``x``.

    Raises:
        TypeError: ``param`` is not a Parameter.
    """

    def __init__(self, param: Parameter) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'ParameterUpdate', 'param' must be 'Parameter', but got {type(param)}.")
        self._param = param

    def construct(self, x: Any) -> Any:
        assign(self._param, x)
        return x


class VirtualDatasetCellTriple(Cell):
    """Pass three inputs to ``backbone`` unchanged (MindSpore's deprecated ``VirtualDatasetCellTriple``).

    In MindSpore it marks the three inputs as the dataset's for semi-auto parallel; here the
    parallel layer shards inputs by the dataset strategy without a marker Cell.

    Arguments:
        backbone: the Cell to call with ``(a, b, c)``.

    Raises:
        TypeError: ``backbone`` is not a Cell.
    """

    def __init__(self, backbone: Cell) -> None:
        super().__init__(auto_prefix=False)
        if not isinstance(backbone, Cell):
            raise TypeError(f"For 'VirtualDatasetCellTriple', 'backbone' must be a Cell, "
                            f"but got {type(backbone).__name__}.")
        self._backbone = backbone

    def construct(self, a: Any, b: Any, c: Any) -> Any:
        return self._backbone(a, b, c)


class GetNextSingleOp(Cell):
    """MindSpore's Cell that reads one batch from a device data queue (``ops.GetNext``).

    MindJAX has no device data queues: batches reach a compiled step as its arguments.
    Construction raises NotImplementedError naming what to use.

    Arguments:
        dataset_types: the column dtypes.
        dataset_shapes: the column shapes.
        queue_name: the queue's name.

    Raises:
        NotImplementedError: always.
    """

    def __init__(self, dataset_types: Any, dataset_shapes: Any, queue_name: str) -> None:
        raise NotImplementedError(
            "For 'GetNextSingleOp', MindJAX has no device data queue (ops.GetNext): iterate the dataset "
            "(dataset.create_tuple_iterator()) and pass each batch to the network, or use "
            "Model.train(..., dataset_sink_mode=True), which feeds batches to the compiled step itself.")
