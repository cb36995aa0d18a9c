"""``mindspore.train.data_sink``: run a step function over a dataset, ``sink_size`` steps per call.

The dataset is read as ``Model`` reads it (:class:`mindjax.train._data.DataSource`:
a ``mindjax.dataset`` pipeline, an object with ``create_tuple_iterator``, or
any iterable of batches), one stream across calls and epochs. Each call of the
returned function runs ``fn(*batch)`` on the next ``sink_size`` batches, as
one compiled program per batch signature (``ms.jit``), and returns the last
output. Unlike MindSpore, it also runs on CPU.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

import jax
import numpy as np

from mindjax.common.tensor import Tensor, wrap
from mindjax.train._data import DataSource
from mindjax.transforms.jit import jit

__all__ = ["data_sink"]


def _tensors(batch: tuple[Any, ...]) -> tuple[Any, ...]:
    return tuple(Tensor(x) if isinstance(x, np.ndarray) else wrap(x) if isinstance(x, jax.Array) else x
                 for x in batch)


def data_sink(fn: Callable[..., Any], dataset: Any, sink_size: int = 1, jit_config: Any = None,
              input_signature: Any = None) -> Callable[..., Any]:
    """Make ``fn`` run on ``dataset``'s batches, ``sink_size`` of them per call (MindSpore's ``data_sink``).

    Arguments:
        fn (Callable): the step, called as ``fn(*batch)``.
        dataset: the data (see the module).
        sink_size (int): steps per call; positive. Default: ``1``.
        jit_config (JitConfig, optional): passed to ``ms.jit``. Default: ``None``.
        input_signature (Union[Tensor, list[Tensor]], optional): passed to ``ms.jit``
            (dynamic shapes). Default: ``None``.

    Returns:
        Function: each call runs the next ``sink_size`` steps and returns the last step's output.

    Raises:
        TypeError: ``fn`` is not callable, or ``sink_size`` is not an int.
        ValueError: ``sink_size`` is not positive.

    Example:
        >>> import numpy as np, mindjax as ms
        >>> data = [(np.full((2,), i, np.float32),) for i in range(4)]
        >>> step = ms.data_sink(lambda x: x.sum(), data, sink_size=2)
        >>> float(step()), float(step())
        (2.0, 6.0)
    """
    if not callable(fn):
        raise TypeError(f"For 'data_sink', 'fn' must be callable, but got {type(fn).__name__}.")
    if isinstance(sink_size, bool) or not isinstance(sink_size, int):
        raise TypeError(f"For 'Data sink', the type of 'sink_size' should be 'int', but got "
                        f"'{type(sink_size).__name__}'.")
    if sink_size <= 0:
        raise ValueError(f"The 'sink_size' must be positive, but got sink_size {sink_size}.")
    source = DataSource(dataset, "data_sink", "dataset")
    compiled = jit(fn, jit_config=jit_config, input_signature=input_signature)

    @functools.wraps(fn)
    def sink_process(*args: Any, **kwargs: Any) -> Any:
        out = None
        ran = 0
        for batch in source.steps(sink_size):
            out = compiled(*_tensors(tuple(batch)))
            ran += 1
        if ran == 0:
            raise ValueError("For 'data_sink', the dataset gave no batch.")
        return out

    return sink_process
