"""``mindspore.common.generator``: ``Generator``, ``default_generator`` and the seed functions.

A Generator holds a seed and an offset, each in an int64 Parameter, so a GRAPH
Cell or ``ms.jit`` function that calls :meth:`Generator._step` (or
:meth:`Generator.next_key`) carries them as state: the offset advances on every
call, compiled or not. Its state is MindSpore's: 16 uint8 bytes, the seed's and
then the offset's little-endian int64 bytes.

Random ops that take ``generator=`` draw from :meth:`Generator.next_key`, a JAX
key folded from (seed, offset). The existing random ops (``ops.uniform`` ...)
keep drawing from the global key of :mod:`mindjax.common.random`.

Example:
    >>> import mindjax as ms
    >>> g = ms.Generator().manual_seed(5)
    >>> seed, offset = g._step(ms.Tensor(3, ms.int64))
    >>> int(seed), int(offset), int(g._step(1)[1])
    (5, 0, 3)
"""
from __future__ import annotations

import os
from typing import Any

import jax
import jax.numpy as jnp

from mindjax.cells.parameter import Parameter
from mindjax.common import dtype as mstype
from mindjax.common.tensor import Tensor

__all__ = ["Generator", "default_generator", "seed", "manual_seed", "initial_seed", "set_rng_state",
           "get_rng_state"]

_STATE_BYTES = 16


def _int64(value: Any, what: str) -> Any:
    """``value`` (a Tensor or an int) as an int64 array (traced or not)."""
    if isinstance(value, Tensor):
        return jnp.asarray(value._value, jnp.int64).reshape(())
    if isinstance(value, int):
        return jnp.asarray(value, jnp.int64)
    raise TypeError(f"For 'Generator', '{what}' must be a Tensor or an int, but got {type(value).__name__}.")


class Generator:
    """A random-number generator state: a seed and an offset (MindSpore's ``mindspore.Generator``).

    ``Generator()`` starts with seed 0 and offset 0. :meth:`manual_seed` and :meth:`seed`
    set the seed and reset the offset; :meth:`_step` hands out (seed, offset) and advances
    the offset; :meth:`get_state`/:meth:`set_state` save and restore both.

    Example:
        >>> import mindjax as ms
        >>> g = ms.Generator()
        >>> g.manual_seed(7).initial_seed()
        7
    """

    __ms_class__ = True

    def __init__(self) -> None:
        # Built on first use: an array made at import (default_generator) would start the XLA
        # backend before the user can set XLA_FLAGS.
        self._params: tuple[Parameter, Parameter] | None = None

    def _state(self) -> tuple[Parameter, Parameter]:
        if self._params is None:
            self._params = (Parameter(Tensor(0, mstype.int64), name="generator_seed", requires_grad=False),
                            Parameter(Tensor(0, mstype.int64), name="generator_offset", requires_grad=False))
        return self._params

    @property
    def _seed(self) -> Parameter:
        """The seed, an int64 Parameter."""
        return self._state()[0]

    @property
    def _offset(self) -> Parameter:
        """The offset, an int64 Parameter."""
        return self._state()[1]

    def set_state(self, state: Tensor) -> None:
        """Set the generator state.

        Arguments:
            state (Tensor): a state from :meth:`get_state`: 16 uint8 values.

        Raises:
            TypeError: ``state`` is not a Tensor, or not of dtype uint8.
            ValueError: ``state`` does not hold 16 values.
        """
        if not isinstance(state, Tensor):
            raise TypeError(f"For 'Generator.set_state', 'state' must be a Tensor, but got {type(state).__name__}.")
        if state.dtype != mstype.uint8:
            raise TypeError(f"For 'Generator.set_state', 'state' data type must be UInt8, but got {state.dtype}.")
        if state.size != _STATE_BYTES:
            raise ValueError(f"For 'Generator.set_state', 'state' must hold {_STATE_BYTES} values (seed and "
                             f"offset as int64 bytes), but got shape {tuple(state.shape)}.")
        words = jax.lax.bitcast_convert_type(jnp.asarray(state._value).reshape(2, 8), jnp.int64)
        self._seed._value = words[0]
        self._offset._value = words[1]

    def get_state(self) -> Tensor:
        """Get the generator state.

        Returns:
            Tensor, the generator state: 16 uint8 values, the seed's and the offset's int64 bytes.
        """
        words = jnp.stack([self._seed._value, self._offset._value]).astype(jnp.int64)
        return Tensor._wrap(jax.lax.bitcast_convert_type(words, jnp.uint8).reshape(_STATE_BYTES))

    def seed(self) -> int:
        """Seed the generator with a random number (from the operating system) and reset the offset.

        Returns:
            int, the randomly generated seed.
        """
        value = int.from_bytes(os.urandom(4), "little")
        self._set_seed(value)
        return value

    def manual_seed(self, seed: int) -> "Generator":  # pylint: disable=redefined-outer-name
        """Set the generator seed and reset the offset.

        Arguments:
            seed (int): The seed value for the generator.

        Returns:
            Generator, the generator instance.

        Raises:
            TypeError: ``seed`` is not an int.
        """
        if not isinstance(seed, int):
            raise TypeError("Seed must be an integer.")
        self._set_seed(seed)
        return self

    def _set_seed(self, value: int) -> None:
        self._seed._value = jnp.asarray(value, jnp.int64)
        self._offset._value = jnp.asarray(0, jnp.int64)

    def initial_seed(self) -> int:
        """Return the initial seed of the generator.

        Returns:
            int, the seed set by :meth:`manual_seed` or :meth:`seed` (0 for a new generator).
        """
        return int(self._seed._value)

    def _step(self, step: Any) -> tuple[Tensor, Tensor]:
        """Return the current seed and offset, and advance the offset by ``step`` for the next call.

        It works inside a GRAPH Cell or ``ms.jit`` function: the seed and offset are the program's state.

        Arguments:
            step (Union[Tensor, int]): how far to advance the offset.

        Returns:
            (Tensor, Tensor), the seed and the offset before the step, int64 scalars.
        """
        step = _int64(step, "step")
        seed_value, offset = self._seed._value, self._offset._value
        self._offset._value = offset + step
        return Tensor._wrap(seed_value), Tensor._wrap(offset)

    def next_key(self, step: int = 1) -> Any:
        """A fresh JAX PRNG key for a random op that takes ``generator=``; advances the offset by ``step``.

        The key is ``jax.random.fold_in(jax.random.PRNGKey(seed), offset)``: the same (seed, offset)
        give the same key, and each call moves on to a new one. Works inside compiled calls.

        Arguments:
            step (int): how far to advance the offset. Default: ``1``.

        Returns:
            a JAX PRNG key (``uint32[2]``), for ``jax.random`` functions.

        Example:
            >>> import jax, mindjax as ms
            >>> g = ms.Generator().manual_seed(1)
            >>> a = jax.random.uniform(g.next_key(), (2,))
            >>> bool((a != jax.random.uniform(g.next_key(), (2,))).all())
            True
        """
        seed_value, offset = self._step(step)
        base = jax.random.PRNGKey(seed_value._value)
        return jax.random.fold_in(base, offset._value.astype(jnp.uint32))


default_generator = Generator()


def seed() -> int:  # pylint: disable=redefined-outer-name
    """Seed the default generator with a random number.

    Returns:
        int, the randomly generated seed.
    """
    return default_generator.seed()


def manual_seed(seed: int) -> Generator:  # pylint: disable=redefined-outer-name
    """Set the default generator seed.

    Arguments:
        seed (int): The seed value for the default generator.

    Returns:
        Generator, the default generator (MindSpore 2.10 returns it too).

    Raises:
        TypeError: ``seed`` is not an int.
    """
    return default_generator.manual_seed(seed)


def initial_seed() -> int:
    """Return the initial seed of the default generator.

    Returns:
        int, the initial seed of the default generator.
    """
    return default_generator.initial_seed()


def get_rng_state() -> Tensor:
    """Get the state of the default generator.

    Returns:
        Tensor, the generator state (16 uint8 values).
    """
    return default_generator.get_state()


def set_rng_state(state: Tensor) -> None:  # pylint: disable=redefined-outer-name
    """Set the state of the default generator.

    Arguments:
        state (Tensor): The target state of the default generator.
    """
    default_generator.set_state(state)
