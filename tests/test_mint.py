"""mindjax.mint: ops under mint's argument names."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import mint


def test_dim_keepdim_names():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    assert mint.mean(x, dim=1, keepdim=True).shape == (2, 1)
    assert mint.cat((x, x), dim=1).shape == (2, 6) and mint.stack([x, x], 0).shape == (2, 2, 3)
    np.testing.assert_array_equal(np.asarray(mint.argsort(x, dim=1, descending=True)), [[2, 1, 0], [2, 1, 0]])
    np.testing.assert_allclose(np.asarray(mint.cumsum(x, 0)), [[0, 1, 2], [3, 5, 7]])
    assert mint.permute(x, (1, 0)).shape == (3, 2) and len(mint.chunk(x, 3, dim=1)) == 3
    np.testing.assert_allclose(np.asarray(mint.abs(input=ms.Tensor([-1.0]))), [1.0])


def test_signature_errors_name_mint():
    with pytest.raises(TypeError, match=r"mint.softmax.*softmax\(input, dim, \*, dtype=None\)"):
        mint.softmax(ms.Tensor([1.0]))


def test_subpackages():
    from mindjax.experimental import optim
    assert mint.optim.Adam is optim.Adam and mint.nn.Dropout is ms.nn.DropoutExt
    assert mint.nn.functional.relu is ms.ops.relu


def test_mint_functions_run_under_jit_as_eagerly():
    from mindjax.mint.nn import functional as F
    x = ms.Tensor(np.arange(12, dtype=np.float32).reshape(3, 4) / 5 - 1)
    idx = ms.Tensor(np.array([[0, 1], [2, 3], [1, 1]], np.int32))

    def body(t):
        values, indices = mint.max(t, 1)
        return (values, indices, mint.std(t, 0), mint.add(t, t, alpha=2), mint.gather(t, 1, idx),
                mint.kthvalue(t, 2, 1)[0], mint.select(t, 0, -1), mint.where(t > 0, t, -t), mint.flatten(t),
                F.softmax(t), F.normalize(t), mint.clamp(t, -0.5), mint.sort(t, dim=0, descending=True)[0],
                mint.amax(t), mint.var_mean(t, 1)[1], F.hardtanh(t), F.log_softmax(t, 1),
                F.conv1d(t[None], ms.ops.ones((2, 3, 2)), padding="same"))
    eager = body(x)
    traced = ms.jit(body)(x)
    assert len(eager) == len(traced)
    for e, t in zip(eager, traced):
        np.testing.assert_allclose(np.asarray(t), np.asarray(e), rtol=1e-6)
