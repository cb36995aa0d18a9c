"""MindSpore's ``mindspore.ops.function.image_func``: box encoding, box validity and crop-and-resize.

Example:
    >>> import numpy as np
    >>> from mindjax import ops
    >>> boxes = np.array([[0.0, 0.0, 4.0, 4.0]], np.float32)
    >>> ops.bounding_box_encode(boxes, boxes).tolist()
    [[0.0, 0.0, 0.0, 0.0]]
"""
from __future__ import annotations

from typing import Any, Sequence

import jax
import jax.numpy as jnp

from mindjax.common.tensor import tensor_op
from mindjax.ops.function._build import _arr, _float, _named, check_number

__all__ = ["bounding_box_encode", "bounding_box_decode", "check_valid", "crop_and_resize"]


def _centres(boxes: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    # MindSpore's box ops measure widths inclusively (+1), as the Faster R-CNN code they come from.
    w = boxes[:, 2] - boxes[:, 0] + 1.0
    h = boxes[:, 3] - boxes[:, 1] + 1.0
    return boxes[:, 0] + 0.5 * (w - 1.0), boxes[:, 1] + 0.5 * (h - 1.0), w, h


@tensor_op
@_named("bounding_box_encode")
def bounding_box_encode(anchor_box: Any, groundtruth_box: Any, means: Sequence[float] = (0.0, 0.0, 0.0, 0.0),
                        stds: Sequence[float] = (1.0, 1.0, 1.0, 1.0)) -> jax.Array:
    """The ``(dx, dy, dw, dh)`` deltas taking each anchor box to its ground-truth box, normalised by
    ``means`` and ``stds``.

    Arguments:
        anchor_box, groundtruth_box: ``(N, 4)`` boxes ``(x1, y1, x2, y2)``.
        means, stds: four floats each.

    Returns:
        ``(N, 4)`` deltas.
    """
    a, g = _float(_arr(anchor_box)), _float(_arr(groundtruth_box))
    ax, ay, aw, ah = _centres(a)
    gx, gy, gw, gh = _centres(g)
    d = jnp.stack([(gx - ax) / aw, (gy - ay) / ah, jnp.log(gw / aw), jnp.log(gh / ah)], axis=1)
    return (d - jnp.asarray(means, d.dtype)) / jnp.asarray(stds, d.dtype)


@tensor_op
@_named("bounding_box_decode")
def bounding_box_decode(anchor_box: Any, deltas: Any, max_shape: Sequence[int],
                        means: Sequence[float] = (0.0, 0.0, 0.0, 0.0), stds: Sequence[float] = (1.0, 1.0, 1.0, 1.0),
                        wh_ratio_clip: float = 0.016) -> jax.Array:
    """Boxes from anchors and ``(dx, dy, dw, dh)`` deltas, clipped to the image ``max_shape = (h, w)``.

    Arguments:
        anchor_box: ``(N, 4)`` boxes.
        deltas: ``(N, 4)``.
        max_shape: the image height and width.
        means, stds: the normalisation used when encoding.
        wh_ratio_clip: bounds ``|dw|`` and ``|dh|`` by ``|log(wh_ratio_clip)|``.

    Returns:
        ``(N, 4)`` boxes ``(x1, y1, x2, y2)``.
    """
    a, d = _float(_arr(anchor_box)), _float(_arr(deltas))
    d = d * jnp.asarray(stds, d.dtype) + jnp.asarray(means, d.dtype)
    bound = abs(float(jnp.log(check_number("wh_ratio_clip", wh_ratio_clip))))
    dw, dh = jnp.clip(d[:, 2], -bound, bound), jnp.clip(d[:, 3], -bound, bound)
    ax, ay, aw, ah = _centres(a)
    cx, cy = ax + aw * d[:, 0], ay + ah * d[:, 1]
    w, h = aw * jnp.exp(dw), ah * jnp.exp(dh)
    x1 = cx - 0.5 * (w - 1.0)
    y1 = cy - 0.5 * (h - 1.0)
    x2 = cx + 0.5 * (w - 1.0)
    y2 = cy + 0.5 * (h - 1.0)
    hmax, wmax = float(max_shape[0]), float(max_shape[1])
    # MindSpore 2.10 clips to [0, width] and [0, height] (measured on its CPU kernel), not to width - 1.
    return jnp.stack([jnp.clip(x1, 0, wmax), jnp.clip(y1, 0, hmax), jnp.clip(x2, 0, wmax),
                      jnp.clip(y2, 0, hmax)], axis=1)


@tensor_op
@_named("check_valid")
def check_valid(bboxes: Any, img_metas: Any) -> jax.Array:
    """Whether each ``(x1, y1, x2, y2)`` box lies inside the image ``img_metas = (height, width, ratio)``."""
    b, m = _float(_arr(bboxes)), _float(_arr(img_metas))
    h, w = m[0] * m[2], m[1] * m[2]
    return (b[:, 0] >= 0) & (b[:, 1] >= 0) & (b[:, 2] <= w - 1) & (b[:, 3] <= h - 1)


@tensor_op
@_named("crop_and_resize")
def crop_and_resize(image: Any, boxes: Any, box_indices: Any, crop_size: Sequence[int], method: str = "bilinear",
                    extrapolation_value: float = 0.0) -> jax.Array:
    """Crop boxes out of an NHWC image batch and resize each to ``crop_size``.

    Arguments:
        image: ``(N, H, W, C)``.
        boxes: ``(B, 4)`` normalised ``(y1, x1, y2, x2)``; 0 and 1 are the first and last pixel centres.
        box_indices: ``(B,)`` which image each box comes from.
        crop_size: ``(crop_h, crop_w)``.
        method: ``'bilinear'`` or ``'nearest'``.
        extrapolation_value: the value sampled outside the image.

    Returns:
        ``(B, crop_h, crop_w, C)`` float32.
    """
    if method not in ("bilinear", "nearest", "bilinear_v2"):
        raise ValueError(f"'method' must be 'bilinear', 'nearest' or 'bilinear_v2', got {method!r}")
    img = _arr(image).astype(jnp.float32)
    bx = _float(_arr(boxes))
    idx = _arr(box_indices).astype(jnp.int32)
    _, h, w, _ = img.shape
    ch, cw = int(crop_size[0]), int(crop_size[1])

    def axis_coords(lo: jax.Array, hi: jax.Array, out: int, size: int) -> jax.Array:
        if out > 1:
            return lo * (size - 1) + jnp.arange(out) * (hi - lo) * (size - 1) / (out - 1)
        return jnp.full((1,), 0.5 * (lo + hi) * (size - 1))

    def one(box: jax.Array, i: jax.Array) -> jax.Array:
        ys = axis_coords(box[0], box[2], ch, h)
        xs = axis_coords(box[1], box[3], cw, w)
        src = img[i]
        inside = ((ys >= 0) & (ys <= h - 1))[:, None] & ((xs >= 0) & (xs <= w - 1))[None, :]
        if method == "nearest":
            yi = jnp.clip(jnp.round(ys), 0, h - 1).astype(jnp.int32)
            xi = jnp.clip(jnp.round(xs), 0, w - 1).astype(jnp.int32)
            vals = src[yi][:, xi]
        else:
            y0 = jnp.clip(jnp.floor(ys), 0, h - 1)
            x0 = jnp.clip(jnp.floor(xs), 0, w - 1)
            y1 = jnp.clip(y0 + 1, 0, h - 1)
            x1 = jnp.clip(x0 + 1, 0, w - 1)
            fy = (ys - y0)[:, None, None]
            fx = (xs - x0)[None, :, None]
            y0i, y1i, x0i, x1i = (v.astype(jnp.int32) for v in (y0, y1, x0, x1))
            top = src[y0i][:, x0i] * (1 - fx) + src[y0i][:, x1i] * fx
            bottom = src[y1i][:, x0i] * (1 - fx) + src[y1i][:, x1i] * fx
            vals = top * (1 - fy) + bottom * fy
        return jnp.where(inside[..., None], vals, extrapolation_value)

    return jax.vmap(one)(bx, idx)
