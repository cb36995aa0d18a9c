"""ms.Tensor returns plain jax.Arrays that answer MindSpore's Tensor methods."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms


def test_tensor_returns_a_jax_array_not_a_wrapper():
    t = ms.Tensor(np.ones((2, 3)), ms.float32)
    assert type(t) is type(jnp.zeros(()))
    assert isinstance(t, jax.Array)


def test_isinstance_tensor_accepts_arrays_tracers_and_parameters():
    seen = []
    jax.jit(lambda a: seen.append(isinstance(a, ms.Tensor)) or a)(jnp.ones(2))
    assert seen == [True]
    assert isinstance(jnp.ones(2), ms.Tensor)
    assert isinstance(ms.Parameter(jnp.ones(2)), ms.Tensor)
    assert not isinstance(np.ones(2), ms.Tensor)
    assert not isinstance(3.0, ms.Tensor)


def test_python_scalars_follow_mindspore_dtype_rules():
    assert ms.Tensor(1.0).dtype == ms.float32
    assert ms.Tensor(True).dtype == ms.bool_
    assert ms.Tensor([1.5, 2.0]).dtype == ms.float32
    assert ms.Tensor(np.ones(2, np.float16)).dtype == ms.float16
    assert ms.Tensor(3, ms.float16).dtype == ms.float16


def test_mindspore_tensor_methods_work_on_arrays():
    t = ms.Tensor(np.arange(6).reshape(2, 3), ms.float32)
    np.testing.assert_array_equal(t.asnumpy(), np.arange(6).reshape(2, 3))
    assert isinstance(t.asnumpy(), np.ndarray)
    assert t.shape == (2, 3) and isinstance(t.shape, tuple)
    assert t.astype(ms.int32).dtype == ms.int32
    assert t[1, 2].item() == 5.0
    assert t.expand_dims(0).shape == (1, 2, 3)
    assert t.view(3, 2).shape == (3, 2)
    assert t.view((6,)).shape == (6,)
    assert t.float().dtype == ms.float32 and t.int().dtype == ms.int32
    assert t.dim() == 2 and t.numel() == 6 and t.size == 6


def test_view_with_a_dtype_keeps_jax_meaning():
    t = ms.Tensor(np.ones(2), ms.float32)
    assert t.view(jnp.int32).dtype == jnp.int32


def test_methods_work_inside_jit():
    out = jax.jit(lambda a: a.expand_dims(0).view(6))(jnp.ones((2, 3)))
    assert out.shape == (6,)


def test_asnumpy_inside_jit_explains_why_it_cannot():
    with pytest.raises(TypeError, match="asnumpy.*traced"):
        jax.jit(lambda a: a.asnumpy())(jnp.ones(2))


def test_tensor_from_shape_and_initializer():
    from mindjax.common.initializer import One
    t = ms.Tensor(shape=(2, 2), dtype=ms.float16, init=One())
    assert t.dtype == ms.float16
    np.testing.assert_array_equal(t, np.ones((2, 2)))


def test_tensor_without_data_or_shape_is_an_error():
    with pytest.raises(ValueError, match="input_data, or shape and init"):
        ms.Tensor()


def test_dtype_names_compare_equal_to_array_dtypes():
    assert jnp.ones(1, jnp.bfloat16).dtype == ms.bfloat16
    assert ms.dtype.float32 == jnp.float32
    from mindjax.common import dtype as mstype
    assert mstype.int8 == jnp.int8
    with pytest.raises(TypeError, match="unknown dtype name"):
        mstype.to_jax_dtype("float33")


def test_importing_mindjax_does_not_start_the_xla_backend():
    import subprocess
    import sys
    code = ("import mindjax\nfrom jax._src import xla_bridge as xb\n"
            "assert not xb._backends, 'backend started at import'\nprint('ok')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"
