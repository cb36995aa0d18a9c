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


@pytest.mark.parametrize("check, good, zero, wrong_type, sign", [
    (Validator.check_negative_int, -2, 0, 1.0, "<"),
    (Validator.check_non_positive_int, 0, 1, 1.0, "<="),
    (Validator.check_negative_float, -0.5, 0.0, 1, "<"),
    (Validator.check_non_positive_float, 0.0, 1.0, 1, "<="),
])
def test_sign_checks_pass_and_refuse_as_mindspore(check, good, zero, wrong_type, sign) -> None:
    kind = type(good).__name__
    assert check(good, "a", "P") == good
    with pytest.raises(ValueError, match=f"For 'P', the 'a' must be {kind} and must {sign} 0, "
                                         f"but got '{zero}' with type '{kind}'"):
        check(zero, "a", "P")
    with pytest.raises(TypeError, match=f"For 'P', the 'a' must be {kind}, but got '{type(wrong_type).__name__}'"):
        check(wrong_type, "a", "P")
    with pytest.raises(TypeError):
        check(True, "a", "P")


def test_check_float_compares_with_the_relation() -> None:
    assert Validator.check_float(1.5, 1.0, Validator.GT, "a", "P") == 1.5
    with pytest.raises(ValueError, match="must be float and must > 1.0, but got '0.5'"):
        Validator.check_float(0.5, 1.0, Validator.GT, "a", "P")


def test_args_type_check_checks_named_and_keyword_arguments() -> None:
    @Validator.args_type_check(x=int, y=(str, type(None)), mode=int)
    def f(x, y=None, **kwargs):
        return x, y, kwargs

    assert f(1) == (1, None, {})
    assert f(2, "s", mode=3) == (2, "s", {"mode": 3})
    assert f.__name__ == "f"
    with pytest.raises(TypeError, match="The parameter 'x' must be <class 'int'>, but got <class 'str'>"):
        f("a")
    with pytest.raises(TypeError, match="The parameter 'y' must be"):
        f(1, y=3)
    with pytest.raises(TypeError, match="The parameter 'mode' must be <class 'int'>, but got <class 'float'>"):
        f(1, mode=1.0)
    with pytest.raises(TypeError):  # an argument the function does not take
        f(1, 2, 3)


def test_twice_expands_ints_and_refuses_other_shapes_as_mindspore() -> None:
    assert Validator.twice(3) == (3, 3)
    assert Validator.twice((1, 2)) == (1, 2)
    with pytest.raises(TypeError, match="input type must be integer or tuple\\[int\\], but got <class 'list'>"):
        Validator.twice([1, 2])
    with pytest.raises(TypeError, match="input tuple dimension must be 2, but got \\(1, 2, 3\\)"):
        Validator.twice((1, 2, 3))
    with pytest.raises(TypeError, match="element in input tuple must be an integer, but got <class 'bool'>"):
        Validator.twice((1, True))
    with pytest.raises(TypeError):
        Validator.twice(True)
    assert Validator._expand_tuple(3)(2) == (2, 2, 2)


def test_check_input_format_accepts_only_nchw() -> None:
    assert Validator.check_input_format("NCHW") == "NCHW"
    with pytest.raises(ValueError, match="The data format must be NCHW, but got NHWC."):
        Validator.check_input_format("NHWC")


@pytest.mark.parametrize("check, sign", [(Validator.check_positive_int, ">"),
                                         (Validator.check_non_negative_int, ">="),
                                         (Validator.check_negative_int, "<")])
def test_int_sign_checks_word_non_ints_and_bools_as_mindspore(check, sign) -> None:
    with pytest.raises(TypeError, match="^For 'P', the 'a' must be int, but got 'str'$"):
        check("x", "a", "P")
    with pytest.raises(TypeError, match="^For 'P', the 'a' must be int, but got 'float'$"):
        check(1.5, "a", "P")
    with pytest.raises(TypeError, match=f"must be int and must {sign} 0, but got 'True' with type 'bool'"):
        check(True, "a", "P")


def test_distribution_seed_is_checked_as_a_non_negative_int() -> None:
    from mindjax.nn.probability import distribution as msd

    with pytest.raises(TypeError, match="For 'Normal', the 'seed' must be int, but got 'str'"):
        msd.Normal(0.0, 1.0, seed="seed")
    with pytest.raises(ValueError, match="For 'Normal', the 'seed' must be int and must >= 0, but got '-1'"):
        msd.Normal(0.0, 1.0, seed=-1)
    assert msd.Normal(0.0, 1.0, seed=3).seed == 3
