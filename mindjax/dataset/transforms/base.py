"""``Transform``: the base of every dataset transform.

A transform runs on numpy arrays (or Pillow images) one sample at a time,
inside grain's threads or worker processes. Random transforms draw from the
generator the pipeline passes in (derived from the dataset seed, the epoch
and the row), so the same seed gives the same augmentations, in any number
of workers and after a resume. Called directly, they draw from a generator
seeded from the dataset seed, restarted by each ``set_seed``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Transform", "RandomTransform"]

_eager_rng: np.random.Generator | None = None
_eager_generation: int = -1


def _default_rng() -> np.random.Generator:
    """The generator of eager calls: restarted from the dataset seed after each ``set_seed``."""
    global _eager_rng, _eager_generation
    from mindjax.dataset import config

    if _eager_rng is None or _eager_generation != config._seed_generation:
        _eager_rng = np.random.default_rng(config.get_seed())
        _eager_generation = config._seed_generation
    return _eager_rng


class Transform:
    """Base class: subclasses implement ``_apply(*columns, rng)``.

    Calling a transform applies it eagerly: ``Normalize(...)(image)``.
    """

    def _is_random(self) -> bool:
        return False

    def _apply(self, *args: Any, rng: np.random.Generator | None) -> Any:
        raise NotImplementedError

    def _batchable(self) -> bool:
        """Whether :meth:`_apply_batch` exists: deterministic, and the same on a stack of samples."""
        return False

    def _apply_batch(self, *columns: np.ndarray) -> Any:
        """The transform on samples stacked on a leading axis.

        It must equal stacking the per-sample results exactly; a batch that
        needs anything else should raise, and is then made sample by sample.
        """
        raise NotImplementedError(f"{type(self).__name__} runs one sample at a time")

    def __call__(self, *args: Any) -> Any:
        return self._apply(*args, rng=_default_rng() if self._is_random() else None)

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items() if not k.startswith("_"))
        return f"{type(self).__name__}({fields})"


class RandomTransform(Transform):
    """Base of transforms that draw random numbers."""

    def _is_random(self) -> bool:
        return True


def call_transform(op: Any, args: tuple[Any, ...], rng: np.random.Generator | None) -> Any:
    """Apply a transform (with ``rng``) or a plain callable to ``args``."""
    if isinstance(op, Transform):
        return op._apply(*args, rng=rng if rng is not None or not op._is_random() else _default_rng())
    return op(*args)
