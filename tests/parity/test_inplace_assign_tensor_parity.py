"""Assign/AssignAdd/AssignSub and ops.assign_add/assign_sub write into plain Tensors as MindSpore 2.10 does."""
import mindspore
import mindspore.ops as msops
import numpy as np
import pytest
from mindspore.ops import operations as MP

import mindjax as ms
from mindjax import ops
from mindjax.ops import operations as P


def _in_place(framework, prims, ops_mod, tensor):
    x = tensor(np.array([1.0, 2.0], np.float32))
    prims.AssignAdd()(x, tensor(np.array([1.0, 1.0], np.float32)))
    prims.AssignSub()(x, tensor(np.array([0.5, 0.5], np.float32)))
    ops_mod.assign_add(x, tensor(np.array([2.0, 2.0], np.float32)))
    y = x
    prims.Assign()(x, tensor(np.array([7.0, 8.0], np.float32)) * 1 + x)
    return x.asnumpy(), y.asnumpy()


def test_in_place_prims_on_a_tensor_match_mindspore_in_pynative():
    mindspore.set_context(mode=mindspore.PYNATIVE_MODE)
    ms.set_context(mode=ms.PYNATIVE_MODE)
    theirs = _in_place(mindspore, MP, msops, mindspore.Tensor)
    ours = _in_place(ms, P, ops, ms.Tensor)
    for a, b in zip(ours, theirs):
        np.testing.assert_allclose(a, b)


def test_assign_add_on_a_tensor_input_is_written_back_from_a_jit_function():
    @ms.jit
    def bump(x, y):
        P.AssignAdd()(x, 1)
        x = x * 1
        P.AssignAdd()(x, y)
        return x, P.Cos()(x)

    x = ms.Tensor(2.0)
    out, cos = bump(x, ms.Tensor(3.0))
    assert float(out) == 6.0
    np.testing.assert_allclose(cos.asnumpy(), np.cos(6.0), rtol=1e-5)
    assert float(x) == 3.0  # the first AssignAdd wrote the caller's Tensor


def test_in_place_prims_reject_arrays_that_are_not_tensors():
    with pytest.raises(TypeError, match="For 'AssignAdd', 'variable' must be a Parameter or Tensor, got ndarray"):
        P.AssignAdd()(np.ones(2, np.float32), 1)
