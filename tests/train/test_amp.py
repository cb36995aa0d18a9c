"""Mixed precision levels (float16 and bfloat16 on CPU), loss-scale managers and all_finite."""
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import amp, nn, ops
from mindjax.train import DynamicLossScaleManager, FixedLossScaleManager, Model
from tests.train.train_nets import BNNet, MLP, classification_batches, weights


def _dtypes_seen(net, x):
    seen = {}
    for name, cell in net.cells_and_names():
        if name:
            cell.register_forward_hook(lambda c, i, o, name=name: seen.__setitem__(name, o.dtype))
    net(x)
    return seen


@pytest.mark.parametrize("dtype", [ms.float16, ms.bfloat16], ids=["float16", "bfloat16"])
def test_o2_runs_in_low_precision_keeps_batchnorm_float32_and_returns_float32(dtype):
    net = BNNet()
    wrapped = amp.auto_mixed_precision(net, "O2", dtype)
    x = ms.Tensor(classification_batches(n_batches=1)[0][0])
    seen = _dtypes_seen(net, x)
    assert seen["fc1"] == jnp.dtype(dtype) and seen["fc2"] == jnp.dtype(dtype)
    assert seen["bn"] == jnp.dtype(dtype)  # BatchNorm computes in float32 and hands the next layer `dtype`
    assert wrapped(x).dtype == jnp.float32
    assert all(p.dtype == jnp.float32 for p in net.get_parameters())


def test_o1_runs_white_listed_cells_in_low_precision_with_float32_outputs():
    net = MLP()
    amp.auto_mixed_precision(net, "O1", ms.bfloat16)
    x = ms.Tensor(classification_batches(n_batches=1)[0][0])
    assert net(x).dtype == jnp.float32
    assert net.fc1.__dict__["_mixed_dtype"] == jnp.bfloat16


@pytest.mark.parametrize("level", ["O2", "O3"])
def test_model_trains_at_amp_levels_with_float32_master_weights(level):
    ms.set_seed(0)
    net = BNNet()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt, amp_level=level,
                  metrics={"loss"})
    data = classification_batches()
    before = model.eval(data)["loss"]
    model.train(4, data)
    assert model.eval(data)["loss"] < before
    assert all(v.dtype == np.float32 for v in weights(net).values())
    if level == "O2":
        assert isinstance(model.train_network, nn.TrainOneStepWithLossScaleCell)
        # float16 gradients overflow at the default 2**24: the first steps are skipped and the scale lowered.
        assert 1.0 <= float(model.train_network.scale_sense) < 2.0 ** 24


def test_build_train_network_with_bfloat16_cast_and_fixed_loss_scale_without_drop():
    net = MLP()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9, loss_scale=128.0)
    train = amp.build_train_network(net, opt, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                                    level="O0", cast_model_type=ms.bfloat16,
                                    loss_scale_manager=FixedLossScaleManager(128.0, drop_overflow_update=False))
    assert type(train) is nn.TrainOneStepCell and train.sens == 128.0
    x, y = map(ms.Tensor, classification_batches(n_batches=1)[0])
    loss = train(x, y)
    assert loss.dtype == jnp.float32 and np.isfinite(float(loss))


def test_dynamic_loss_scale_manager_in_model_skips_the_overflow_step_and_lowers_the_scale():
    net = MLP()
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    manager = DynamicLossScaleManager(init_loss_scale=2.0 ** 8, scale_factor=2, scale_window=1000)
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"), opt,
                  loss_scale_manager=manager)
    good = classification_batches(n_batches=1)
    model.train(1, good)
    before = weights(net)
    x, y = good[0]
    bad_x = x.copy()
    bad_x[0, 0] = np.inf
    model.train(1, [(bad_x, y)])
    for name, value in weights(net).items():
        np.testing.assert_array_equal(value, before[name], err_msg=name)
    assert manager.get_loss_scale() == 128.0
    assert int(np.asarray(opt.global_step)[0]) == 1


def test_all_finite_and_loss_scalers():
    assert bool(amp.all_finite((jnp.ones(3), jnp.zeros((2, 2)))))
    assert not bool(amp.all_finite([jnp.array([1.0, jnp.nan])]))
    scaler = amp.DynamicLossScaler(1024.0, 2, 2)
    assert float(scaler.scale(jnp.asarray(2.0))) == 2048.0
    assert float(scaler.unscale(jnp.asarray(2048.0))) == 2.0
    scaler.adjust(jnp.asarray(False))
    assert float(scaler.scale_value) == 512.0
    scaler.adjust(jnp.asarray(True))
    scaler.adjust(jnp.asarray(True))
    assert float(scaler.scale_value) == 1024.0


def test_amp_rejects_bad_levels_and_managers():
    with pytest.raises(ValueError, match="For 'auto_mixed_precision', 'amp_level' must be one of"):
        amp.auto_mixed_precision(MLP(), "O4")
    net = MLP()
    with pytest.raises(TypeError, match="'loss_scale_manager' must be a LossScaleManager"):
        amp.build_train_network(net, nn.SGD(net.trainable_params()), level="O0", loss_scale_manager=3)
    with pytest.raises(ValueError, match="For 'DynamicLossScaleManager', 'scale_window'"):
        DynamicLossScaleManager(scale_window=0)
    with pytest.raises(ValueError, match="For 'FixedLossScaleManager', 'loss_scale'"):
        FixedLossScaleManager(0.5)


# -- O1 on Primitives -------------------------------------------------------------------------

def _f16(a):
    return np.asarray(a, np.float16).astype(np.float32)


class _PrimNet(nn.Cell):
    """MatMul and ReLU (white-listed) around an Add (not white-listed)."""

    def __init__(self):
        super().__init__()
        self.matmul = ops.MatMul()
        self.add = ops.Add()
        self.relu = ops.ReLU()
        self.weight = ms.Parameter(ms.Tensor(np.array([[1.0001, 0.5], [0.25, 1.0003]], np.float32)), name="weight")

    def construct(self, x):
        y = self.matmul(x, self.weight)
        z = self.add(y, 0.0001)
        return self.relu(z), y, z


class _Outer(nn.Cell):
    """A converted block, a block the user keeps in float32, and a Primitive made inline."""

    def __init__(self):
        super().__init__()
        self.block = _PrimNet()
        self.kept = _PrimNet().to_float(ms.float32)

    def construct(self, x):
        return self.block(x)[1], self.kept(x)[1], ops.MatMul()(x, x)


class _Raises(nn.Cell):
    def construct(self, x):
        raise ValueError("from construct")


_X = np.array([[1.0001, -2.0003], [3.00007, 4.1]], np.float32)
_W = np.array([[1.0001, 0.5], [0.25, 1.0003]], np.float32)


def test_o1_runs_white_listed_primitives_in_float16_with_float32_outputs(mode):
    net = amp.auto_mixed_precision(_PrimNet(), "O1")
    relu, y, z = net(ms.Tensor(_X))
    want_y = _f16(_f16(_X) @ _f16(_W))
    assert relu.dtype == y.dtype == z.dtype == jnp.float32
    np.testing.assert_allclose(y, want_y, rtol=1e-3)
    np.testing.assert_allclose(z, want_y + np.float32(0.0001), rtol=1e-6)  # Add stays float32
    np.testing.assert_array_equal(relu, np.maximum(_f16(want_y + np.float32(0.0001)), 0))
    assert net.weight.dtype == jnp.float32 and net._amp_level == "O1"


def test_o1_reaches_sub_cells_and_inline_primitives_but_not_cells_the_user_set_to_float(mode):
    net = amp.auto_mixed_precision(_Outer(), "O1")
    block, kept, inline = net(ms.Tensor(_X))
    np.testing.assert_allclose(block, _f16(_f16(_X) @ _f16(_W)), rtol=1e-3)
    np.testing.assert_allclose(kept, _X @ _W, rtol=1e-6)
    np.testing.assert_allclose(inline, _f16(_f16(_X) @ _f16(_X)), rtol=1e-3)
    assert np.abs(np.asarray(kept) - np.asarray(block)).max() > 2e-4


def test_o1_leaves_primitives_outside_the_network_and_functional_matmul_in_float32():
    amp.auto_mixed_precision(_PrimNet(), "O1")(ms.Tensor(_X))
    np.testing.assert_allclose(ops.MatMul()(ms.Tensor(_X), ms.Tensor(_W)), _X @ _W, rtol=1e-6)
    with pytest.raises(ValueError, match="from construct"):
        amp.auto_mixed_precision(_Raises(), "O1")(ms.Tensor(_X))
    np.testing.assert_allclose(ops.MatMul()(ms.Tensor(_X), ms.Tensor(_W)), _X @ _W, rtol=1e-6)


def test_o1_network_compiled_before_the_conversion_is_traced_again():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = _PrimNet()
    np.testing.assert_allclose(net(ms.Tensor(_X))[1], _X @ _W, rtol=1e-6)
    amp.auto_mixed_precision(net, "O1")
    np.testing.assert_allclose(net(ms.Tensor(_X))[1], _f16(_f16(_X) @ _f16(_W)), rtol=1e-3)


def test_o1_gradients_reach_float32_master_weights(mode):
    net = amp.auto_mixed_precision(_PrimNet(), "O1")
    loss = lambda x: net(x)[1].sum()  # noqa: E731
    grads = ms.value_and_grad(loss, None, [net.weight])(ms.Tensor(_X))[1]
    assert grads[0].dtype == jnp.float32
    np.testing.assert_allclose(grads[0], np.repeat(_f16(_X).sum(0)[:, None], 2, 1), rtol=1e-3)


def test_o1_keeps_class_names_and_types_and_warns_when_converted_twice():
    net = amp.auto_mixed_precision(_Outer(), "O1")
    assert type(net) is _Outer and type(net.block) is _PrimNet  # the policy is an attribute, not a class
    assert isinstance(net, _Outer) and net.cls_name == "_Outer" and net.block.cls_name == "_PrimNet"
    assert repr(net).startswith("_Outer(")
    with pytest.warns(UserWarning, match="already O1"):
        amp.auto_mixed_precision(net, "O1")
    np.testing.assert_allclose(net(ms.Tensor(_X))[0], _f16(_f16(_X) @ _f16(_W)), rtol=1e-3)


class _MatMulOutput(nn.Cell):
    """_PrimNet's MatMul output alone (a loss takes one Tensor)."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def construct(self, x):
        return self.net(x)[1]


def test_model_at_o1_runs_primitives_in_float16():
    net = _PrimNet()
    model = Model(_MatMulOutput(net), nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), amp_level="O1")
    y = np.zeros((2, 2), np.float32)
    model.train(1, [(_X, y)])
    assert net.weight.dtype == jnp.float32
    out = model.predict(ms.Tensor(_X))
    np.testing.assert_allclose(out.asnumpy(), _f16(_f16(_X) @ _f16(np.asarray(net.weight))), rtol=1e-3)


def test_white_list_has_mindspores_cells_then_primitives_and_is_a_copy():
    white = amp.get_white_list()
    assert white[:3] == [nn.Conv1d, nn.Conv2d, nn.Conv3d] and nn.Dense in white
    prims = [c for c in white if issubclass(c, ops.Primitive)]
    assert prims[0] is ops.Conv2D and {ops.MatMul, ops.BatchMatMul, ops.ReLU} <= set(prims)
    white.append(nn.Flatten)
    assert nn.Flatten not in amp.get_white_list()


def test_custom_mixed_precision_white_lists_a_primitive_or_a_cell(mode):
    net = amp.custom_mixed_precision(_PrimNet(), white_list=[ops.Add])
    relu, y, z = net(ms.Tensor(_X))
    np.testing.assert_allclose(y, _X @ _W, rtol=1e-6)  # MatMul is not in this list
    np.testing.assert_array_equal(z, _f16(_f16(_X @ _W) + np.float16(0.0001)))
    net = amp.custom_mixed_precision(_Outer(), white_list=[_PrimNet])
    block, kept, inline = net(ms.Tensor(_X))
    np.testing.assert_allclose(block, _f16(_f16(_X) @ _f16(_W)), rtol=1e-3)  # every Primitive inside
    np.testing.assert_allclose(inline, _X @ _X, rtol=1e-6)


def test_custom_mixed_precision_black_list_keeps_those_cells_float32():
    net = BNNet()
    wrapped = amp.custom_mixed_precision(net, black_list=amp.get_black_list(), dtype=ms.bfloat16)
    seen = _dtypes_seen(net, ms.Tensor(classification_batches(n_batches=1)[0][0]))
    assert seen["fc1"] == jnp.bfloat16 and net.bn.__dict__["_mixed_dtype"] == jnp.float32
    assert wrapped(ms.Tensor(classification_batches(n_batches=1)[0][0])).dtype == jnp.float32


def test_custom_mixed_precision_rejects_bad_lists_and_dtypes():
    with pytest.raises(ValueError, match="one of 'white_list' and 'black_list' must be provided"):
        amp.custom_mixed_precision(MLP())
    with pytest.raises(ValueError, match="cannot both be provided"):
        amp.custom_mixed_precision(MLP(), white_list=[], black_list=[])
    with pytest.raises(TypeError, match="'white_list' must be a list, got tuple"):
        amp.custom_mixed_precision(MLP(), white_list=(ops.MatMul,))
    with pytest.raises(TypeError, match="elements of 'white_list' must be classes"):
        amp.custom_mixed_precision(MLP(), white_list=[ops.MatMul()])
    with pytest.raises(TypeError, match="subclasses of Cell or Primitive, got int"):
        amp.custom_mixed_precision(MLP(), white_list=[int])
    with pytest.raises(TypeError, match="'black_list' must be subclasses of Cell, got MatMul"):
        amp.custom_mixed_precision(MLP(), black_list=[ops.MatMul])
    with pytest.raises(ValueError, match="'dtype' must be float16 or bfloat16, got float32"):
        amp.custom_mixed_precision(MLP(), white_list=[ops.MatMul], dtype=ms.float32)
    with pytest.raises(TypeError, match="'network' must be a Cell"):
        amp.custom_mixed_precision(lambda x: x, white_list=[ops.MatMul])
    with pytest.warns(UserWarning, match="BatchNorm2d is removed from the internal black list"):
        amp.custom_mixed_precision(MLP(), black_list=[nn.BatchNorm1d, nn.BatchNorm3d, nn.LayerNorm])
    with pytest.raises(ValueError, match="For 'auto_mixed_precision', 'dtype' must be float16 or bfloat16"):
        amp.auto_mixed_precision(MLP(), "O1", ms.float32)


class _FunctionalNet(nn.Cell):
    """ops.mm and ops.relu call white-listed Primitives in MindSpore; ops.matmul does not."""

    def __init__(self):
        super().__init__()
        self.weight = ms.Parameter(ms.Tensor(_W), name="weight")

    def construct(self, x):
        return ops.mm(x, self.weight), ops.relu(x - 0.0001), ops.matmul(x, self.weight)


def test_o1_casts_functional_forms_of_white_listed_primitives_only(mode):
    net = amp.auto_mixed_precision(_FunctionalNet(), "O1")
    mm, relu, matmul = net(ms.Tensor(_X))
    assert mm.dtype == relu.dtype == matmul.dtype == jnp.float32
    np.testing.assert_allclose(mm, _f16(_f16(_X) @ _f16(_W)), rtol=1e-3)
    np.testing.assert_array_equal(relu, np.maximum(_f16(_X - np.float32(0.0001)), 0))
    np.testing.assert_allclose(matmul, _X @ _W, rtol=1e-6)
    # Outside a converted network the same functions run in float32.
    np.testing.assert_allclose(ops.mm(ms.Tensor(_X), ms.Tensor(_W)), _X @ _W, rtol=1e-6)


class _Parent(nn.Cell):
    def __init__(self, block):
        super().__init__()
        self.block = block

    def construct(self, x):
        return self.block(x)[1]


def test_converting_a_network_again_retraces_its_compiled_parent():
    ms.set_context(mode=ms.GRAPH_MODE)
    block = _PrimNet()
    parent = _Parent(block)
    amp.custom_mixed_precision(block, white_list=[ops.MatMul])
    np.testing.assert_allclose(parent(ms.Tensor(_X)), _f16(_f16(_X) @ _f16(_W)), rtol=1e-3)
    amp.custom_mixed_precision(block, white_list=[ops.ReLU])  # MatMul back in float32
    np.testing.assert_allclose(parent(ms.Tensor(_X)), _X @ _W, rtol=1e-6)


def test_o1_policy_of_a_running_network_does_not_reach_other_threads():
    import threading

    seen = []
    net = amp.auto_mixed_precision(_PrimNet(), "O1")

    class _Spy(nn.Cell):
        def construct(self, x):
            # While this converted Cell runs, another thread's MatMul stays float32.
            worker = threading.Thread(target=lambda: seen.append(ops.MatMul()(ms.Tensor(_X), ms.Tensor(_W))))
            worker.start()
            worker.join()
            return x

    net.block = amp.auto_mixed_precision(_Spy(), "O1")
    net.block(ms.Tensor(_X))
    np.testing.assert_allclose(seen[0], _X @ _W, rtol=1e-6)


def test_o1_policy_is_a_cell_attribute_read_at_call_time():
    from mindjax.cells.cell import set_precision_policy
    from mindjax.common.precision import PrecisionPolicy

    net = _PrimNet()
    dense = nn.Dense(2, 2)
    converted = amp.auto_mixed_precision(nn.SequentialCell([dense]), "O1")
    assert type(converted[0]) is nn.Dense
    _, y, _ = net(ms.Tensor(_X))
    np.testing.assert_allclose(y, _X @ _W, rtol=1e-6)  # no policy: float32
    set_precision_policy(net, PrecisionPolicy(jnp.float16, frozenset({ops.MatMul})))
    _, y, _ = net(ms.Tensor(_X))
    np.testing.assert_allclose(y, _f16(_f16(_X) @ _f16(_W)), rtol=1e-3)
    set_precision_policy(net, None)
    _, y, _ = net(ms.Tensor(_X))
    np.testing.assert_allclose(y, _X @ _W, rtol=1e-6)
    with pytest.raises(TypeError, match="precision policy must be a PrecisionPolicy or None, got str"):
        set_precision_policy(net, "O1")


def test_all_finite_returns_a_tensor_for_tensors_also_inside_ms_jit():
    import numpy as np
    import mindjax as ms
    from mindjax import amp

    @ms.jit
    def finite(x):
        return amp.all_finite((x, x * 2))

    assert isinstance(amp.all_finite((ms.Tensor(np.ones(2, np.float32)),)), ms.Tensor)
    out = finite(ms.Tensor(np.array([1.0, np.inf], np.float32)))
    assert isinstance(out, ms.Tensor) and out.asnumpy().tolist() is False
