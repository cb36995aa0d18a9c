"""``mindspore.nn.optim.tft_wrapper`` (implemented in :mod:`mindjax.cells.optim.tft_wrapper`)."""
from mindjax.cells.optim.tft_wrapper import OptTFTWrapper

__all__ = ["OptTFTWrapper"]
