"""``mindspore.mint.optim``: the PyTorch-style optimizers (the same classes as ``mindjax.experimental.optim``)."""
from typing import Any

from mindjax.experimental.optim.adam import Adam
from mindjax.experimental.optim.adamw import AdamW
from mindjax.experimental.optim.sgd import SGD


class FusedAdamW(AdamW):
    """``mint.optim.FusedAdamW``: :class:`AdamW`'s update. MindSpore fuses it into one Ascend kernel; here XLA
    fuses the update of the compiled training step either way, so it is AdamW itself."""

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)


__all__ = ["AdamW", "Adam", "SGD", "FusedAdamW"]
