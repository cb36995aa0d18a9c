"""Audio processing (``mindspore.dataset.audio``): waveform and spectrogram transforms in numpy.

See :mod:`mindjax.dataset.audio.transforms` for what is provided and what is not yet.

Example:
    >>> import numpy as np
    >>> from mindjax.dataset import audio
    >>> audio.Spectrogram(n_fft=16)(np.zeros(64, np.float32)).shape
    (9, 9)
"""
from mindjax.dataset.audio import transforms, utils
from mindjax.dataset.audio.transforms import *  # noqa: F401,F403
from mindjax.dataset.audio.transforms import __all__ as _transforms
from mindjax.dataset.audio.utils import (BorderType, FadeShape, GainType, MelType, NormMode, NormType, ScaleType,
                                         WindowType, create_dct, linear_fbanks, melscale_fbanks)

__all__ = ["transforms", "utils", *_transforms, "BorderType", "FadeShape", "GainType", "MelType", "NormMode",
           "NormType", "ScaleType", "WindowType", "create_dct", "linear_fbanks", "melscale_fbanks"]
