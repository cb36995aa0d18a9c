"""The typed registry of the calls that go up the layers."""
import pytest

import mindjax  # noqa: F401  (importing MindJAX fills every slot)
from mindjax.common.upcalls import UPCALLS, Upcalls, register_upcall


def test_every_slot_is_filled_once_mindjax_is_imported():
    # cell_scope is filled only while a profiler records, planned_cell_call while a planned trace runs
    for name in Upcalls.__slots__:
        if name not in ("cell_scope", "planned_cell_call"):
            assert callable(getattr(UPCALLS, name)), name
    assert UPCALLS.cell_scope is None and UPCALLS.planned_cell_call is None


def test_slots_are_filled_through_register_upcall_only():
    with pytest.raises(AttributeError, match="register_upcall"):
        UPCALLS.shard_cell = print


def test_register_upcall_rejects_unknown_slots_and_non_callables():
    with pytest.raises(KeyError, match="no slot named 'nope'.*compiled_cell_call"):
        register_upcall("nope", print)
    with pytest.raises(TypeError, match="slot 'shard_cell' takes a callable, got int"):
        register_upcall("shard_cell", 3)


def test_require_names_an_empty_slot():
    empty = Upcalls()
    with pytest.raises(RuntimeError, match="'backward_rules' is not registered"):
        empty.require("backward_rules")
