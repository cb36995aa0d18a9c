"""ops.reshard / parallel.reshard: a Tensor laid out as a Layout says (semi-auto and auto parallel)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import PartitionSpec as P

import mindjax as ms
from mindjax import ops
from mindjax.parallel import reshard

X = np.arange(8 * 16, dtype=np.float32).reshape(8, 16)


@pytest.fixture
def semi_auto():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)


def _spec(x):
    entries = list(jnp.asarray(x).sharding.spec)
    while entries and entries[-1] is None:
        entries.pop()
    return P(*entries)


def test_reshard_constrains_the_layout_inside_a_compiled_function(semi_auto):
    layout = ms.Layout((2, 4), ("dp", "mp"))
    out = ms.jit(lambda x: ops.reshard(x * 2, layout("dp", "mp")))(ms.Tensor(X))
    np.testing.assert_array_equal(np.asarray(out), X * 2)
    assert _spec(out) == P("d0", ("d1", "d2"))
    rows = jax.jit(lambda x: ops.reshard(ms.Tensor(x), layout("mp", "None")))(X)
    assert _spec(rows) == P(("d1", "d2"))
    assert ops.reshard is not reshard and ops.reshard.__module__ == "mindjax.ops.function.reshard_func"


def test_reshard_returns_the_tensor_outside_semi_auto_parallel():
    layout = ms.Layout((2, 4), ("dp", "mp"))
    x = ms.Tensor(X)
    assert ops.reshard(x, layout("dp", "mp")) is x


def test_bad_arguments_name_reshard(semi_auto):
    layout = ms.Layout((2, 4), ("dp", "mp"))
    with pytest.raises(TypeError, match=r"For 'reshard', 'tensor' must be a Tensor, but got ndarray"):
        ops.reshard(X, layout("dp", "mp"))
    with pytest.raises(TypeError, match=r"For 'reshard', 'layout' must be a mindspore.parallel.Layout, but got "
                                        r"tuple"):
        ops.reshard(ms.Tensor(X), (2, 4))
    with pytest.raises(ValueError, match=r"For 'reshard', layout .* does not fit the input shapes \(\(8, 16\),\).*"
                                         r"has 1 dimension\(s\) but the input has shape \(8, 16\)"):
        ms.jit(lambda x: ops.reshard(x, layout("dp")))(ms.Tensor(X))  # one entry for a rank-2 tensor
