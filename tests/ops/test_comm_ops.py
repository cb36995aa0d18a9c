"""Collective Primitives in a construct: per device in DATA_PARALLEL, MindSpore's per-rank numbers (8 devices)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops
from mindjax.communication import management as comm

RANKS = 8


@pytest.fixture
def dp():
    """DATA_PARALLEL over the 8 virtual devices, with communication initialised."""
    comm.init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    yield
    comm.release()


def per_rank(x):
    """The ranks' inputs: rank r holds slice r of the first dimension."""
    return np.split(np.asarray(x), RANKS)


def copies(members):
    """Each rank's copy of the group (the group shifted to tile the ranks), as in MindJAX's layout."""
    table = {}
    for d in range(RANKS):
        if d in table:
            continue
        copy = [d + m - min(members) for m in members]
        for r in copy:
            table[r] = copy
    return table


class Tupled:
    """A Broadcast to be called on a one-tensor tuple."""

    def __init__(self, prim):
        self.prim = prim


class One(nn.Cell):
    """A Cell applying one collective Primitive to its input."""

    def __init__(self, prim):
        super().__init__()
        self.tupled = isinstance(prim, Tupled)
        self.prim = prim.prim if self.tupled else prim

    def construct(self, x):
        return self.prim((x,))[0] if self.tupled else self.prim(x)


def run(prim, x):
    return One(prim)(ms.Tensor(x)).asnumpy()


DATA = (np.arange(RANKS * 8 * 8, dtype=np.float32).reshape(RANKS * 8, 8) % 7) + 1


@pytest.mark.parametrize("members", [None, [0, 1, 2, 3], [0, 4], [1, 0], [3, 2, 1, 0]],
                         ids=["world", "quad", "stride4", "pair-reversed", "quad-reversed"])
def test_all_reduce_sums_each_group_copy_as_mindspore_ranks(dp, members, mode):
    group = comm.HCCL_WORLD_COMM_GROUP
    if members is not None:
        group = "g" + "_".join(map(str, members))
        comm.create_group(group, members)
    out = np.split(run(ops.AllReduce(group=group), DATA), RANKS)
    xs = per_rank(DATA)
    table = copies(members or list(range(RANKS)))
    for r in range(RANKS):
        np.testing.assert_allclose(out[r], sum(xs[m] for m in table[r]))


@pytest.mark.parametrize("op,reduce", [("max", np.maximum.reduce), ("min", np.minimum.reduce),
                                       ("prod", np.multiply.reduce), ("avg", lambda s: np.mean(s, 0))])
def test_all_reduce_other_ops(dp, op, reduce):
    comm.create_group("quad", [0, 1, 2, 3])
    out = np.split(run(ops.AllReduce(op, "quad"), DATA), RANKS)
    xs = per_rank(DATA)
    for r in range(RANKS):
        members = [0, 1, 2, 3] if r < 4 else [4, 5, 6, 7]
        np.testing.assert_allclose(out[r], reduce(np.stack([xs[m] for m in members])), rtol=1e-6)


@pytest.mark.parametrize("members", [None, [0, 4], [1, 0]], ids=["world", "stride4", "pair-reversed"])
def test_all_gather_concatenates_in_group_rank_order(dp, members):
    group = comm.HCCL_WORLD_COMM_GROUP
    if members is not None:
        group = "g" + "_".join(map(str, members))
        comm.create_group(group, members)
    out = np.split(run(ops.AllGather(group), DATA), RANKS)
    xs = per_rank(DATA)
    table = copies(members or list(range(RANKS)))
    for r in range(RANKS):
        np.testing.assert_array_equal(out[r], np.concatenate([xs[m] for m in table[r]]))


@pytest.mark.parametrize("members", [None, [0, 1, 2, 3], [3, 2, 1, 0]], ids=["world", "quad", "quad-reversed"])
def test_reduce_scatter_gives_rank_i_the_ith_slice_of_the_sum(dp, members):
    group = comm.HCCL_WORLD_COMM_GROUP
    if members is not None:
        group = "g" + "_".join(map(str, members))
        comm.create_group(group, members)
    out = np.split(run(ops.ReduceScatter(ops.ReduceOp.SUM, group), DATA), RANKS)
    xs = per_rank(DATA)
    table = copies(members or list(range(RANKS)))
    for r in range(RANKS):
        total = sum(xs[m] for m in table[r])
        np.testing.assert_allclose(out[r], np.split(total, len(table[r]))[table[r].index(r)])


@pytest.mark.parametrize("members,root", [(None, 3), ([0, 1, 2, 3], 2), ([1, 0], 0)],
                         ids=["world", "quad", "pair-reversed"])
def test_broadcast_sends_the_root_rank_tuple(dp, members, root):
    group = comm.HCCL_WORLD_COMM_GROUP
    if members is not None:
        group = "g" + "_".join(map(str, members))
        comm.create_group(group, members)

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.broadcast = ops.Broadcast(root, group)

        def construct(self, x, y):
            return self.broadcast((x, y))

    a, b = Net()(ms.Tensor(DATA), ms.Tensor(DATA * 2))
    outs = np.split(a.asnumpy(), RANKS), np.split(b.asnumpy(), RANKS)
    xs = per_rank(DATA)
    members = members or list(range(RANKS))
    table = copies(members)
    for r in range(RANKS):
        sender = table[r][members.index(root)]
        np.testing.assert_array_equal(outs[0][r], xs[sender])
        np.testing.assert_array_equal(outs[1][r], xs[sender] * 2)


@pytest.mark.parametrize("members", [None, [0, 4], [1, 0]], ids=["world", "stride4", "pair-reversed"])
@pytest.mark.parametrize("split_dim,concat_dim", [(0, 1), (1, 0), (1, 1)])
def test_all_to_all_exchanges_blocks(dp, members, split_dim, concat_dim):
    group = comm.HCCL_WORLD_COMM_GROUP
    if members is not None:
        group = "g" + "_".join(map(str, members))
        comm.create_group(group, members)
    size = len(members or range(RANKS))
    out = np.split(run(ops.AlltoAll(size, split_dim, concat_dim, group), DATA), RANKS)
    xs = per_rank(DATA)
    table = copies(members or list(range(RANKS)))
    for r in range(RANKS):
        j = table[r].index(r)
        expect = np.concatenate([np.split(xs[m], size, axis=split_dim)[j] for m in table[r]], axis=concat_dim)
        np.testing.assert_array_equal(out[r], expect)


def test_a_group_that_is_no_mesh_axis_runs_by_gathering():
    """6 devices (mesh 2x3): ranks [0, 1] are no mesh axis, their copies [2, 3], [4, 5] still tile the devices."""
    comm.init()
    try:
        ms.set_auto_parallel_context(parallel_mode="data_parallel", device_num=6)
        comm.create_group("pair", [0, 1])
        x = np.arange(6 * 2 * 3, dtype=np.float32).reshape(12, 3)
        out = np.split(run(ops.AllReduce(group="pair"), x), 6)
        xs = np.split(x, 6)
        for r in range(6):
            base = r - r % 2
            np.testing.assert_allclose(out[r], xs[base] + xs[base + 1])
    finally:
        comm.release()


def test_rank_and_group_size_inside_a_per_device_construct(dp):
    comm.create_group("quad", [0, 1, 2, 3])

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.all_reduce = ops.AllReduce()

        def construct(self, x):
            world = comm.get_rank() * 10 + comm.get_group_size()
            return self.all_reduce(x), (world + comm.get_rank("quad") * 100).reshape(1)

    _, ranks = Net()(ms.Tensor(DATA))
    np.testing.assert_array_equal(ranks.asnumpy(), [r * 10 + 8 + (r % 4) * 100 for r in range(RANKS)])


def test_collectives_are_the_identity_with_one_rank(mode):
    x = ms.Tensor(DATA)
    np.testing.assert_array_equal(run(ops.AllReduce(), DATA), DATA)
    np.testing.assert_array_equal(run(ops.AllGather(), DATA), DATA)
    np.testing.assert_array_equal(run(ops.ReduceScatter(), DATA), DATA)
    np.testing.assert_array_equal(run(ops.AlltoAll(1, 0, 1), DATA), DATA)
    np.testing.assert_array_equal(ops.Broadcast(0)((x,))[0].asnumpy(), DATA)
    assert ops.Barrier()() is None


def test_a_primitive_called_alone_in_data_parallel_runs_per_device(dp):
    out = np.split(ops.AllReduce()(ms.Tensor(DATA)).asnumpy(), RANKS)
    np.testing.assert_allclose(out[5], sum(per_rank(DATA)))


def test_all_reduce_gradient_is_mindsporess_all_reduce_of_the_output_gradient(dp):
    """MindSpore's AllReduce bprop: dx = AllReduce(dout); each rank's input gets the sum of the ranks' dout."""

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.all_reduce = ops.AllReduce()

        def construct(self, x, w):
            return (self.all_reduce(x * w) * w).sum()

    def grad_of_x(x, w):
        return ms.grad(lambda a: Net()(a, w))(x)

    x = ms.Tensor(np.ones((8, 1), np.float32))
    w = ms.Tensor(np.arange(1, 9, dtype=np.float32).reshape(8, 1))
    # Rank r: loss_r = w_r * sum_j x_j w_j; the objective is the ranks' mean (the run averages scalars):
    # d/dx_r = w_r * sum_j w_j / 8.
    got = grad_of_x(x, w).asnumpy().ravel()
    np.testing.assert_allclose(got, np.arange(1, 9) * 36 / 8, rtol=1e-6)


def test_bad_collective_arguments_name_the_primitive(dp):
    with pytest.raises(ValueError, match=r"For 'AllReduce', the 'op' must be one of"):
        ops.AllReduce("mean")
    with pytest.raises(TypeError, match=r"For 'AllGather', the 'group' must be str"):
        ops.AllGather(3)
    with pytest.raises(ValueError, match=r"the group 'nope' does not exist"):
        run(ops.AllReduce(group="nope"), DATA)
    with pytest.raises(ValueError, match=r"For 'AlltoAll', 'split_count' must equal the size 8"):
        run(ops.AlltoAll(4, 0, 1), DATA)
    with pytest.raises(ValueError, match=r"For 'ReduceScatter', the first dimension .* group size 8, "
                                         r"got shape \(2, 8\)"):
        run(ops.ReduceScatter(), DATA[:16])
    with pytest.raises(ValueError, match=r"splits each input along its first dimension.*shape \(12, 8\)"):
        run(ops.AllReduce(), DATA[:12])
    comm.create_group("shifty", [0, 3])
    with pytest.raises(ValueError, match=r"group 'shifty' \[0, 3\] can not run on every device"):
        run(ops.AllReduce(group="shifty"), DATA)
    comm.create_group("quad", [0, 1, 2, 3])
    with pytest.raises(ValueError, match=r"For 'Broadcast', 'root_rank' 5 is not a rank of group 'quad'"):
        run(Tupled(ops.Broadcast(5, "quad")), DATA)
    with pytest.raises(TypeError, match=r"For 'Broadcast', the input must be a tuple of tensors"):
        run(ops.Broadcast(0), DATA)


def test_a_created_group_outside_a_per_device_run_is_an_error():
    comm.init()
    try:
        comm.create_group("pair", [0, 1])
        with pytest.raises(ValueError, match=r"For 'AllReduce', group 'pair' has 2 ranks, but this call does "
                                             r"not run per device"):
            ops.AllReduce(group="pair")(ms.Tensor(DATA))
    finally:
        comm.release()


def test_semi_auto_parallel_refuses_collectives_naming_the_mode():
    ms.set_auto_parallel_context(parallel_mode="semi_auto_parallel")
    with pytest.raises(ValueError, match=r"For 'AllReduce', a collective runs per device, which "
                                         r"semi_auto_parallel does not do"):
        run(ops.AllReduce(), DATA)


@pytest.fixture
def functional():
    """MindSpore's non-inplace forms of the ops collectives (set_comm_ops_inplace(False))."""
    ops.set_comm_ops_inplace(False)
    yield
    ops.set_comm_ops_inplace(True)


def test_functional_forms_return_mindspore_output_and_handle(dp, functional):
    from mindjax.communication import comm_func

    x = ms.Tensor(DATA)
    xs = per_rank(DATA)
    out, handle = ops.all_reduce(x)
    assert handle is None
    np.testing.assert_allclose(np.split(out.asnumpy(), RANKS)[2], sum(xs))
    out, _ = comm_func.all_gather_into_tensor(x)
    np.testing.assert_array_equal(np.split(out.asnumpy(), RANKS)[0], np.concatenate(xs))
    out, _ = ops.reduce_scatter_tensor(None, x)
    np.testing.assert_allclose(np.split(out.asnumpy(), RANKS)[3], np.split(sum(xs), RANKS)[3])
    out = comm_func.broadcast(x, 6)
    np.testing.assert_array_equal(np.split(out.asnumpy(), RANKS)[1], xs[6])
    assert comm_func.barrier() is None
    with pytest.raises(TypeError, match=r"For 'all_reduce', the argument 'async_op' must be a bool"):
        ops.all_reduce(x, async_op=1)
    with pytest.raises(TypeError, match=r"For 'broadcast', the src must be int"):
        comm_func.broadcast(x, "0")
