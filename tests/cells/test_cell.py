"""Cell: MindSpore's naming, traversal, containers, modes, hooks and to_float."""
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


class Lin(nn.Cell):
    def __init__(self, i, o):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(np.ones((o, i)), ms.float32))
        self.bias = ms.Parameter(ms.Tensor(np.zeros(o), ms.float32))

    def construct(self, x):
        return x @ self.weight.T + self.bias


class Sub(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = Lin(3, 4)
        self.w = ms.Parameter(ms.Tensor(np.ones(2), ms.float32), name="explicit")
        self.v = ms.Parameter(ms.Tensor(np.ones(2), ms.float32))

    def construct(self, x):
        return self.fc(x)


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.sub = Sub()
        self.layers = nn.CellList([Lin(4, 4), nn.SequentialCell(), Lin(4, 2)])
        self.seq = nn.SequentialCell([Lin(2, 2), Lin(2, 2)])

    def construct(self, x):
        x = self.sub(x)
        for layer in self.layers:
            x = layer(x)
        return self.seq(x)


EXPECTED = ["sub.w", "sub.v", "sub.fc.weight", "sub.fc.bias", "layers.0.weight", "layers.0.bias",
            "layers.2.weight", "layers.2.bias", "seq.0.weight", "seq.0.bias", "seq.1.weight",
            "seq.1.bias"]


def test_parameter_names_follow_attribute_paths_like_mindspore():
    net = Net()
    assert [p.name for p in net.get_parameters()] == EXPECTED
    assert [n for n, _ in net.parameters_and_names()] == EXPECTED
    assert list(net.parameters_dict()) == EXPECTED


def test_cells_and_names_and_name_cells():
    net = Net()
    assert [n for n, _ in net.cells_and_names()] == [
        "", "sub", "sub.fc", "layers", "layers.0", "layers.1", "layers.2", "seq", "seq.0", "seq.1"]
    assert list(net.name_cells()) == ["sub", "layers", "seq"]


def test_top_level_named_parameter_keeps_its_name_until_nested():
    sub = Sub()
    assert [p.name for p in sub.get_parameters()] == ["explicit", "v", "fc.weight", "fc.bias"]


class NoPrefix(nn.Cell):
    def __init__(self):
        super().__init__(auto_prefix=False)
        self.inner = Sub()

    def construct(self, x):
        return self.inner(x)


class Outer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.m = NoPrefix()

    def construct(self, x):
        return self.m(x)


def test_auto_prefix_false_keeps_child_names_and_outer_prefix_recomputes():
    assert [p.name for p in NoPrefix().get_parameters()] == ["explicit", "v", "fc.weight", "fc.bias"]
    assert [p.name for p in Outer().get_parameters()] == [
        "m.inner.w", "m.inner.v", "m.inner.fc.weight", "m.inner.fc.bias"]


def test_insert_child_to_cell_does_not_rename():
    net = Sub()
    net.insert_child_to_cell("extra", Lin(2, 2))
    assert [p.name for p in net.get_parameters()][-2:] == ["weight", "bias"]
    with pytest.raises(KeyError, match="without '.'"):
        net.insert_child_to_cell("a.b", Lin(1, 1))
    with pytest.raises(TypeError, match="'child_cell' must be a Cell"):
        net.insert_child_to_cell("x", 3)


def test_trainable_and_untrainable_params():
    net = Sub()
    net.v.requires_grad = False
    assert [p.name for p in net.trainable_params()] == ["explicit", "fc.weight", "fc.bias"]
    assert [p.name for p in net.untrainable_params()] == ["v"]


def test_containers_index_append_len_and_errors():
    seq = nn.SequentialCell(Lin(2, 2))
    seq.append(Lin(2, 3))
    assert len(seq) == 2 and isinstance(seq[-1], Lin)
    assert [p.name for p in seq.get_parameters()] == ["0.weight", "0.bias", "1.weight", "1.bias"]
    assert seq(jnp.ones((1, 2))).shape == (1, 3)
    cl = nn.CellList([Lin(1, 1)])
    cl.append(Lin(1, 2))
    assert len(cl) == 2 and len(cl[0:1]) == 1
    with pytest.raises(IndexError, match="index 5 is out of range for 2 cells"):
        cl[5]
    with pytest.raises(TypeError, match="element 1 is int"):
        nn.SequentialCell(Lin(1, 1), 3)


def test_set_train_reaches_every_cell():
    net = Net()
    assert net.training is False
    assert net.set_train() is net
    assert all(c.training for _, c in net.cells_and_names())
    net.set_train(False)
    assert not any(c.training for _, c in net.cells_and_names())


def test_forward_runs_in_both_modes_with_the_same_result(mode):
    net = Net()
    out = net(ms.Tensor(np.ones((2, 3)), ms.float32))
    np.testing.assert_allclose(out, np.full((2, 2), 192.0))


def test_cell_path_is_known_for_error_messages():
    net = Net()
    assert net.sub.fc._where() == "For 'Lin' at 'sub.fc'"
    assert net._where() == "For 'Net'"


def test_missing_super_init_is_explained():
    class Bad(nn.Cell):
        def __init__(self):
            self.w = ms.Parameter(jnp.ones(1))

    with pytest.raises(AttributeError, match="call super\\(\\).__init__\\(\\)"):
        Bad()


def test_cell_without_construct_names_the_cell():
    with pytest.raises(AttributeError, match="For 'Cell', the method 'construct' is not defined"):
        nn.Cell()(1)


def test_assigning_a_tensor_to_a_parameter_attribute_updates_it(mode):
    class Counter(nn.Cell):
        def __init__(self):
            super().__init__()
            self.count = ms.Parameter(ms.Tensor(0.0), requires_grad=False)

        def construct(self, x):
            self.count = self.count + 1
            return x

    c = Counter()
    c(jnp.ones(1))
    c(jnp.ones(1))
    assert float(c.count) == 2.0 and isinstance(c.count, ms.Parameter)


def test_forward_hooks_change_inputs_and_outputs_and_can_be_removed(mode):
    net = Lin(2, 2)
    pre = net.register_forward_pre_hook(lambda cell, inputs: (inputs[0] * 2,))
    post = net.register_forward_hook(lambda cell, inputs, out: out + 1)
    np.testing.assert_allclose(net(jnp.ones((1, 2))), [[5.0, 5.0]])
    pre.remove()
    post.remove()
    np.testing.assert_allclose(net(jnp.ones((1, 2))), [[2.0, 2.0]])
    with pytest.raises(TypeError, match="must be callable"):
        net.register_forward_hook(3)


def test_to_float_computes_in_low_precision_and_keeps_master_weights(mode):
    net = Lin(2, 2)
    net.to_float(ms.float16)
    out = net(jnp.ones((1, 2), jnp.float32))
    assert out.dtype == ms.float16
    assert net.weight.dtype == ms.float32
    with pytest.raises(ValueError, match="'dst_type' of to_float"):
        net.to_float(ms.int32)


def test_repr_lists_children():
    text = repr(Net())
    assert text.startswith("Net(\n") and "  (sub): Sub(\n" in text and "(0): Lin()" in text
    assert text.endswith("\n)")


def test_sequential_setitem_replaces_the_child_under_its_own_key():
    from collections import OrderedDict

    conv, pool = nn.Conv2d(3, 4, 3), nn.AvgPool2d(3, 2)
    seq = nn.SequentialCell(OrderedDict([("conv", conv), ("pool", pool)]))
    seq[1] = conv
    assert seq[1] is seq[0] is conv
    assert list(seq._cells) == ["conv", "pool"]


def test_cell_list_in_place_add_extends_with_a_list_and_rejects_others():
    conv, pool = nn.Conv2d(3, 4, 3), nn.AvgPool2d(3, 2)
    cells = nn.CellList([conv, pool])
    same = cells
    cells += [conv]
    assert cells is same and len(cells) == 3 and cells[2] is conv
    with pytest.raises(TypeError, match=r"For 'CellList', the new cells wanted to append should be instance "
                                        r"of list, but got tuple"):
        cells.extend((pool,))


def test_a_parameter_or_child_set_to_none_keeps_its_kind_as_in_mindspore():
    t = ms.Tensor(np.ones((2, 3), np.float32))

    class Holder(nn.Cell):
        def __init__(self):
            super().__init__()
            self.weight = ms.Parameter(t, name="weight")
            self.weight = None
            self.child = nn.ReLU()
            self.child = None

    net = Holder()
    assert net.weight is None and net.child is None
    assert list(net.parameters_dict()) == [] and list(net.cells()) == []
    with pytest.raises(KeyError, match="the weight child cell already exists"):
        net.weight = nn.ReLU()
    with pytest.raises(TypeError, match="Parameter 'weight' already exists in network"):
        net.weight = 3
    with pytest.raises(KeyError, match="the child parameter already exists"):
        net.child = ms.Parameter(t, name="child")
    with pytest.raises(TypeError, match="Sub cell 'child' already exists in network"):
        net.child = t
    net.weight = ms.Parameter(t, name="weight")
    net.child = nn.Dense(3, 2)
    assert list(net.parameters_dict()) == ["weight", "child.weight", "child.bias"]


class _KwargsNet(nn.Cell):
    def construct(self, x, bias=0.0):
        return x * 2 + bias


def test_forward_pre_hook_with_kwargs_gets_and_replaces_the_kwargs():
    def pre_kwargs(cell, args, kwargs):
        return args, {"bias": kwargs["bias"] * 2}

    net = _KwargsNet()
    h1 = net.register_forward_pre_hook(pre_kwargs, with_kwargs=True)
    h2 = net.register_forward_pre_hook(lambda cell, args: args[0] + 1.0)
    x, b = ms.Tensor(2.0, ms.float32), ms.Tensor(3.0, ms.float32)
    assert float(net(x, bias=b).asnumpy()) == 12.0  # (2+1)*2 + 3*2
    h1.remove()
    assert float(net(x, bias=b).asnumpy()) == 9.0
    h2.remove()
    assert float(net(x, bias=b).asnumpy()) == 7.0


def test_forward_pre_hook_with_kwargs_must_return_a_pair():
    net = _KwargsNet()
    net.register_forward_pre_hook(lambda cell, args, kwargs: args, with_kwargs=True)
    with pytest.raises(RuntimeError, match=r"_KwargsNet.*forward pre hook with kwargs must return None or a "
                                           r"tuple of \(new_args, new_kwargs\)"):
        net(ms.Tensor(2.0, ms.float32))


def test_forward_hook_with_kwargs_and_prepend_order():
    calls = []
    net = _KwargsNet()
    net.register_forward_hook(lambda cell, args, kwargs, out: calls.append("kw") or out + kwargs["bias"],
                              with_kwargs=True)
    net.register_forward_hook(lambda cell, args, out: calls.append("first"), prepend=True)
    out = net(ms.Tensor(2.0, ms.float32), bias=ms.Tensor(3.0, ms.float32))
    assert float(out.asnumpy()) == 10.0 and calls == ["first", "kw"]


def test_always_call_forward_hook_runs_when_construct_raises():
    class Bad(nn.Cell):
        def construct(self, x):
            raise ValueError("boom")

    seen = []
    net = Bad()
    net.register_forward_hook(lambda cell, args, out: seen.append(("always", out)), always_call=True)
    net.register_forward_hook(lambda cell, args, out: seen.append(("plain", out)))

    def failing(cell, args, out):
        raise KeyError("hook")
    net.register_forward_hook(failing, always_call=True)
    with pytest.warns(UserWarning, match="always_call=True raised"), pytest.raises(ValueError, match="boom"):
        net(ms.Tensor(1.0, ms.float32))
    assert seen == [("always", None)]


def test_cell_list_constructor_and_extend_refuse_a_cell_dict():
    d = nn.CellDict({"relu": nn.ReLU()})
    with pytest.raises(TypeError, match=r"For 'CellList', the type of cell can not be CellDict, but got CellDict"):
        nn.CellList([nn.ReLU(), d])
    with pytest.raises(TypeError, match=r"For 'CellList', the type of cell can not be CellDict"):
        nn.CellList().extend([d])
    lst = nn.CellList([nn.CellList([nn.ReLU()])])  # a nested CellList is fine
    lst.append(d)  # append and insert take one, as MindSpore's do
    lst.insert(0, d)
    assert len(lst) == 3


def test_hook_registration_refuses_a_jit_decorated_hook():
    @ms.jit
    def jitted_hook(cell, inputs, output=None):
        return None

    net = nn.ReLU()
    with pytest.raises(TypeError, match=r"register_forward_pre_hook does not take a hook decorated with '@jit' "
                                        r"\(jitted_hook\)"):
        net.register_forward_pre_hook(jitted_hook)
    with pytest.raises(TypeError, match=r"register_forward_hook does not take a hook decorated with '@jit'"):
        net.register_forward_hook(jitted_hook)
    with pytest.raises(TypeError, match=r"must be callable, got str"):
        net.register_forward_pre_hook("Test")
