"""Policy-driven augmentation of ``mindspore.dataset.vision``: AutoAugment, RandAugment, TrivialAugmentWide,
UniformAugment, RandomSelectSubpolicy.

The operation set and magnitude ranges are those of the AutoAugment, RandAugment
and TrivialAugment papers (as in MindSpore and torchvision); the image ops run
through Pillow on uint8 images.
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from mindjax.dataset._validate import (FLOAT_MAX_INTEGER, check_fill_value, check_prob, check_type, check_value)
from mindjax.dataset.transforms.base import RandomTransform, Transform, call_transform
from mindjax.dataset.vision._image import numpy_input, on_pil, pil_resample
from mindjax.dataset.vision.utils import AutoAugmentPolicy, Inter

__all__ = ["AutoAugment", "RandAugment", "TrivialAugmentWide", "UniformAugment", "RandomSelectSubpolicy"]


def _fill_for(pil: Any, fill: Any) -> Any:
    bands = len(pil.getbands())
    if isinstance(fill, tuple):
        if bands != 3:
            raise ValueError(f"An (R, G, B) fill_value needs a 3-channel image, got mode {pil.mode}")
        return fill
    return fill if bands == 1 else (fill,) * bands


def _op(pil: Any, name: str, mag: float, resample: int, fill: Any) -> Any:
    """One named augmentation on a Pillow image (as in the AutoAugment paper)."""
    from PIL import Image, ImageEnhance, ImageOps

    if name == "ShearX":
        return pil.transform(pil.size, Image.AFFINE, (1, mag, 0, 0, 1, 0), resample, fillcolor=_fill_for(pil, fill))
    if name == "ShearY":
        return pil.transform(pil.size, Image.AFFINE, (1, 0, 0, mag, 1, 0), resample, fillcolor=_fill_for(pil, fill))
    if name == "TranslateX":
        return pil.transform(pil.size, Image.AFFINE, (1, 0, -int(mag), 0, 1, 0), resample,
                             fillcolor=_fill_for(pil, fill))
    if name == "TranslateY":
        return pil.transform(pil.size, Image.AFFINE, (1, 0, 0, 0, 1, -int(mag)), resample,
                             fillcolor=_fill_for(pil, fill))
    if name == "Rotate":
        return pil.rotate(mag, resample, fillcolor=_fill_for(pil, fill))
    if name in ("Brightness", "Color", "Contrast", "Sharpness"):
        return getattr(ImageEnhance, name)(pil).enhance(1.0 + mag)
    if name == "Posterize":
        return ImageOps.posterize(pil, int(mag))
    if name == "Solarize":
        return ImageOps.solarize(pil, mag)
    if name == "AutoContrast":
        return ImageOps.autocontrast(pil)
    if name == "Equalize":
        return ImageOps.equalize(pil)
    if name == "Invert":
        return ImageOps.invert(pil)
    if name == "Identity":
        return pil
    raise ValueError(f"unknown augmentation {name!r}")


# name -> (magnitudes for num_bins and image (height, width), signed)
def _rand_space(bins: int, height: int, width: int) -> dict[str, tuple[np.ndarray, bool]]:
    return {
        "Identity": (np.zeros(1), False),
        "ShearX": (np.linspace(0.0, 0.3, bins), True),
        "ShearY": (np.linspace(0.0, 0.3, bins), True),
        "TranslateX": (np.linspace(0.0, 150.0 / 331.0 * width, bins), True),
        "TranslateY": (np.linspace(0.0, 150.0 / 331.0 * height, bins), True),
        "Rotate": (np.linspace(0.0, 30.0, bins), True),
        "Brightness": (np.linspace(0.0, 0.9, bins), True),
        "Color": (np.linspace(0.0, 0.9, bins), True),
        "Contrast": (np.linspace(0.0, 0.9, bins), True),
        "Sharpness": (np.linspace(0.0, 0.9, bins), True),
        "Posterize": ((8 - np.round(np.arange(bins) / ((bins - 1) / 4))).astype(np.int64), False),
        "Solarize": (np.linspace(255.0, 0.0, bins), False),
        "AutoContrast": (np.zeros(1), False),
        "Equalize": (np.zeros(1), False),
    }


def _wide_space(bins: int) -> dict[str, tuple[np.ndarray, bool]]:
    return {
        "Identity": (np.zeros(1), False),
        "ShearX": (np.linspace(0.0, 0.99, bins), True),
        "ShearY": (np.linspace(0.0, 0.99, bins), True),
        "TranslateX": (np.linspace(0.0, 32.0, bins), True),
        "TranslateY": (np.linspace(0.0, 32.0, bins), True),
        "Rotate": (np.linspace(0.0, 135.0, bins), True),
        "Brightness": (np.linspace(0.0, 0.99, bins), True),
        "Color": (np.linspace(0.0, 0.99, bins), True),
        "Contrast": (np.linspace(0.0, 0.99, bins), True),
        "Sharpness": (np.linspace(0.0, 0.99, bins), True),
        "Posterize": ((8 - np.round(np.arange(bins) / ((bins - 1) / 6))).astype(np.int64), False),
        "Solarize": (np.linspace(255.0, 0.0, bins), False),
        "AutoContrast": (np.zeros(1), False),
        "Equalize": (np.zeros(1), False),
    }


_POLICIES: dict[AutoAugmentPolicy, list[tuple[tuple[str, float, int | None], ...]]] = {
    AutoAugmentPolicy.IMAGENET: [
        (("Posterize", 0.4, 8), ("Rotate", 0.6, 9)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)), (("Posterize", 0.6, 7), ("Posterize", 0.6, 6)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Equalize", 0.4, None), ("Rotate", 0.8, 8)),
        (("Solarize", 0.6, 3), ("Equalize", 0.6, None)), (("Posterize", 0.8, 5), ("Equalize", 1.0, None)),
        (("Rotate", 0.2, 3), ("Solarize", 0.6, 8)), (("Equalize", 0.6, None), ("Posterize", 0.4, 6)),
        (("Rotate", 0.8, 8), ("Color", 0.4, 0)), (("Rotate", 0.4, 9), ("Equalize", 0.6, None)),
        (("Equalize", 0.0, None), ("Equalize", 0.8, None)), (("Invert", 0.6, None), ("Equalize", 1.0, None)),
        (("Color", 0.6, 4), ("Contrast", 1.0, 8)), (("Rotate", 0.8, 8), ("Color", 1.0, 2)),
        (("Color", 0.8, 8), ("Solarize", 0.8, 7)), (("Sharpness", 0.4, 7), ("Invert", 0.6, None)),
        (("ShearX", 0.6, 5), ("Equalize", 1.0, None)), (("Color", 0.4, 0), ("Equalize", 0.6, None)),
        (("Equalize", 0.4, None), ("Solarize", 0.2, 4)), (("Solarize", 0.6, 5), ("AutoContrast", 0.6, None)),
        (("Invert", 0.6, None), ("Equalize", 1.0, None)), (("Color", 0.6, 4), ("Contrast", 1.0, 8)),
        (("Equalize", 0.8, None), ("Equalize", 0.6, None)),
    ],
    AutoAugmentPolicy.CIFAR10: [
        (("Invert", 0.1, None), ("Contrast", 0.2, 6)), (("Rotate", 0.7, 2), ("TranslateX", 0.3, 9)),
        (("Sharpness", 0.8, 1), ("Sharpness", 0.9, 3)), (("ShearY", 0.5, 8), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.5, None), ("Equalize", 0.9, None)), (("ShearY", 0.2, 7), ("Posterize", 0.3, 7)),
        (("Color", 0.4, 3), ("Brightness", 0.6, 7)), (("Sharpness", 0.3, 9), ("Brightness", 0.7, 9)),
        (("Equalize", 0.6, None), ("Equalize", 0.5, None)), (("Contrast", 0.6, 7), ("Sharpness", 0.6, 5)),
        (("Color", 0.7, 7), ("TranslateX", 0.5, 8)), (("Equalize", 0.3, None), ("AutoContrast", 0.4, None)),
        (("TranslateY", 0.4, 3), ("Sharpness", 0.2, 6)), (("Brightness", 0.9, 6), ("Color", 0.2, 8)),
        (("Solarize", 0.5, 2), ("Invert", 0.0, None)), (("Equalize", 0.2, None), ("AutoContrast", 0.6, None)),
        (("Equalize", 0.2, None), ("Equalize", 0.6, None)), (("Color", 0.9, 9), ("Equalize", 0.6, None)),
        (("AutoContrast", 0.8, None), ("Solarize", 0.2, 8)), (("Brightness", 0.1, 3), ("Color", 0.7, 0)),
        (("Solarize", 0.4, 5), ("AutoContrast", 0.9, None)), (("TranslateY", 0.9, 9), ("TranslateY", 0.7, 9)),
        (("AutoContrast", 0.9, None), ("Solarize", 0.8, 3)), (("Equalize", 0.8, None), ("Invert", 0.1, None)),
        (("TranslateY", 0.7, 9), ("AutoContrast", 0.9, None)),
    ],
    AutoAugmentPolicy.SVHN: [
        (("ShearX", 0.9, 4), ("Invert", 0.2, None)), (("ShearY", 0.9, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.6, None), ("Solarize", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Equalize", 0.6, None), ("Rotate", 0.9, 3)), (("ShearX", 0.9, 4), ("AutoContrast", 0.8, None)),
        (("ShearY", 0.9, 8), ("Invert", 0.4, None)), (("ShearY", 0.9, 5), ("Solarize", 0.2, 6)),
        (("Invert", 0.9, None), ("AutoContrast", 0.8, None)), (("Equalize", 0.6, None), ("Rotate", 0.9, 3)),
        (("ShearX", 0.9, 4), ("Solarize", 0.3, 3)), (("ShearY", 0.8, 8), ("Invert", 0.7, None)),
        (("Equalize", 0.9, None), ("TranslateY", 0.6, 6)), (("Invert", 0.9, None), ("Equalize", 0.6, None)),
        (("Contrast", 0.3, 3), ("Rotate", 0.8, 4)), (("Invert", 0.8, None), ("TranslateY", 0.0, 2)),
        (("ShearY", 0.7, 6), ("Solarize", 0.4, 8)), (("Invert", 0.6, None), ("Rotate", 0.8, 4)),
        (("ShearY", 0.3, 7), ("TranslateX", 0.9, 3)), (("ShearX", 0.1, 6), ("Invert", 0.6, None)),
        (("Solarize", 0.7, 2), ("TranslateY", 0.6, 7)), (("ShearY", 0.8, 4), ("Invert", 0.8, None)),
        (("ShearX", 0.7, 9), ("TranslateY", 0.8, 3)), (("ShearY", 0.8, 5), ("AutoContrast", 0.7, None)),
        (("ShearX", 0.7, 2), ("Invert", 0.1, None)),
    ],
}


def _magnitude(space: dict[str, tuple[np.ndarray, bool]], name: str, index: int | None,
               rng: np.random.Generator) -> float:
    values, signed = space[name]
    mag = float(values[index]) if index is not None and values.size > 1 else 0.0
    if signed and rng.integers(2):
        mag = -mag
    return mag


def _aug_args(interpolation: Any, fill_value: Any) -> tuple[int, Any]:
    check_type(interpolation, (Inter,), "interpolation")
    return pil_resample(interpolation, "augmentation"), check_fill_value(fill_value)


def _on_image(img: Any, who: str, fn: Callable[[Any], Any]) -> Any:
    return on_pil(img, who, fn)


class AutoAugment(RandomTransform):
    """Apply one random sub-policy (two ops, each with its probability) of a learned AutoAugment policy.

    Arguments:
        policy: :class:`AutoAugmentPolicy` ``IMAGENET``, ``CIFAR10`` or ``SVHN``.
        interpolation: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
        fill_value: the colour outside the image: an int or (R, G, B) in [0, 255].
    """

    def __init__(self, policy: AutoAugmentPolicy = AutoAugmentPolicy.IMAGENET, interpolation: Inter = Inter.NEAREST,
                 fill_value: Any = 0) -> None:
        check_type(policy, (AutoAugmentPolicy,), "policy")
        self.policy, self.interpolation, self.fill_value = policy, interpolation, fill_value
        self._resample, self._fill = _aug_args(interpolation, fill_value)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        img = numpy_input(img)
        def run(pil: Any) -> Any:
            space = _rand_space(10, pil.size[1], pil.size[0])
            space["Invert"] = (np.zeros(1), False)
            sub = _POLICIES[self.policy][int(rng.integers(len(_POLICIES[self.policy])))]
            for name, prob, index in sub:
                if rng.random() <= prob:
                    pil = _op(pil, name, _magnitude(space, name, index, rng), self._resample, self._fill)
            return pil

        return _on_image(img, "AutoAugment", run)


class RandAugment(RandomTransform):
    """Apply ``num_ops`` ops drawn uniformly from the RandAugment set, all at ``magnitude``.

    Arguments:
        num_ops: how many ops per image.
        magnitude: the bin of every op's strength, in [0, num_magnitude_bins).
        num_magnitude_bins: the number of strength bins, at least 2.
        interpolation: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
        fill_value: the colour outside the image: an int or (R, G, B) in [0, 255].
    """

    def __init__(self, num_ops: int = 2, magnitude: int = 9, num_magnitude_bins: int = 31,
                 interpolation: Inter = Inter.NEAREST, fill_value: Any = 0) -> None:
        check_type(num_ops, (int,), "num_ops")
        check_value(num_ops, 0, FLOAT_MAX_INTEGER, "num_ops")
        check_type(num_magnitude_bins, (int,), "num_magnitude_bins")
        check_value(num_magnitude_bins, 2, FLOAT_MAX_INTEGER, "num_magnitude_bins")
        check_type(magnitude, (int,), "magnitude")
        check_value(magnitude, 0, num_magnitude_bins, "magnitude", right_open=True)
        self.num_ops, self.magnitude, self.num_magnitude_bins = num_ops, magnitude, num_magnitude_bins
        self.interpolation, self.fill_value = interpolation, fill_value
        self._resample, self._fill = _aug_args(interpolation, fill_value)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        img = numpy_input(img)
        def run(pil: Any) -> Any:
            space = _rand_space(self.num_magnitude_bins, pil.size[1], pil.size[0])
            names = list(space)
            for _ in range(self.num_ops):
                name = names[int(rng.integers(len(names)))]
                pil = _op(pil, name, _magnitude(space, name, self.magnitude, rng), self._resample, self._fill)
            return pil

        return _on_image(img, "RandAugment", run)


class TrivialAugmentWide(RandomTransform):
    """Apply one op from the TrivialAugment (wide) set at a random strength bin.

    Arguments:
        num_magnitude_bins: the number of strength bins, at least 2.
        interpolation: ``Inter.NEAREST``, ``Inter.BILINEAR`` or ``Inter.BICUBIC``.
        fill_value: the colour outside the image: an int or (R, G, B) in [0, 255].
    """

    def __init__(self, num_magnitude_bins: int = 31, interpolation: Inter = Inter.NEAREST, fill_value: Any = 0) -> None:
        check_type(num_magnitude_bins, (int,), "num_magnitude_bins")
        check_value(num_magnitude_bins, 2, FLOAT_MAX_INTEGER, "num_magnitude_bins")
        self.num_magnitude_bins, self.interpolation, self.fill_value = num_magnitude_bins, interpolation, fill_value
        self._resample, self._fill = _aug_args(interpolation, fill_value)

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        img = numpy_input(img)
        def run(pil: Any) -> Any:
            space = _wide_space(self.num_magnitude_bins)
            names = list(space)
            name = names[int(rng.integers(len(names)))]
            index = int(rng.integers(self.num_magnitude_bins))
            return _op(pil, name, _magnitude(space, name, index, rng), self._resample, self._fill)

        return _on_image(img, "TrivialAugmentWide", run)


def _callables(transforms: Any, name: str = "transforms") -> list[Any]:
    check_type(transforms, (list,), name)
    if not transforms:
        raise ValueError(f"{name} list is empty.")
    for t in transforms:
        if not callable(t):
            raise TypeError(f"transform {t!r} in {name} is not callable.")
    return list(transforms)


class UniformAugment(RandomTransform):
    """Pick ``num_ops`` of ``transforms`` (without replacement) and apply each with a random probability.

    Arguments:
        transforms: a non-empty list of transforms (image in, image out).
        num_ops: how many to pick, at most ``len(transforms)``.
    """

    def __init__(self, transforms: Sequence[Any], num_ops: int = 2) -> None:
        self.transforms = _callables(transforms)
        check_type(num_ops, (int,), "num_ops")
        check_value(num_ops, 1, FLOAT_MAX_INTEGER, "num_ops")
        if num_ops > len(self.transforms):
            raise ValueError(f"num_ops is greater than transforms list size, num_ops: {num_ops}, transforms list "
                             f"size: {len(self.transforms)}.")
        self.num_ops = num_ops

    def _apply(self, img: Any, rng: np.random.Generator | None = None) -> Any:
        for k in rng.choice(len(self.transforms), size=self.num_ops, replace=False):
            prob = rng.random()
            if rng.random() < prob:
                img = call_transform(self.transforms[int(k)], (img,), rng)
        return img


class RandomSelectSubpolicy(RandomTransform):
    """Pick one sub-policy uniformly; apply its ``(transform, prob)`` pairs in order, each with its probability.

    Arguments:
        policy: a non-empty list of sub-policies, each a non-empty list of (transform, prob in [0, 1]).
    """

    def __init__(self, policy: Sequence[Sequence[tuple[Any, float]]]) -> None:
        check_type(policy, (list,), "policy")
        if not policy:
            raise ValueError("policy can not be empty.")
        for sub_ind, sub in enumerate(policy):
            check_type(sub, (list,), f"policy[{sub_ind}]")
            if not sub:
                raise ValueError(f"policy[{sub_ind}] can not be empty.")
            for op_ind, pair in enumerate(sub):
                check_type(pair, (tuple,), f"policy[{sub_ind}][{op_ind}]")
                if len(pair) != 2:
                    raise ValueError(f"policy[{sub_ind}][{op_ind}] should be a (transform, prob) tuple.")
                if not callable(pair[0]):
                    raise TypeError(f"transform {pair[0]!r} in policy[{sub_ind}][{op_ind}] is not callable.")
                check_prob(pair[1], f"policy[{sub_ind}][{op_ind}][1]")
        self.policy = [list(sub) for sub in policy]

    def _apply(self, *args: Any, rng: np.random.Generator | None = None) -> Any:
        for op, prob in self.policy[int(rng.integers(len(self.policy)))]:
            if rng.random() < prob:
                out = call_transform(op, args, rng)
                args = out if isinstance(out, tuple) else (out,)
        return args if len(args) > 1 else args[0]


