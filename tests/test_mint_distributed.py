"""mindjax.mint.distributed: PyTorch-style process groups and in-place collectives over mindjax.communication."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.mint import distributed as dist

DATA = (np.arange(8 * 8 * 2, dtype=np.float32).reshape(64, 2) % 5) + 1


@pytest.fixture
def dp():
    """DATA_PARALLEL over the 8 virtual devices, the job joined through init_process_group."""
    dist.init_process_group()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    yield
    dist.destroy_process_group()


def test_process_group_queries(dp):
    assert dist.is_available() and dist.is_initialized()
    assert dist.get_rank() == 0 and dist.get_world_size() == 1 and dist.get_backend() == "gloo"
    assert dist.get_process_group_ranks() == [0]
    with pytest.raises(ValueError, match=r"For 'create_group', 'rank_ids' must hold at least 2 distinct ranks"):
        dist.new_group()  # one process: no group besides the world


def test_collectives_write_into_their_tensors_as_comm_func_computes(dp):
    x = ms.Tensor(DATA.copy())
    from mindjax.communication import comm_func
    want, _ = comm_func.all_reduce(ms.Tensor(DATA))
    assert dist.all_reduce(x) is None
    np.testing.assert_array_equal(x.asnumpy(), want.asnumpy())

    gathered, _ = comm_func.all_gather_into_tensor(ms.Tensor(DATA))
    out = ms.Tensor(np.zeros(gathered.shape, np.float32))
    handle = dist.all_gather_into_tensor(out, ms.Tensor(DATA), async_op=True)
    assert handle.wait() and handle.is_completed()
    np.testing.assert_array_equal(out.asnumpy(), gathered.asnumpy())

    scattered, _ = comm_func.reduce_scatter_tensor(ms.Tensor(DATA))
    out = ms.Tensor(np.zeros(scattered.shape, np.float32))
    dist.reduce_scatter_tensor(out, ms.Tensor(DATA))
    np.testing.assert_array_equal(out.asnumpy(), scattered.asnumpy())

    y = ms.Tensor(DATA.copy())
    dist.broadcast(y, 3)
    np.testing.assert_array_equal(y.asnumpy(), comm_func.broadcast(ms.Tensor(DATA), 3).asnumpy())
    assert dist.barrier() is None


def test_bad_arguments_name_the_function(dp):
    with pytest.raises(ValueError, match=r"For 'all_gather_into_tensor', 'output_tensor' must have "
                                         r"shape \(512, 2\), but got \(64, 2\)"):
        dist.all_gather_into_tensor(ms.Tensor(DATA), ms.Tensor(DATA))
    with pytest.raises(TypeError, match=r"For 'all_reduce', 'tensor' must be a Tensor"):
        dist.all_reduce(DATA)
    with pytest.raises(ValueError, match=r"'world_size' is 4, but the job's environment says 1"):
        dist.init_process_group(world_size=4)
