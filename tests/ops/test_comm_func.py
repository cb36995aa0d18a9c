"""ops' collectives (MindSpore's ``ops.function.comm_func``): in place by default, the functional forms behind
``set_comm_ops_inplace(False)``, the rooted tensor forms, and the object collectives (one process)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.mint import distributed as dist
from mindjax.parallel import per_device

RANKS = 8
X = np.arange(RANKS * 2 * 3, dtype=np.float32).reshape(RANKS * 2, 3) + 1   # rank r holds rows 2r, 2r+1
XS = np.split(X, RANKS)


@pytest.fixture
def dp():
    ops.init_process_group()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    yield
    ops.destroy_process_group()


@pytest.fixture
def functional():
    ops.set_comm_ops_inplace(False)
    yield
    ops.set_comm_ops_inplace(True)


def parts(out):
    return np.split(np.asarray(out.asnumpy() if hasattr(out, "asnumpy") else out), RANKS)


def test_ops_and_mint_distributed_share_one_implementation():
    names = ["all_gather", "all_to_all", "all_to_all_single", "barrier", "batch_isend_irecv", "broadcast", "send",
             "recv", "isend", "irecv", "reduce", "reduce_scatter", "init_process_group", "new_group", "get_rank",
             "get_world_size", "get_backend", "is_available", "is_initialized", "all_gather_object",
             "broadcast_object_list", "gather_object", "scatter_object_list", "send_object_list",
             "recv_object_list", "all_reduce", "all_gather_into_tensor_uneven", "P2POp"]
    for name in names:
        assert getattr(ops, name) is getattr(dist, name), name
    from mindjax.ops import communication
    assert communication.gather is dist.gather and communication.scatter_tensor is ops.scatter_tensor
    assert ops.gather is not dist.gather  # ops.gather is the tensor op


def test_in_place_by_default_returns_the_handle_and_writes_the_tensor(dp):
    x = ms.Tensor(X.copy())
    assert ops.all_reduce(x) is None
    for r, part in enumerate(parts(x)):
        np.testing.assert_array_equal(part, sum(XS))
    x = ms.Tensor(X.copy())
    handle = ops.broadcast(x, 3, async_op=True)
    assert handle.wait() and handle.is_completed()
    for part in parts(x):
        np.testing.assert_array_equal(part, XS[3])


def test_set_comm_ops_inplace_switches_to_the_functional_forms(dp, functional):
    out, handle = ops.all_reduce(ms.Tensor(X))
    assert handle is None
    np.testing.assert_array_equal(parts(out)[5], sum(XS))
    with pytest.raises(ValueError, match=r"For 'broadcast', the non-inplace mode \(set_comm_ops_inplace\(False\)\) "
                                         r"is not supported"):
        ops.broadcast(ms.Tensor(X), 0)
    ops.set_comm_ops_inplace(True, ["broadcast"])
    assert ops.broadcast(ms.Tensor(X), 0) is None
    out, _ = ops.all_reduce(ms.Tensor(X))  # the others stay functional
    assert out.shape == X.shape


def test_set_comm_ops_inplace_checks_its_arguments():
    with pytest.raises(TypeError, match=r"For 'set_comm_ops_inplace', the argument 'is_enable' must be type of "
                                        r"bool, but got 'is_enable' type : <class 'int'>"):
        ops.set_comm_ops_inplace(1)
    with pytest.raises(TypeError, match=r"'func_list' must be a list or tuple, but got str"):
        ops.set_comm_ops_inplace(False, "all_reduce")
    with pytest.raises(ValueError, match=r"must be one of .*'all_reduce'.*, but got 'all_reduce_x'"):
        ops.set_comm_ops_inplace(False, ["all_reduce", "all_reduce_x"])
    out = ms.Tensor(np.ones(2, np.float32))
    assert ops.all_reduce(out) is None  # nothing was switched by the failed call


def test_gather_into_tensor_scatter_tensor_and_all_to_all_v_c(dp):
    @per_device
    def step(x):
        gathered = ops.zeros((RANKS * 2, 3), ms.float32) - 1
        ops.gather_into_tensor(gathered, x, dst=2)
        scattered = ops.zeros((2, 3), ms.float32)
        ops.scatter_tensor(scattered, ops.concat([x * 0 + i for i in range(RANKS)], 0), src=6)
        flat = ops.zeros((RANKS * 6,), ms.float32)
        ops.all_to_all_v_c(flat, ops.concat([x + 100 * j for j in range(RANKS)], 0), [6] * (RANKS * RANKS))
        return gathered, scattered, flat

    gathered, scattered, flat = (parts(o) for o in step(ms.Tensor(X)))
    for r in range(RANKS):
        np.testing.assert_array_equal(gathered[r], X if r == 2 else -np.ones((RANKS * 2, 3), np.float32))
        np.testing.assert_array_equal(scattered[r], np.full((2, 3), r, np.float32))
        np.testing.assert_array_equal(flat[r], np.concatenate([(XS[j] + 100 * r).reshape(-1) for j in range(RANKS)]))


def test_functional_all_to_all_and_recv(dp, functional):
    @per_device
    def step(x):
        outs, handle = ops.all_to_all([(2, 3)] * RANKS, [x * 10 + i for i in range(RANKS)])
        assert handle is None and len(outs) == RANKS
        single, _ = ops.all_to_all_single(None, ops.concat([x + i for i in range(RANKS)], 0))
        ops.send(x, dst=4)
        got = ops.recv(ops.zeros_like(x), src=1)
        ops.isend(x * 3, dst=0)
        got2, handle2 = ops.irecv(ops.zeros_like(x), src=7)
        assert handle2.wait()
        return ops.concat(list(outs), 1), single, got, got2

    exchanged, single, got, got2 = (parts(o) for o in step(ms.Tensor(X)))
    for r in range(RANKS):
        np.testing.assert_array_equal(exchanged[r], np.concatenate([XS[j] * 10 + r for j in range(RANKS)], 1))
        np.testing.assert_array_equal(single[r], np.concatenate([XS[j] + r for j in range(RANKS)], 0))
    np.testing.assert_array_equal(got[4], XS[1])
    np.testing.assert_array_equal(got2[0], 3 * XS[7])


def test_bad_arguments_name_the_function(dp):
    with pytest.raises(TypeError, match=r"For 'all_reduce', the argument 'group' must be type of string, but got "
                                        r"'group' type : <class 'int'>"):
        ops.all_reduce(ms.Tensor(X), group=1)
    with pytest.raises(TypeError, match=r"For 'all_gather', the argument 'async_op' must be a bool"):
        ops.all_gather([ms.Tensor(X)], ms.Tensor(X), async_op="yes")
    with pytest.raises(TypeError, match=r"For 'gather_into_tensor', 'input_tensor' must be a Tensor, but got "
                                        r"ndarray"):
        ops.gather_into_tensor(ms.Tensor(X), X)
    with pytest.raises(ValueError, match=r"For 'gather_into_tensor', rank 3 is not in group 'hccl_world_group'"):
        ops.gather_into_tensor(ms.Tensor(X), ms.Tensor(X), dst=3)
    with pytest.raises(TypeError, match=r"For 'all_to_all_v_c', 'send_count_matrix' must be a square matrix of "
                                        r"1 x 1 counts \(1\), but got 4"):
        ops.all_to_all_v_c(ms.Tensor(X), ms.Tensor(X), [1, 1, 1, 1])
    with pytest.raises(TypeError, match=r"For 'all_to_all_v_c', 'send_count_matrix' must be a list of int"):
        ops.all_to_all_v_c(ms.Tensor(X), ms.Tensor(X), (1,))

    @per_device
    def uneven(x):
        out = ops.zeros((RANKS * 2,), ms.float32)
        ops.all_to_all_v_c(out, x, [1, 3] * (RANKS * RANKS // 2))
        return out

    with pytest.raises(ValueError, match=r"For 'all_to_all_v_c', uneven 'send_count_matrix'"):
        uneven(ms.Tensor(np.ones((RANKS * 2, 1), np.float32)))


def test_object_collectives_in_one_process(dp):
    got = [None]
    ops.all_gather_object(got, {"a": 1})
    assert got == [{"a": 1}]
    items = ["x", 2, (3,)]
    ops.broadcast_object_list(items, src=0)
    assert items == ["x", 2, [3]]  # objects travel as JSON data (never pickled): a tuple comes back a list
    with pytest.raises(TypeError, match="the object must be JSON data"):
        ops.all_gather_object([None], object())
    at_root = [None]
    ops.gather_object([1, 2], at_root, dst=0)
    assert at_root == [[1, 2]]
    out = [None]
    ops.scatter_object_list(out, [{"rank": 0}], src=0)
    assert out == [{"rank": 0}]
    ops.send_object_list([1, "two"], dst=0)
    ops.send_object_list([3, "four"], dst=0)
    first, second = [None, None], [None, None]
    assert ops.recv_object_list(first, src=0) == 0 and ops.recv_object_list(second, src=0) == 0
    assert first == [1, "two"] and second == [3, "four"]  # in the order they were sent


def test_object_collectives_check_their_arguments(dp):
    with pytest.raises(ValueError, match=r"For 'all_gather_object', 'object_list' must hold 1 items \(one per rank "
                                         r"of the group\), but got 2"):
        ops.all_gather_object([None, None], 1)
    with pytest.raises(TypeError, match=r"For 'broadcast_object_list', 'object_list' must be a list, but got tuple"):
        ops.broadcast_object_list((1,), src=0)
    with pytest.raises(ValueError, match=r"For 'gather_object', 'dst' 1 is not a rank of the group \[0\]"):
        ops.gather_object(1, [None], dst=1)
    with pytest.raises(TypeError, match=r"For 'send_object_list', 'dst' must be an int, but got str"):
        ops.send_object_list([1], dst="0")
    with pytest.raises(RuntimeError, match=r"For 'recv_object_list', nothing was sent from rank 0"):
        ops.recv_object_list([None], src=0)

    @per_device
    def inside(x):
        ops.all_gather_object([None], 1)
        return x

    with pytest.raises(RuntimeError, match=r"For 'all_gather_object', Python objects move between processes, not "
                                           r"inside a per-device run"):
        inside(ms.Tensor(X))


W = np.arange(12, dtype=np.float32).reshape(3, 4) / 10


def test_all_gather_matmul_and_matmul_reduce_scatter(dp):
    world = "hccl_world_group"

    @per_device
    def step(x, big):
        out, gathered = ops.all_gather_matmul(x, ms.Tensor(W), world, RANKS)
        out_t, empty = ops.all_gather_matmul(x, ms.Tensor(W.T.copy()), world, RANKS, gather_output=False,
                                             trans_x2=True)
        assert tuple(empty.shape) == (0,)
        return out, gathered, out_t, ops.matmul_reduce_scatter(big, ms.Tensor(W), world, RANKS)

    big = np.arange(RANKS * RANKS * 3, dtype=np.float32).reshape(RANKS * RANKS, 3) % 7
    out, gathered, out_t, scattered = (parts(o) for o in step(ms.Tensor(X), ms.Tensor(big)))
    total = sum(np.split(big, RANKS)) @ W
    for r in range(RANKS):
        np.testing.assert_allclose(out[r], X @ W, rtol=1e-5)
        np.testing.assert_array_equal(gathered[r], X)
        np.testing.assert_allclose(out_t[r], X @ W, rtol=1e-5)
        np.testing.assert_allclose(scattered[r], total[r:r + 1], rtol=1e-5)


def test_fused_matmul_collectives_check_their_arguments(dp):
    x, w = ms.Tensor(X), ms.Tensor(W)
    with pytest.raises(ValueError, match=r"For 'all_gather_matmul', 'world_size' must be the number of ranks of "
                                         r"group 'hccl_world_group', 1, but got 2"):
        ops.all_gather_matmul(x, w, "hccl_world_group", 2)
    with pytest.raises(ValueError, match=r"For 'all_gather_matmul', only gather_index=0 is supported \(as in "
                                         r"MindSpore\), but got 1"):
        ops.all_gather_matmul(x, w, "hccl_world_group", 1, gather_index=1)
    with pytest.raises(ValueError, match=r"For 'matmul_reduce_scatter', only reduce_op='sum' is supported"):
        ops.matmul_reduce_scatter(x, w, "hccl_world_group", 1, reduce_op="max")
    with pytest.raises(TypeError, match=r"For 'matmul_reduce_scatter', 'x2' must have the dtype of 'input', "
                                        r"Float32, but got Float16"):
        ops.matmul_reduce_scatter(x, ms.Tensor(W, ms.float16), "hccl_world_group", 1)
    with pytest.raises(ValueError, match=r"For 'all_gather_matmul', 'input' must be 2-D, but got shape \(16,\)"):
        ops.all_gather_matmul(ms.Tensor(X.ravel()[:16]), w, "hccl_world_group", 1)
    with pytest.raises(ValueError, match=r"For 'matmul_reduce_scatter', 'x2' must have 3 rows \(the columns of "
                                         r"'input'\), but got shape \(4, 3\)"):
        ops.matmul_reduce_scatter(x, ms.Tensor(W.T.copy()), "hccl_world_group", 1)
