"""mindjax.mint.distributed's list, rooted and point-to-point functions in a per-device run (8 virtual devices, each a
rank): the numbers MindSpore's ranks compute."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.mint import distributed as dist
from mindjax.parallel import per_device

RANKS = 8
X = np.arange(RANKS * 2 * 3, dtype=np.float32).reshape(RANKS * 2, 3) + 1   # rank r holds rows 2r, 2r+1


@pytest.fixture
def dp():
    dist.init_process_group()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    yield
    dist.destroy_process_group()


def parts(out):
    return np.split(np.asarray(out.asnumpy() if hasattr(out, "asnumpy") else out), RANKS)


XS = np.split(X, RANKS)


def test_send_recv_static_peers_move_one_ranks_tensor(dp):
    @per_device
    def step(x):
        got = ops.zeros_like(x) - 1
        dist.send(x, dst=5)
        assert dist.recv(got, src=2) == 0
        return got

    out = parts(step(ms.Tensor(X)))
    for r in range(RANKS):
        np.testing.assert_array_equal(out[r], XS[2] if r == 5 else -np.ones((2, 3), np.float32))


def test_batch_isend_irecv_ring_with_peers_from_get_rank(dp):
    @per_device
    def ring(x):
        rank, size = dist.get_rank(), dist.get_world_size()
        got = ops.zeros_like(x)
        handles = dist.batch_isend_irecv([dist.P2POp(dist.irecv, got, (rank - 1 + size) % size),
                                          dist.P2POp("isend", x, (rank + 1) % size)])
        assert all(h.wait() for h in handles)
        return got

    out = parts(ring(ms.Tensor(X)))
    for r in range(RANKS):
        np.testing.assert_array_equal(out[r], XS[(r - 1) % RANKS])


def test_irecv_before_its_isend_completes_at_wait(dp):
    @per_device
    def step(x):
        got = ops.zeros_like(x)
        handle = dist.irecv(got, src=0)
        assert not handle.is_completed()
        dist.isend(x * 2, dst=1)
        handle.wait()
        return got

    out = parts(step(ms.Tensor(X)))
    np.testing.assert_array_equal(out[1], 2 * XS[0])
    np.testing.assert_array_equal(out[0], np.zeros((2, 3), np.float32))


def test_list_and_rooted_collectives(dp):
    @per_device
    def step(x):
        gathered = [ops.zeros_like(x) for _ in range(RANKS)]
        dist.all_gather(gathered, x)
        reduced = x * 1
        dist.reduce(reduced, dst=3)
        at_root = [ops.zeros_like(x) for _ in range(RANKS)]
        dist.gather(x, at_root, dst=6)
        scattered = ops.zeros_like(x)
        dist.scatter(scattered, [x + i for i in range(RANKS)], src=4)
        exchanged = [ops.zeros_like(x) for _ in range(RANKS)]
        dist.all_to_all(exchanged, [x * 10 + i for i in range(RANKS)])
        summed = ops.zeros_like(x)
        dist.reduce_scatter(summed, [x + i for i in range(RANKS)])
        return (ops.concat(gathered, 1), reduced, ops.concat(at_root, 1), scattered, ops.concat(exchanged, 1),
                summed)

    gathered, reduced, at_root, scattered, exchanged, summed = (parts(o) for o in step(ms.Tensor(X)))
    everyone = np.concatenate(XS, 1)
    total = sum(XS)
    for r in range(RANKS):
        np.testing.assert_array_equal(gathered[r], everyone)
        np.testing.assert_array_equal(reduced[r], total if r == 3 else XS[r])
        np.testing.assert_array_equal(at_root[r], everyone if r == 6 else np.zeros((2, 3 * RANKS), np.float32))
        np.testing.assert_array_equal(scattered[r], XS[4] + r)
        np.testing.assert_array_equal(exchanged[r], np.concatenate([XS[j] * 10 + r for j in range(RANKS)], 1))
        np.testing.assert_array_equal(summed[r], total + RANKS * r)


def test_single_and_uneven_variants(dp):
    @per_device
    def step(x):
        single = ops.zeros_like(ops.concat([x] * RANKS, 0))
        dist.all_to_all_single(single, ops.concat([x + i for i in range(RANKS)], 0))
        uneven = ops.zeros((sum(range(1, 3)) * 4, 3), ms.float32)
        dist.all_gather_into_tensor_uneven(uneven, x, output_split_sizes=[1, 2] * 4)
        return single, uneven

    single, uneven = (parts(o) for o in step(ms.Tensor(X)))
    for r in range(RANKS):
        np.testing.assert_array_equal(single[r], np.concatenate([XS[j] + r for j in range(RANKS)], 0))
        np.testing.assert_array_equal(uneven[r], np.concatenate([XS[j][:1 + j % 2] for j in range(RANKS)], 0))


def test_bad_p2p_and_uneven_arguments_name_the_function(dp):
    with pytest.raises(TypeError, match=r"For 'P2POp', 'op' must be 'isend' or 'irecv'"):
        dist.P2POp("send", ms.Tensor(X), 1)
    with pytest.raises(TypeError, match=r"'p2p_op_list' must be a non-empty list of P2POp"):
        dist.batch_isend_irecv([])
    with pytest.raises(ValueError, match=r"For 'send', point-to-point communication needs several "
                                         r"ranks"):
        ms.reset_auto_parallel_context()
        dist.send(ms.Tensor(X), dst=0)

    @per_device
    def uneven(x):
        out = ops.zeros_like(x)
        dist.all_to_all_single(out, x, input_split_sizes=[1, 1, 0, 0, 0, 0, 0, 0])
        return out

    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    with pytest.raises(ValueError, match=r"For 'all_to_all_single', uneven 'input_split_sizes'"):
        uneven(ms.Tensor(np.ones((RANKS * 8, 3), np.float32)))

    @per_device
    def bad_peer(x):
        dist.send(x, dst=9)
        return x

    with pytest.raises(ValueError, match=r"For 'send', 'dst' 9 is not a rank of group "
                                         r"'hccl_world_group'"):
        bad_peer(ms.Tensor(X))
