"""MindSpore's ``mindspore.ops.operations.other_ops``: state, ordering and gradient-cut Primitives.

Example:
    >>> import numpy as np
    >>> from mindjax.ops import operations as P
    >>> P.Depend()(np.ones(2), np.zeros(2)).tolist()
    [1.0, 1.0]
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax.ops.operations._base import Primitive, record as record_attrs
# Existing Primitives of this family, re-exported under MindSpore's module path.
from mindjax.ops.primitives import Assign, Depend, StopGradient  # noqa: F401


class UpdateState(Primitive):
    """MindSpore's side-effect ordering token: returns its first input (JAX orders by data dependence).
    Call: ``UpdateState()(monad, *exprs)``."""

    _strategy_inputs = None

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, monad: Any, *exprs: Any) -> Any:
        return monad


class MoveTo(Primitive):
    """Place a tensor on a device kind. Call: ``MoveTo()(x, to, blocking)``."""

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, x: Any, to: str = "CPU", blocking: bool = True) -> jax.Array:
        from mindjax.ops.function.other_func import move_to

        return move_to(x, to, blocking)


# --- box utilities ------------------------------------------------------------------------------------

class IOU(Primitive):
    """Intersection over union (``'iou'``) or over the ground truth's area (``'iof'``) of every box pair.

    Arguments:
        mode: ``'iou'`` (default) or ``'iof'``.

    Call: ``IOU()(anchor_boxes, gt_boxes)`` -> ``(M, N)`` for ``N`` anchors and ``M`` ground-truth boxes.
    """

    _strategy_inputs = 2

    def __init__(self, mode: str = "iou") -> None:
        super().__init__()
        if mode not in ("iou", "iof"):
            raise KeyError(f"For '{self.name}', 'mode' must be 'iou' or 'iof', but got {mode!r}.")
        record_attrs(self, mode=mode)

    def __call__(self, anchor_boxes: Any, gt_boxes: Any) -> jax.Array:
        from mindjax.ops.function.math_func import iou

        return iou(anchor_boxes, gt_boxes, self.mode)


class BoundingBoxEncode(Primitive):
    """The deltas ``(dx, dy, dw, dh)`` from anchor boxes to ground-truth boxes, normalised by ``means``/``stds``.

    Call: ``BoundingBoxEncode(means, stds)(anchor_box, groundtruth_box)`` -> ``(N, 4)``.
    """

    _strategy_inputs = 2

    def __init__(self, means: Any = (0.0, 0.0, 0.0, 0.0), stds: Any = (1.0, 1.0, 1.0, 1.0)) -> None:
        super().__init__()
        record_attrs(self, means=_four_floats(self.name, "means", means), stds=_four_floats(self.name, "stds", stds))

    def __call__(self, anchor_box: Any, groundtruth_box: Any) -> jax.Array:
        from mindjax.ops.function.image_func import bounding_box_encode

        return bounding_box_encode(anchor_box, groundtruth_box, self.means, self.stds)


class BoundingBoxDecode(Primitive):
    """Boxes from anchor boxes and deltas (de-normalised by ``means``/``stds``), clipped to ``max_shape``.

    Arguments:
        max_shape: ``(height, width)``. means, stds: 4 floats. wh_ratio_clip: Default: ``0.016``.

    Call: ``BoundingBoxDecode(max_shape)(anchor_box, deltas)`` -> ``(N, 4)``.
    """

    _strategy_inputs = 2

    def __init__(self, max_shape: Any, means: Any = (0.0, 0.0, 0.0, 0.0), stds: Any = (1.0, 1.0, 1.0, 1.0),
                 wh_ratio_clip: float = 0.016) -> None:
        super().__init__()
        if not isinstance(max_shape, (tuple, list)) or len(max_shape) != 2:
            raise ValueError(f"For '{self.name}', 'max_shape' must be a pair (height, width), but got {max_shape!r}.")
        record_attrs(self, max_shape=tuple(max_shape), means=_four_floats(self.name, "means", means),
                     stds=_four_floats(self.name, "stds", stds), wh_ratio_clip=float(wh_ratio_clip))

    def __call__(self, anchor_box: Any, deltas: Any) -> jax.Array:
        from mindjax.ops.function.image_func import bounding_box_decode

        return bounding_box_decode(anchor_box, deltas, self.max_shape, self.means, self.stds, self.wh_ratio_clip)


class CheckValid(Primitive):
    """Whether each box lies inside the image of ``img_metas = (height, width, ratio)``.
    Call: ``CheckValid()(bboxes, img_metas)`` -> bool ``(N,)``."""

    _strategy_inputs = 2

    def __init__(self) -> None:
        super().__init__()

    def __call__(self, bboxes: Any, img_metas: Any) -> jax.Array:
        from mindjax.ops.function.image_func import check_valid

        return check_valid(bboxes, img_metas)


def _four_floats(prim: str, name: str, value: Any) -> tuple[float, ...]:
    if not isinstance(value, (tuple, list)) or len(value) != 4:
        raise ValueError(f"For '{prim}', '{name}' must be a tuple of 4 floats, but got {value!r}.")
    return tuple(float(v) for v in value)
