"""``mindspore.experimental.optim.adamw``: ``AdamW`` (Adam with decoupled weight decay, PyTorch's semantics)."""
from __future__ import annotations

from typing import Any

from mindjax.experimental.optim.adam import Adam

__all__ = ["AdamW"]


class AdamW(Adam):
    """AdamW (MindSpore's ``experimental.optim.AdamW``): Adam whose weight decay scales the
    weights by ``1 - lr * weight_decay`` before the update instead of adding to the gradient.

    Arguments:
        as :class:`~mindjax.experimental.optim.Adam`; ``weight_decay`` defaults to 0.01.
    """

    _decoupled_decay = True

    def __init__(self, params: Any, lr: float = 1e-3, betas: tuple[float, float] = (0.9, 0.999),
                 eps: float = 1e-8, weight_decay: float = 1e-2, amsgrad: bool = False, *,
                 maximize: bool = False) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, maximize=maximize)
