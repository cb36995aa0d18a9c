"""mindjax._checkparam: a relation outside MindSpore's constants is an error that lists them."""
import pytest

from mindjax import _checkparam as Validator


def test_unknown_relation_lists_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="'rel' must be one of EQ, NE, LT, LE, GT, GE"):
        Validator.check_int(1, 0, 99, "x", "Op")
    with pytest.raises(ValueError, match="'rel' must be one of INC_NEITHER, INC_LEFT, INC_RIGHT, INC_BOTH"):
        Validator.check_int_range(1, 0, 3, Validator.EQ, "x", "Op")


def test_passing_checks_return_the_value() -> None:
    assert Validator.check_positive_int(4, "n", "MyCell") == 4
    assert Validator.check_float_range(0.5, 0.0, 1.0, Validator.INC_BOTH, "p", "MyCell") == 0.5
    assert Validator.check_value_type("mode", "a", [str], "MyCell") == "a"
