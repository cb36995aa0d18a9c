"""mindspore._checkparam: each check's return value, exception type and message against MindSpore 2.10's."""
from __future__ import annotations

import importlib

import mindspore  # noqa: F401
import pytest

import mindjax  # noqa: F401

CALLS = [
    "V.check_positive_int(-1, 'x', 'Op')", "V.check_positive_int(3)", "V.check_positive_int(-1)",
    "V.check_positive_int(True, 'x', 'Op')", "V.check_non_negative_int(0)", "V.check_non_negative_int(-2, 'n')",
    "V.check_value_type('x', 1.0, [int], 'Op')", "V.check_value_type('x', True, [int], 'Op')",
    "V.check_value_type('x', 1.0, [int, str])", "V.check_value_type('x', 1, int, 'Op')",
    "V.check_value_type('x', True, [bool, int], 'Op')",
    "V.check_int_range(5, 0, 3, V.INC_LEFT, 'x', 'Op')", "V.check_int_range(5, 0, 3, V.INC_NEITHER, 'x')",
    "V.check_int_range(2, 0, 3, V.INC_LEFT, 'x', 'Op')", "V.check_int_range(2.0, 0, 3, V.INC_LEFT, 'x', 'Op')",
    "V.check_number_range(5, 0, 3, V.INC_RIGHT, int, 'x', 'Op')",
    "V.check_float_range(1.5, 0.0, 1.0, V.INC_BOTH, 'p', 'Op')", "V.check_float_range(2, 0.0, 3.0, V.INC_LEFT, 'x', 'Op')",
    "V.check_string('a', ['b', 'c'], 'mode', 'Op')", "V.check_string('b', ['b', 'c'], 'mode', 'Op')",
    "V.check('x', 1, 'y', 2, V.EQ, 'Op')", "V.check('x', 1, 'y', 2, V.LT, 'Op')", "V.check('x', 3, 'y', 2, V.LT)",
    "V.check_bool(1, 'flag', 'Op')", "V.check_bool(False, 'flag', 'Op')",
    "V.check_int(3, 5, V.GE, 'x', 'Op')", "V.check_int(3, 5, V.LT, 'x')", "V.check_int(3, 5, V.NE, 'x', 'Op')",
    "V.check_type_name('t', 1, [float], 'Op')", "V.check_type_name('t', 1, [float, int], 'Op')",
    "V.check_type_name('t', float, [float, int], 'Op')",
    "V.check_isinstance('x', 1, float)", "V.check_isinstance('x', 1.0, float)",
    "V.check_positive_float(2, 'x', 'Op')", "V.check_positive_float(2.0, 'x', 'Op')",
    "V.check_non_negative_float(-1.0, 'x', 'Op')", "V.check_equal_int(3, 4, 'x', 'Op')", "V.check_equal_int(4, 4)",
    "V.check_is_int(1.0, 'x', 'Op')", "V.check_is_int(1, 'x', 'Op')", "V.check_is_float(1, 'x', 'Op')",
    "V.twice(3)", "V.twice((2, 3))", "V.twice('str')", "V.twice((1, 2, 3))", "V.twice((3.3, 4))", "V.twice([1, 2])",
    "V.twice(True)", "V.check_negative_int(-1)", "V.check_negative_int(0, 'x', 'Op')",
    "V.check_negative_int(1.0, 'x')", "V.check_non_positive_int(0)", "V.check_non_positive_int(2, 'x', 'Op')",
    "V.check_non_positive_int(False, 'x', 'Op')", "V.check_int(float('nan'), 0, V.GE, 'x', 'Op')",
    "V.check_positive_int(1.5, 'x', 'Op')", "(V.EQ, V.NE, V.LT, V.LE, V.GT, V.GE, V.INC_NEITHER, V.INC_LEFT, V.INC_RIGHT, V.INC_BOTH)",
]


def _outcome(package: str, call: str):
    V = importlib.import_module(package + "._checkparam")  # noqa: N806 - MindSpore users spell it Validator
    try:
        return "ok", eval(call)  # noqa: S307 - the calls above, nothing else
    except Exception as err:  # noqa: BLE001 - the exception is what is compared
        return type(err).__name__, str(err)


@pytest.mark.parametrize("call", CALLS)
def test_check_matches_mindspore(call: str) -> None:
    assert _outcome("mindjax", call) == _outcome("mindspore", call)
