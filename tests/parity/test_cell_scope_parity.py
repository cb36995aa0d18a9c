"""Cell.get_scope / generate_scope / recompute's scope prefix match MindSpore 2.10's."""
import mindspore
import pytest

import mindjax


def _net(nn):
    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.pool = nn.MaxPool2d(kernel_size=2, stride=2)
            self.seq = nn.SequentialCell([nn.ReLU()])

        def construct(self, x):
            return self.seq(self.pool(x))
    return Net()


def _scopes(net):
    return [net.get_scope(), net.pool.get_scope(), net.seq.get_scope(), net.seq[0].get_scope()]


@pytest.mark.parametrize("kwargs", [{}, {"mp_comm_recompute": True}, {"mp_comm_recompute": False}])
def test_recompute_prefixes_the_scope(kwargs):
    ours, theirs = _net(mindjax.nn), _net(mindspore.nn)
    ours.pool.recompute(**kwargs)
    theirs.pool.recompute(**kwargs)
    assert ours.pool.get_scope() == theirs.pool.get_scope() == "recompute_"
    assert _scopes(ours) == _scopes(theirs)


def test_generate_scope_names_every_cell_below():
    ours, theirs = _net(mindjax.nn), _net(mindspore.nn)
    for net in (ours, theirs):
        net.pool.recompute()
        net.generate_scope()
        net.pool.recompute()  # a second recompute keeps one prefix
    assert _scopes(ours) == _scopes(theirs)
    assert ours.seq[0].get_scope() == "Default/seq-SequentialCell/0-ReLU"
    assert ours.pool.get_scope() == "recompute_Default/pool-MaxPool2d"
