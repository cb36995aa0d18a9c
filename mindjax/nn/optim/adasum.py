"""``mindspore.nn.optim.adasum`` (implemented in :mod:`mindjax.cells.optim.adasum`)."""
from mindjax.cells.optim.adasum import AdaSumByDeltaWeightWrapCell, AdaSumByGradWrapCell

__all__ = ["AdaSumByGradWrapCell", "AdaSumByDeltaWeightWrapCell"]
