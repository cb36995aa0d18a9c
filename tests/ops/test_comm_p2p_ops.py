"""Point-to-point and uneven collective Primitives in a construct (Send/Receive, NeighborExchange, AllGatherV,
ReduceScatterV): per device in DATA_PARALLEL over 8 virtual devices, MindSpore's per-rank numbers."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops
from mindjax.communication import management as comm
from mindjax.parallel.auto import collective_stats
from mindjax.transforms.jit import compiled_for_cell
from tests.ops.test_comm_ops import RANKS, per_rank


@pytest.fixture
def dp():
    comm.init()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    yield
    comm.release()


class SendReceive(nn.Cell):
    """Rank ``src`` sends its part to rank ``dest`` (MindSpore: two ranks' programs in one construct)."""

    def __init__(self, src, dest, shape, group=comm.HCCL_WORLD_COMM_GROUP):
        super().__init__()
        self.send = ops.Send(sr_tag=0, dest_rank=dest, group=group)
        self.recv = ops.Receive(sr_tag=0, src_rank=src, shape=list(shape), dtype=ms.float32, group=group)
        self.depend = ops.Depend()

    def construct(self, x):
        x = self.depend(x, self.send(x))
        return self.recv() + 0 * x


X = np.arange(RANKS * 2 * 3, dtype=np.float32).reshape(RANKS * 2, 3) + 1


def test_send_receive_moves_the_source_ranks_tensor_to_the_destination_only(dp):
    net = SendReceive(1, 3, (2, 3))
    out = np.split(net(ms.Tensor(X)).asnumpy(), RANKS)
    xs = per_rank(X)
    for r in range(RANKS):
        np.testing.assert_array_equal(out[r], xs[1] if r == 3 else np.zeros((2, 3), np.float32))


def test_send_receive_within_each_copy_of_a_group(dp, mode):
    comm.create_group("quad", [0, 1, 2, 3])
    net = SendReceive(0, 2, (2, 3), group="quad")        # group ranks: in [0..3] 0 -> 2, in [4..7] 4 -> 6
    out = np.split(net(ms.Tensor(X)).asnumpy(), RANKS)
    xs = per_rank(X)
    expected = {2: xs[0], 6: xs[4]}
    for r in range(RANKS):
        np.testing.assert_array_equal(out[r], expected.get(r, np.zeros((2, 3), np.float32)))


def test_receive_checks_shape_dtype_and_needs_its_send_first(dp):
    with pytest.raises(ValueError, match=r"For 'Receive', the received tensor must have the shape and dtype of the "
                                         r"one sent with tag \('sr_tag', 0\): expected \(2, 3\) float32, got "
                                         r"\(3, 2\) float32"):
        SendReceive(1, 3, (3, 2))(ms.Tensor(X))

    class ReceiveOnly(nn.Cell):
        def __init__(self):
            super().__init__()
            self.recv = ops.Receive(sr_tag=5, src_rank=0, shape=[2, 3], dtype=ms.float32)

        def construct(self, x):
            return self.recv() + x

    with pytest.raises(ValueError, match=r"For 'Receive', no send with tag \('sr_tag', 5\) in group "
                                         r"'hccl_world_group' ran before this receive"):
        ReceiveOnly()(ms.Tensor(X))
    with pytest.raises(ValueError, match=r"For 'Send', 'dest_rank' must be a rank of group 'hccl_world_group' "
                                         r"\(0 .. 7\), got 8"):
        SendReceive(0, 8, (2, 3))(ms.Tensor(X))


def test_send_outside_a_per_device_run_names_what_it_needs():
    with pytest.raises(ValueError, match="For 'Send', point-to-point communication needs several ranks"):
        ops.Send(0, 0)(ms.Tensor(np.ones(2, np.float32)))
    with pytest.raises(TypeError, match="For 'Receive', 'shape' must be a list of ints"):
        ops.Receive(0, 0, shape=2.5, dtype=ms.float32)


class Exchange(nn.Cell):
    def __init__(self, **kwargs):
        super().__init__()
        self.exchange = ops.NeighborExchange(**kwargs)

    def construct(self, x):
        left, right = self.exchange((x, x * 10))
        return ops.concat((left, right), 1)


def test_neighbor_exchange_shifts_around_the_ring_as_one_collective_permute_each(dp):
    # Each rank sends x to its right neighbour and 10x to its left one; it receives from both.
    net = Exchange(send_rank_ids=[1, -1], recv_rank_ids=[-1, 1], recv_shapes=([2, 3], [2, 3]),
                   send_shapes=([2, 3], [2, 3]), recv_type=ms.float32)
    out = np.split(net(ms.Tensor(X)).asnumpy(), RANKS)
    xs = per_rank(X)
    for r in range(RANKS):
        np.testing.assert_array_equal(out[r][:, :3], xs[(r - 1) % RANKS])        # from the left: its x
        np.testing.assert_array_equal(out[r][:, 3:], 10 * xs[(r + 1) % RANKS])   # from the right: its 10x
    ms.set_context(mode=ms.GRAPH_MODE)
    hlo = compiled_for_cell(net).lower(X).compile().as_text()
    assert collective_stats(hlo)["collective-permute"]["count"] == 2


def test_neighbor_exchange_rejects_an_output_nothing_is_sent_for(dp):
    net = Exchange(send_rank_ids=[1, 2], recv_rank_ids=[1, -1], recv_shapes=([2, 3], [2, 3]),
                   send_shapes=([2, 3], [2, 3]), recv_type=ms.float32)
    with pytest.raises(ValueError, match=r"For 'NeighborExchange', output 0 is received from rank 1, but no input "
                                         r"is sent to the rank at offset -1 from it"):
        net(ms.Tensor(X))
    with pytest.raises(ValueError, match=r"'send_shapes' must hold one shape per 'send_rank_ids' \(2\), got 1"):
        ops.NeighborExchange([1, 2], [1], ([2, 3],), ([2, 3],), ms.float32)


class Uneven(nn.Cell):
    def __init__(self, prim, sizes):
        super().__init__()
        self.prim, self.sizes = prim, sizes

    def construct(self, x):
        return self.prim(x, self.sizes)


V = np.arange(RANKS * 4, dtype=np.float32) + 1


def test_all_gather_v_joins_each_ranks_first_sizes_elements(dp):
    sizes = [1, 2, 3, 4, 0, 1, 2, 3]
    out = np.split(Uneven(ops.AllGatherV(), sizes)(ms.Tensor(V)).asnumpy(), RANKS)
    xs = per_rank(V)
    expected = np.concatenate([xs[r][:n] for r, n in enumerate(sizes)])
    for r in range(RANKS):
        np.testing.assert_array_equal(out[r], expected)
    with pytest.raises(ValueError, match=r"For 'AllGatherV', every rank's input must hold at least "
                                         r"max\(output_split_sizes\) = 5 elements"):
        Uneven(ops.AllGatherV(), [5, 0, 0, 0, 0, 0, 0, 0])(ms.Tensor(V))


def test_reduce_scatter_v_gives_rank_r_its_segment_and_rejects_uneven_sizes(dp):
    w = np.tile(np.arange(RANKS * 2, dtype=np.float32), RANKS)        # each rank: 0..15
    out = np.split(Uneven(ops.ReduceScatterV(), [2] * RANKS)(ms.Tensor(w)).asnumpy(), RANKS)
    for r in range(RANKS):
        np.testing.assert_array_equal(out[r], RANKS * np.arange(2 * r, 2 * r + 2, dtype=np.float32))
    with pytest.raises(ValueError, match=r"For 'ReduceScatterV', uneven 'input_split_sizes' \[1, 3, 2, 2, 2, 2, "
                                         r"2, 2\] would give the ranks outputs of different shapes"):
        Uneven(ops.ReduceScatterV(), [1, 3, 2, 2, 2, 2, 2, 2])(ms.Tensor(w))


def test_send_receive_gradient_flows_back_from_the_destination_to_the_source(dp):
    net = SendReceive(1, 3, (2, 3))
    grad = ms.grad(lambda x: (net(x) * 2).sum())(ms.Tensor(X))
    rows = np.split(grad.asnumpy(), RANKS)
    for r in range(RANKS):      # MindSpore's Send bprop: the destination's gradient received back at the source
        np.testing.assert_array_equal(rows[r], np.full((2, 3), 2.0 if r == 1 else 0.0, np.float32))
