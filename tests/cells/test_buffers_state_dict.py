"""Cell buffers and state_dict: MindSpore 2.10's register_buffer / state_dict / load_state_dict."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import Tensor, nn
from mindjax.common.parameter import _Buffer


class _Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.buffer_0 = _Buffer(Tensor(np.array([1, 2, 3], np.float32)))
        self.register_buffer("buffer_1", Tensor(np.array([3, 4, 5], np.float32)))
        self.param_0 = ms.Parameter(Tensor(np.array([10, 20, 30], np.float32)))

    def construct(self, x):
        return (x + self.buffer_0) * self.buffer_1 + self.param_0


class _Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = _Inner()
        self.register_buffer("scratch", Tensor(np.zeros(3, np.float32)), persistent=False)
        self.dense = nn.Dense(3, 2)

    def construct(self, x):
        return self.dense(self.sub(x) + self.scratch)


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_buffers_are_attributes_listed_in_order_and_used_by_construct(mode):
    ms.set_context(mode=mode)
    net = _Inner()
    assert [k for k, _ in net.named_buffers()] == ["buffer_0", "buffer_1"]
    np.testing.assert_array_equal(net.buffer_1.asnumpy(), [3, 4, 5])
    out = net(Tensor(np.full(3, 2, np.float32)))
    np.testing.assert_array_equal(out.asnumpy(), [19, 36, 55])
    assert [p.name for p in net.get_parameters()] == ["param_0"]  # a buffer is no Parameter


def test_named_buffers_walk_children_with_paths_and_get_buffer_reads_a_path():
    net = _Outer()
    assert [k for k, _ in net.named_buffers()] == ["scratch", "sub.buffer_0", "sub.buffer_1"]
    assert [k for k, _ in net.named_buffers(recurse=False)] == ["scratch"]
    np.testing.assert_array_equal(net.get_buffer("sub.buffer_1").asnumpy(), [3, 4, 5])
    assert net.get_sub_cell("sub") is net.sub


def test_state_dict_holds_parameters_and_persistent_buffers_by_path():
    net = _Outer()
    state = net.state_dict()
    assert list(state) == ["sub.param_0", "sub.buffer_0", "sub.buffer_1", "dense.weight", "dense.bias"]
    assert state["sub.param_0"] is net.sub.param_0  # references, not copies


def test_load_state_dict_roundtrips_through_a_checkpoint(tmp_path):
    src, dst = _Outer(), _Outer()
    src.sub.buffer_1.assign_value(Tensor(np.array([7, 8, 9], np.float32)))
    path = str(tmp_path / "net.ckpt")
    ms.save_checkpoint(src.state_dict(), path)
    result = dst.load_state_dict(ms.load_checkpoint(path))
    assert result.missing_keys == [] and result.unexpected_keys == []
    for (name, a), (_, b) in zip(src.state_dict().items(), dst.state_dict().items()):
        np.testing.assert_array_equal(a.asnumpy(), b.asnumpy(), err_msg=name)


def test_state_dict_hooks_run_and_post_hook_sees_incompatible_keys():
    net = _Inner()
    seen = []
    net.register_state_dict_pre_hook(lambda cell, prefix, keep: seen.append(("pre", prefix)))

    def drop_buffer_0(cell, sd, prefix, meta):
        del sd["buffer_0"]

    handle = net.register_state_dict_post_hook(drop_buffer_0)
    assert "buffer_0" not in net.state_dict()
    handle.remove()
    assert "buffer_0" in net.state_dict()
    assert seen == [("pre", ""), ("pre", "")]
    bad = _Inner()
    bad.register_state_dict_post_hook(lambda cell, sd, prefix, meta: 1)
    with pytest.raises(RuntimeError, match="post-hook must return None"):
        bad.state_dict()
    got = []
    net.register_load_state_dict_post_hook(lambda cell, keys: got.append(list(keys.unexpected_keys)))
    net.load_state_dict({**net.state_dict(), "extra": Tensor([1.0])}, strict=False)
    assert got == [[]]  # not strict: nothing is reported


def test_strict_load_names_missing_and_unexpected_keys_and_changes_nothing():
    net = _Inner()
    before = net.param_0.asnumpy().copy()
    state = {"param_0": Tensor(np.zeros(3, np.float32)), "buffer_0": Tensor(np.zeros(3, np.float32)),
             "bogus": Tensor([1.0])}
    with pytest.raises(RuntimeError, match=r'Missing key\(s\) in state_dict: "buffer_1"') as err:
        net.load_state_dict(state)
    assert 'Unexpected key(s) in state_dict: "bogus"' in str(err.value)
    np.testing.assert_array_equal(net.param_0.asnumpy(), before)
    np.testing.assert_array_equal(net.buffer_0.asnumpy(), [1, 2, 3])
    result = net.load_state_dict(state, strict=False)
    assert result.missing_keys == [] and result.unexpected_keys == []
    np.testing.assert_array_equal(net.param_0.asnumpy(), [0, 0, 0])


def test_load_state_dict_reports_a_shape_mismatch_by_key():
    net = _Inner()
    state = dict(net.state_dict())
    state["param_0"] = Tensor(np.zeros(4, np.float32))
    with pytest.raises(RuntimeError, match=r"size mismatch for param_0: copying a param with shape \(4,\)"):
        net.load_state_dict(state)
    with pytest.raises(TypeError, match="Expected state_dict to be dict-like"):
        net.load_state_dict([1, 2])


def test_register_buffer_rejects_bad_names_and_values():
    net = _Inner()
    with pytest.raises(TypeError, match="buffer name should be a string"):
        net.register_buffer(2, Tensor([1.0]))
    with pytest.raises(KeyError, match='contain "."'):
        net.register_buffer("a.b", Tensor([1.0]))
    with pytest.raises(KeyError, match="empty string"):
        net.register_buffer("", Tensor([1.0]))
    with pytest.raises(KeyError, match="attribute 'param_0' already exists"):
        net.register_buffer("param_0", Tensor([1.0]))
    with pytest.raises(TypeError, match="mindspore Tensor or None required"):
        net.register_buffer("b", [1.0])
    with pytest.raises(AttributeError, match="has no attribute"):
        net.get_buffer("missing")
    with pytest.raises(TypeError, match="Buffer 'buffer_1' already exists"):
        net.buffer_1 = 3
    with pytest.raises(TypeError, match="type of input data should be Tensor"):
        _Buffer(np.ones(2))


def test_non_persistent_buffer_and_reassignment_and_delete():
    net = _Outer()
    assert "scratch" not in net.state_dict()
    net.sub.buffer_1 = Tensor(np.ones(3, np.float32))
    np.testing.assert_array_equal(net.get_buffer("sub.buffer_1").asnumpy(), [1, 1, 1])
    del net.sub.buffer_0
    assert [k for k, _ in net.sub.named_buffers()] == ["buffer_1"]


def test_builtin_cells_with_a_buffer_keep_their_own_program():
    ms.set_context(mode=ms.PYNATIVE_MODE)
    a, b = nn.ReLU(), nn.ReLU()
    x = Tensor(np.array([-1.0, 2.0], np.float32))
    a.register_buffer("offset", Tensor(np.ones(2, np.float32)))
    np.testing.assert_array_equal(a(x).asnumpy(), b(x).asnumpy())
    assert [k for k, _ in a.named_buffers()] == ["offset"] and list(b.named_buffers()) == []


@pytest.mark.parametrize("mode", [ms.GRAPH_MODE, ms.PYNATIVE_MODE])
def test_calling_a_cell_whose_init_skipped_super_names_the_fix(mode):
    ms.set_context(mode=mode)

    class NoSuper(nn.Cell):
        def __init__(self):  # noqa: super().__init__ deliberately not called
            self.a = 1

        def construct(self):
            return self.a

    with pytest.raises(AttributeError, match=r"'NoSuper' object does not inherit attribute from 'cell'\. "
                                             r"Please use 'super\(\).__init__\(\)'"):
        NoSuper()()
