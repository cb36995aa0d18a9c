"""``OcclusionSensitivity``: how much a classifier's score for the label drops when a patch is occluded.

For every position of the image (or of the bounding box ``b_box``), the patch of
``[pos - margin, pos + margin)`` (clipped to the image) is set to ``pad_val``, the model is
run on batches of ``n_batch`` occluded images, and ``eval`` gives ``baseline - score`` per
position (MindSpore's ``nn.OcclusionSensitivity``).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from mindjax.cells.cell import Cell
from mindjax.common.tensor import Tensor
from mindjax.train.metrics.metric import Metric, rearrange_inputs

__all__ = ["OcclusionSensitivity"]


def _check_type(value: Any, name: str, types: tuple[type, ...]) -> Any:
    if isinstance(value, bool) and bool not in types or not isinstance(value, types):
        names = [t.__name__ for t in types]
        shown = f"'{names[0]}'" if len(names) == 1 else f"one of '{names}'"
        raise TypeError(f"For 'OcclusionSensitivity', the type of '{name}' should be {shown}, "
                        f"but got type '{type(value).__name__}'.")
    return value


def _bounding_box(b_box: list[int] | None, im_shape: np.ndarray) -> tuple[Any, Any]:
    if b_box is None:
        return None, None
    if len(b_box) != 2 * len(im_shape):
        raise ValueError(f"For 'OcclusionSensitivity', the bounding box must contain upper and lower for all "
                         f"dimensions (except batch number), and the length of 'b_box' must be twice as long as "
                         f"predicted value's (except batch number), but got 'b_box' length {len(b_box)}, predicted "
                         f"value length (except batch number) {len(im_shape)}.")
    low, high = np.array(b_box[::2]), np.array(b_box[1::2])
    low[low < 0] = 0
    high[high < 0] = im_shape[high < 0] - 1
    if np.any(high >= im_shape):
        raise ValueError("For 'OcclusionSensitivity', maximum bounding box must be smaller than image size for all "
                         "values.")
    if np.any(low > high):
        raise ValueError("For 'OcclusionSensitivity', minimum bounding box must be smaller than maximum bounding box "
                         "for all values.")
    return low, high


class OcclusionSensitivity(Metric):
    """The drop in the label's score as each patch of the image is occluded.

    Arguments:
        pad_val: the value an occluded patch gets (a float). Default 0.0.
        margin: the half-size of the patch (an int, or one int per image dimension). Default 2.
        n_batch: the number of occluded images per model call (an int). Default 128.
        b_box: ``[min_0, max_0, min_1, max_1, ...]`` (inclusive; a negative max is the last index)
            over the image dimensions, or None for the whole image. Default None.

    Raises:
        TypeError: an argument of the wrong type.
    """

    def __init__(self, pad_val: float = 0.0, margin: int | list[int] = 2, n_batch: int = 128,
                 b_box: list[int] | None = None) -> None:
        super().__init__()
        self.pad_val = _check_type(pad_val, "pad_val", (float,))
        self.margin = _check_type(margin, "margin", (int, list))
        self.n_batch = _check_type(n_batch, "n_batch", (int,))
        self.b_box = b_box if b_box is None else _check_type(b_box, "b_box", (list,))
        self.clear()

    def clear(self) -> None:
        """Forget the last update."""
        self._baseline = 0
        self._sensitivity_im = 0
        self._is_update = False

    @rearrange_inputs
    def update(self, *inputs: Any) -> None:
        """Occlude ``y_pred`` (one image, batch dim 1) patch by patch and score it with ``model``.

        Arguments:
            inputs: ``(model, y_pred, label)``: a Cell returning ``(batch, classes)`` scores, the image
                ``(1, *dims)``, and the label (an int or a one-element array).

        Raises:
            ValueError: not three inputs, a bad ``b_box``.
            TypeError: ``model`` is not a Cell.
            RuntimeError: a batch of more than one image, or a label count other than 1.
        """
        if len(inputs) != 3:
            raise ValueError(f"For 'OcclusionSensitivity.update', it needs 3 inputs (classification model, "
                             f"predicted value, label), but got {len(inputs)}.")
        model = _check_type(inputs[0], "model", (Cell,))
        y_pred = self._convert_data(inputs[1])
        label = inputs[2] if isinstance(inputs[2], int) else self._convert_data(inputs[2])
        if y_pred.shape[0] > 1:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the shape at index 0 of the predicted value "
                               f"(input[1]) must be 1, but got {y_pred.shape[0]}.")
        if isinstance(label, int):
            label = np.array([[label]], dtype=int)
        elif np.prod(label.shape) != y_pred.shape[0]:
            raise RuntimeError(f"For 'OcclusionSensitivity.update', the number of the label (input[2]) must be "
                               f"same as the batches, but got the label number {np.prod(label.shape)}, and batches "
                               f"{y_pred.shape[0]}.")
        label = int(np.asarray(label).reshape(-1)[0])
        im_shape = np.array(y_pred.shape[1:])
        low, high = _bounding_box(self.b_box, im_shape)
        self._baseline = np.asarray(model(Tensor(y_pred)))[0, label].item()
        out_shape = im_shape if self.b_box is None else high - low + 1
        margins = self.margin if isinstance(self.margin, list) else [self.margin] * len(im_shape)
        scores: list[np.ndarray] = []
        batch: list[np.ndarray] = []
        total = int(np.prod(out_shape))
        for i in range(total):
            idx = np.unravel_index(i, tuple(out_shape))
            if low is not None:
                idx = tuple(np.asarray(idx) + low)
            window = tuple(slice(max(0, p - m), min(size, p + m)) for p, m, size in zip(idx, margins, im_shape))
            occluded = y_pred.copy()
            occluded[(...,) + window] = self.pad_val
            batch.append(occluded)
            if len(batch) == self.n_batch or i == total - 1:
                scores.append(np.asarray(model(Tensor(np.vstack(batch))))[:, label])
                batch = []
        self._sensitivity_im = np.concatenate(scores).reshape(tuple(out_shape))
        self._is_update = True

    def eval(self) -> np.ndarray:
        """``baseline - score`` per position, squeezed.

        Raises:
            RuntimeError: before any update.
        """
        if not self._is_update:
            raise RuntimeError("Please call the 'update' method before calling 'eval' method.")
        return self._baseline - np.squeeze(self._sensitivity_im)
