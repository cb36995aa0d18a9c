"""mindspore.parallel._auto_parallel_context: the getters model-zoo scripts call read the one context."""
import pytest

import mindjax as ms
from mindjax.parallel._auto_parallel_context import auto_parallel_context


def test_getters_and_is_set_read_set_auto_parallel_context():
    ctx = auto_parallel_context()
    ms.reset_auto_parallel_context()
    try:
        assert ctx.get_device_num_is_set() is False
        assert ctx.get_parallel_mode() == "stand_alone"
        ms.set_auto_parallel_context(device_num=2, gradients_mean=True)
        assert ctx.get_device_num_is_set() is True
        assert ctx.get_device_num() == 2 and ctx.get_gradients_mean() is True
        ctx.set_full_batch(True)
        assert ms.get_auto_parallel_context("full_batch") is True
    finally:
        ms.reset_auto_parallel_context()
    assert ctx.get_device_num_is_set() is False


def test_unknown_keys_raise_as_the_context_does():
    with pytest.raises(ValueError, match="not recognized"):
        auto_parallel_context().get_no_such_key()
    with pytest.raises(AttributeError):
        auto_parallel_context().nothing
