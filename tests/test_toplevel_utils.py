"""Top-level helpers MindSpore 2.10 has: swap_tensors, from_dlpack/to_dlpack, set_dump, tools and utils."""
import warnings

import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops


def test_swap_tensors_swaps_data_class_and_attributes_keeping_identities():
    a, b = ms.Tensor([1.0]), ms.Tensor([2, 3])
    ids = id(a), id(b)
    ms.swap_tensors(a, b)
    assert (a.tolist(), b.tolist()) == ([2, 3], [1.0]) and (id(a), id(b)) == ids
    p = ms.Parameter(ms.Tensor([1.0]), name="p")
    q = ms.Parameter(ms.Tensor([5.0]), name="q")
    ms.swap_tensors(p, q)
    assert (p.name, p.tolist(), q.name, q.tolist()) == ("q", [5.0], "p", [1.0])


def test_swap_tensors_rejects_what_it_can_not_swap():
    with pytest.raises(TypeError, match="For 'swap_tensors', 't2' must be a Tensor, but got int."):
        ms.swap_tensors(ms.Tensor([1.0]), 1)
    with pytest.raises(RuntimeError, match="lay out different slots"):
        ms.swap_tensors(ms.Tensor([1.0]), ms.Parameter(ms.Tensor([1.0]), name="w"))


def test_dlpack_round_trip_shares_the_data():
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    exported = ms.to_dlpack(x)
    assert hasattr(exported, "__dlpack__")
    back = ms.from_dlpack(exported)
    np.testing.assert_array_equal(back.asnumpy(), x.asnumpy())
    np.testing.assert_array_equal(np.from_dlpack(exported), x.asnumpy())
    assert ms.from_dlpack(np.arange(3, dtype=np.int32)).dtype == ms.int32
    assert ms.utils.dlpack.to_dlpack is ms.to_dlpack


def test_dlpack_errors_name_what_is_expected():
    with pytest.raises(TypeError, match="For 'from_dlpack', 'dlpack' must be an object with __dlpack__.*PyCapsule"):
        ms.from_dlpack(jax.numpy.arange(2).__dlpack__())
    with pytest.raises(TypeError, match="For 'to_dlpack', 'tensor' must be a Tensor, but got list."):
        ms.to_dlpack([1])


def test_set_dump_flags_the_cell_tree_and_warns_that_nothing_is_written():
    net = nn.SequentialCell([nn.Dense(2, 2), nn.ReLU()])
    with pytest.warns(UserWarning, match="writes no tensor dumps.*jax.debug.print.*--xla_dump_to"):
        ms.set_dump(net)
    assert all(cell._flags.get("dump") is True for _, cell in net.cells_and_names())
    prim = ops.Add()
    with pytest.warns(UserWarning):
        ms.set_dump(prim, enabled=False)
    assert prim.attrs["dump"] == "false"
    with pytest.raises(ValueError, match='The "target" parameter must be an instance of Cell or Primitive'):
        ms.set_dump(3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(ValueError, match='^The "enabled" parameter must be bool.$'):
            ms.set_dump(net, enabled=1)
    from mindjax.common.dump import set_dump
    assert set_dump is ms.set_dump is ms.tools.set_dump


@pytest.mark.parametrize("name", ["stress_detect", "sdc_detect_start", "sdc_detect_stop", "get_sdc_detect_result"])
def test_ascend_detectors_raise_naming_why(name):
    with pytest.raises(NotImplementedError, match=f"'{name}' checks Ascend chips"):
        getattr(ms.tools, name)()


def test_exit_by_request_names_the_callback_way_to_stop():
    with pytest.raises(NotImplementedError, match="run_context.request_stop"):
        ms.utils.ExitByRequest()
