"""``mindspore.profiler.schedule``: which steps a profiler records.

Example:
    >>> from mindjax.profiler import schedule
    >>> s = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    >>> [s(step).name for step in range(6)]
    ['NONE', 'NONE', 'WARM_UP', 'RECORD', 'RECORD_AND_SAVE', 'NONE']
"""
from __future__ import annotations

import enum
import logging

__all__ = ["ProfilerAction", "Schedule"]

_LOG = logging.getLogger("mindjax")


class ProfilerAction(enum.Enum):
    """What the profiler does during a step."""

    NONE = 0
    WARM_UP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3

    @staticmethod
    def get_by_value(value: int) -> "ProfilerAction | None":
        """The member with ``value``, or None."""
        return {action.value: action for action in ProfilerAction}.get(value)


def _checked(name: str, value: object, minimum: int, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        _LOG.warning("Parameter '%s' should be of type int, but got %s. reset to int %d.", name,
                     type(value).__name__, default)
        return default
    return value


class Schedule:
    """The action of each step: skip ``skip_first`` steps, then cycles of ``wait`` steps doing
    nothing, ``warmup`` steps warming up and ``active`` steps recording (the last one saves),
    ``repeat`` times (0: until the end).

    Arguments:
        wait: steps to wait in each cycle (>= 0).
        active: steps to record in each cycle (>= 1).
        warmup: steps to warm up in each cycle (>= 0). Default 0.
        repeat: cycles, 0 for no limit. Default 0.
        skip_first: steps to skip at the start. Default 0.

    Bad values are reset to their defaults with a warning, as in MindSpore.
    """

    def __init__(self, *, wait: int, active: int, warmup: int = 0, repeat: int = 0, skip_first: int = 0) -> None:
        self.wait = _checked("wait", wait, 0, 0)
        self.active = _checked("active", active, 1, 1)
        self.warmup = _checked("warmup", warmup, 0, 0)
        self.repeat = _checked("repeat", repeat, 0, 0)
        self.skip_first = _checked("skip_first", skip_first, 0, 0)
        if self.warmup == 0:
            _LOG.warning("Profiler won't be using warmup, this can skew profiler results")

    def __call__(self, step: int) -> ProfilerAction:
        """The action of step ``step`` (>= 0).

        Raises:
            ValueError: a negative step.
        """
        if step < 0:
            raise ValueError("Invalid parameter step, which must be not less than 0.")
        if step < self.skip_first:
            return ProfilerAction.NONE
        step -= self.skip_first
        cycle = self.wait + self.warmup + self.active
        if 0 < self.repeat <= step / cycle:
            return ProfilerAction.NONE
        position = step % cycle
        if position < self.wait:
            return ProfilerAction.NONE
        if position < self.wait + self.warmup:
            return ProfilerAction.WARM_UP
        return ProfilerAction.RECORD if position < cycle - 1 else ProfilerAction.RECORD_AND_SAVE

    def __repr__(self) -> str:
        return (f"Schedule(wait={self.wait!r}, active={self.active!r}, warmup={self.warmup!r}, "
                f"repeat={self.repeat!r}, skip_first={self.skip_first!r})")

    def to_dict(self) -> dict[str, int]:
        """The schedule's parameters."""
        return {"wait": self.wait, "active": self.active, "warmup": self.warmup, "repeat": self.repeat,
                "skip_first": self.skip_first}
