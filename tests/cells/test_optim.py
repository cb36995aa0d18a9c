"""Optimizers: update math against numpy references, in both modes, called directly and in ms.jit."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn

NAMES = ("fc.weight", "fc.bias", "bn.gamma")
SHAPES = ((2, 3), (3,), (3,))
TARGETS = [np.linspace(-1.0, 1.0, int(np.prod(s)), dtype=np.float32).reshape(s) for s in SHAPES]
STEPS = 3


def _initial():
    rng = np.random.default_rng(0)
    return [rng.standard_normal(s).astype(np.float32) for s in SHAPES]


def _loss(values):
    return sum(0.5 * jnp.sum((v - t) ** 2) + 0.1 * jnp.sum(v ** 3) for v, t in zip(values, TARGETS))


def _np_grads(ws):
    # The references take the same float32 gradients as the optimizers, so that
    # only the update math is compared (Adam-type steps amplify rounding in tiny gradients).
    return [np.asarray(g) for g in jax.grad(_loss)([jnp.asarray(w, jnp.float32) for w in ws])]


def _params():
    return [ms.Parameter(ms.Tensor(v), name=n) for n, v in zip(NAMES, _initial())]


def _decayed(name):
    return "beta" not in name and "gamma" not in name


# -- numpy references (MindSpore's documented math, in float32 as MindSpore computes it:
# 1 - float32(0.999) is 4.7e-5 off 0.001, which moves Adam-type steps by ~1e-5) ----------

def _ref_sgd(lr, momentum, dampening, wd, nesterov=False):
    ws = _initial()
    accum = [np.zeros_like(w) for w in ws]
    for step in range(STEPS):
        for i, g in enumerate(_np_grads(ws)):
            g = g + wd * ws[i] if _decayed(NAMES[i]) else g
            if momentum > 0:
                accum[i] = g if step == 0 else momentum * accum[i] + (1 - dampening) * g
                g = g + momentum * accum[i] if nesterov else accum[i]
            ws[i] = ws[i] - lr * g
    return ws


def _ref_momentum(lr, momentum, wd=0.0, nesterov=False):
    ws = _initial()
    mom = [np.zeros_like(w) for w in ws]
    for _ in range(STEPS):
        for i, g in enumerate(_np_grads(ws)):
            g = g + wd * ws[i] if _decayed(NAMES[i]) else g
            mom[i] = momentum * mom[i] + g
            ws[i] = ws[i] - lr * (g + momentum * mom[i] if nesterov else mom[i])
    return ws


def _ref_adam(lr, b1=0.9, b2=0.999, eps=1e-8, wd=0.0, amsgrad=False, nesterov=False):
    b1, b2 = np.float32(b1), np.float32(b2)
    ws = _initial()
    m = [np.zeros_like(w) for w in ws]
    v = [np.zeros_like(w) for w in ws]
    vhat = [np.zeros_like(w) for w in ws]
    for t in range(1, STEPS + 1):
        lr_t = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        for i, g in enumerate(_np_grads(ws)):
            g = g + wd * ws[i] if _decayed(NAMES[i]) else g
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            vhat[i] = np.maximum(vhat[i], v[i])
            numer = b1 * m[i] + (1 - b1) * g if nesterov else m[i]
            ws[i] = ws[i] - lr_t * numer / (np.sqrt(vhat[i] if amsgrad else v[i]) + eps)
    return ws


def _ref_adam_weight_decay(lr, b1=0.9, b2=0.999, eps=1e-6, wd=0.0):
    b1, b2 = np.float32(b1), np.float32(b2)
    ws = _initial()
    m = [np.zeros_like(w) for w in ws]
    v = [np.zeros_like(w) for w in ws]
    for _ in range(STEPS):
        for i, g in enumerate(_np_grads(ws)):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            update = m[i] / (np.sqrt(v[i]) + eps) + (wd * ws[i] if _decayed(NAMES[i]) else 0)
            ws[i] = ws[i] - lr * update
    return ws


def _ref_lamb(lr, b1=0.9, b2=0.999, eps=1e-6, wd=0.0):
    b1, b2 = np.float32(b1), np.float32(b2)
    ws = _initial()
    m = [np.zeros_like(w) for w in ws]
    v = [np.zeros_like(w) for w in ws]
    for t in range(1, STEPS + 1):
        for i, g in enumerate(_np_grads(ws)):
            m[i] = b1 * m[i] + (1 - b1) * g
            v[i] = b2 * v[i] + (1 - b2) * g * g
            r = (m[i] / (1 - b1 ** t)) / (np.sqrt(v[i] / (1 - b2 ** t)) + eps)
            update = r + (wd * ws[i] if _decayed(NAMES[i]) else 0)
            w_norm, u_norm = np.linalg.norm(ws[i]), np.linalg.norm(update)
            trust = w_norm / u_norm if w_norm > 0 and u_norm > 0 else 1.0
            ws[i] = ws[i] - lr * trust * update
    return ws


def _ref_rmsprop(lr, decay=0.9, momentum=0.0, eps=1e-10, centered=False):
    ws = _initial()
    ms_ = [np.ones_like(w) for w in ws]
    mg = [np.zeros_like(w) for w in ws]
    mom = [np.zeros_like(w) for w in ws]
    for _ in range(STEPS):
        for i, g in enumerate(_np_grads(ws)):
            ms_[i] = decay * ms_[i] + (1 - decay) * g * g
            mg[i] = decay * mg[i] + (1 - decay) * g
            denom = ms_[i] - mg[i] ** 2 if centered else ms_[i]
            mom[i] = momentum * mom[i] + lr * g / np.sqrt(denom + eps)
            ws[i] = ws[i] - mom[i]
    return ws


def _ref_adagrad(lr, accum=0.1, update_slots=True):
    ws = _initial()
    acc = [np.full_like(w, accum) for w in ws]
    for _ in range(STEPS):
        for i, g in enumerate(_np_grads(ws)):
            if update_slots:
                acc[i] = acc[i] + g * g
            ws[i] = ws[i] - lr * g / np.sqrt(acc[i])
    return ws


CASES = {
    "sgd": (lambda p: nn.SGD(p, 0.1, momentum=0.9, dampening=0.2, weight_decay=0.05),
            lambda: _ref_sgd(0.1, 0.9, 0.2, 0.05)),
    "sgd_plain_nesterov": (lambda p: nn.SGD(p, 0.1, momentum=0.5, nesterov=True),
                           lambda: _ref_sgd(0.1, 0.5, 0.0, 0.0, nesterov=True)),
    "momentum_nesterov": (lambda p: nn.Momentum(p, 0.1, 0.9, weight_decay=0.01, use_nesterov=True),
                          lambda: _ref_momentum(0.1, 0.9, 0.01, nesterov=True)),
    "adam": (lambda p: nn.Adam(p, 0.05, weight_decay=0.02), lambda: _ref_adam(0.05, wd=0.02)),
    "adam_amsgrad": (lambda p: nn.Adam(p, 0.05, use_amsgrad=True), lambda: _ref_adam(0.05, amsgrad=True)),
    "adam_nesterov": (lambda p: nn.Adam(p, 0.05, use_nesterov=True), lambda: _ref_adam(0.05, nesterov=True)),
    "adam_weight_decay": (lambda p: nn.AdamWeightDecay(p, 0.05, weight_decay=0.1),
                          lambda: _ref_adam_weight_decay(0.05, wd=0.1)),
    "lamb": (lambda p: nn.Lamb(p, 0.05, weight_decay=0.1), lambda: _ref_lamb(0.05, wd=0.1)),
    "rmsprop_centered": (lambda p: nn.RMSProp(p, 0.01, momentum=0.5, centered=True),
                         lambda: _ref_rmsprop(0.01, momentum=0.5, centered=True)),
    "adagrad_no_slots": (lambda p: nn.Adagrad(p, accum=0.5, learning_rate=0.1, update_slots=False),
                         lambda: _ref_adagrad(0.1, accum=0.5, update_slots=False)),
}


def _assert_params(params, expected):
    for p, want in zip(params, expected):
        np.testing.assert_allclose(p.asnumpy(), want, rtol=1e-5, atol=1e-6, err_msg=p.name)


@pytest.mark.parametrize("case", sorted(CASES))
def test_direct_call_matches_numpy_reference(case, mode):
    build, reference = CASES[case]
    params = _params()
    opt = build(params)
    for _ in range(STEPS):
        opt(jax.grad(_loss)([p.value() for p in params]))
    _assert_params(params, reference())
    assert opt.global_step.asnumpy().tolist() == [STEPS]


@pytest.mark.parametrize("case", ["sgd", "momentum_nesterov", "adam", "lamb", "rmsprop_centered",
                                  "adagrad_no_slots", "adam_weight_decay"])
def test_inside_jit_train_step_matches_numpy_reference(case, mode):
    build, reference = CASES[case]
    params = _params()
    opt = build(params)

    @ms.jit
    def train_step():
        values = [p.value() for p in params]
        loss, grads = jax.value_and_grad(_loss)(values)
        opt(grads)
        return loss

    losses = [float(train_step()) for _ in range(STEPS)]
    _assert_params(params, reference())
    assert losses[-1] < losses[0]
    assert opt.global_step.asnumpy().tolist() == [STEPS]


def test_state_parameters_carry_mindspore_names():
    opt = nn.Adam(_params(), use_amsgrad=True)
    names = [n for n, _ in opt.parameters_and_names()]
    assert names == ["global_step", "learning_rate", *NAMES, "beta1_power", "beta2_power",
                     *[f"moment1.{n}" for n in NAMES], *[f"moment2.{n}" for n in NAMES],
                     *[f"vhat.{n}" for n in NAMES]]
    assert opt.global_step.dtype == jnp.int32 and opt.global_step.shape == (1,)
    assert [p.name for p in nn.RMSProp(_params(), centered=True).ms] == [f"mean_square.{n}" for n in NAMES]
    assert [p.name for p in nn.Lamb(_params(), 0.1).moments1] == [f"lamb_m.{n}" for n in NAMES]
    assert [p.name for p in nn.AdamWeightDecay(_params()).moments2] == [f"adam_v.{n}" for n in NAMES]
    assert [p.name for p in nn.SGD(_params()).stat] == [f"stat.{n}" for n in NAMES]


def test_weight_decay_skips_beta_and_gamma_without_groups():
    opt = nn.Momentum(_params(), 0.1, 0.9, weight_decay=0.1)
    assert opt.decay_flags == (True, True, False)
    zero = [np.zeros(s, np.float32) for s in SHAPES]
    decayed = opt.decay_weight([jnp.asarray(z) for z in zero])
    np.testing.assert_allclose(decayed[0], 0.1 * _initial()[0], rtol=1e-6)
    np.testing.assert_array_equal(decayed[2], zero[2])


def test_loss_scale_divides_gradients_and_scales_weight_decay():
    params = _params()
    opt = nn.SGD(params, 0.1, weight_decay=0.5, loss_scale=4.0)
    grads = [jnp.full(s, 4.0, jnp.float32) for s in SHAPES]
    opt(grads)
    init = _initial()
    # atol: one float32 rounding of an element near 0, where the update nearly cancels the weight
    np.testing.assert_allclose(params[0].asnumpy(), init[0] - 0.1 * (1.0 + 0.5 * init[0]), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(params[2].asnumpy(), init[2] - 0.1, rtol=1e-6, atol=1e-8)


def test_list_learning_rate_is_indexed_by_global_step(mode):
    params = _params()
    opt = nn.SGD(params, [0.1, 0.0, 0.2])
    init = _initial()
    ones = [jnp.ones(s, jnp.float32) for s in SHAPES]
    for _ in range(3):
        opt(ones)
    np.testing.assert_allclose(params[1].asnumpy(), init[1] - 0.3, rtol=1e-6)


def test_list_learning_rate_too_short_raises_naming_the_optimizer():
    opt = nn.Momentum(_params(), [0.1, 0.2], 0.9)
    ones = [jnp.ones(s, jnp.float32) for s in SHAPES]
    opt(ones)
    opt(ones)
    # RuntimeError, as MindSpore's Gather past the end of the list.
    with pytest.raises(RuntimeError, match=r"For 'Momentum', the 'learning_rate' list has 2 values but step 2"):
        opt(ones)


def test_list_learning_rate_too_short_raises_in_a_compiled_step_and_keeps_the_weights():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(2, 1)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), [0.1, 0.2]))
    x, y = jnp.ones((4, 2), jnp.float32), jnp.zeros((4, 1), jnp.float32)
    step(x, y)
    step(x, y)
    before = net.weight.asnumpy()
    with pytest.raises(RuntimeError, match=r"For 'SGD', the 'learning_rate' list has 2 values but step 2"):
        step(x, y)
    np.testing.assert_array_equal(net.weight.asnumpy(), before)


def test_get_lr_follows_the_schedule_and_groups():
    opt = nn.Momentum(_params(), nn.WarmUpLR(0.4, 4), 0.9)
    assert float(opt.get_lr()) == 0.0
    opt([jnp.zeros(s, jnp.float32) for s in SHAPES])
    assert float(opt.get_lr()) == pytest.approx(0.1)

    params = _params()
    fixed = nn.SGD(params, 0.3)
    assert fixed.get_lr().name == "learning_rate" and float(fixed.get_lr()) == pytest.approx(0.3)
    grouped = nn.SGD([{"params": params[:1], "lr": 0.5}, {"params": params[1:]}], 0.1)
    assert [p.name for p in grouped.get_lr()] == ["learning_rate_group_0", "learning_rate", "learning_rate"]
    assert float(grouped.get_lr_parameter(params[0])) == 0.5
    assert [float(x) for x in grouped.get_lr_parameter(params[1:])] == pytest.approx([0.1, 0.1])


def test_groups_apply_their_own_lr_and_weight_decay(mode):
    params = _params()
    opt = nn.SGD([{"params": params[:1], "lr": 0.5, "weight_decay": 0.2},
                  {"params": params[1:]}], 0.1)
    grads = [jnp.ones(s, jnp.float32) for s in SHAPES]
    opt(grads)
    init = _initial()
    np.testing.assert_allclose(params[0].asnumpy(), init[0] - 0.5 * (1 + 0.2 * init[0]), rtol=1e-6)
    np.testing.assert_allclose(params[1].asnumpy(), init[1] - 0.1, rtol=1e-6)


def test_order_params_reorders_the_parameters():
    params = _params()
    opt = nn.Momentum([{"params": params[:2]}, {"params": params[2:]},
                       {"order_params": [params[2], params[0], params[1]]}], 0.1, 0.9)
    assert [p.name for p in opt.parameters] == ["bn.gamma", "fc.weight", "fc.bias"]
    assert [p.name for p in opt.moments] == ["moments.bn.gamma", "moments.fc.weight", "moments.fc.bias"]


def test_grad_centralization_centres_wide_conv_gradients():
    conv = ms.Parameter(ms.Tensor(np.zeros((2, 16, 3), np.float32)), name="conv.weight")
    narrow = ms.Parameter(ms.Tensor(np.zeros((2, 3), np.float32)), name="fc.weight")
    opt = nn.SGD([{"params": [conv, narrow], "grad_centralization": True}], 1.0)
    g_conv = np.arange(96, dtype=np.float32).reshape(2, 16, 3)
    g_narrow = np.arange(6, dtype=np.float32).reshape(2, 3)
    opt((jnp.asarray(g_conv), jnp.asarray(g_narrow)))
    np.testing.assert_allclose(conv.asnumpy(), -(g_conv - g_conv.mean(axis=(1, 2), keepdims=True)), rtol=1e-6)
    np.testing.assert_allclose(narrow.asnumpy(), -g_narrow)


def test_momentum_is_a_parameter_that_can_be_changed():
    params = _params()
    opt = nn.Momentum(params, 0.1, 0.9)
    opt.momentum.set_data(ms.Tensor(0.0, ms.float32))
    ones = [jnp.ones(s, jnp.float32) for s in SHAPES]
    opt(ones)
    opt(ones)
    np.testing.assert_allclose(params[1].asnumpy(), _initial()[1] - 0.2, rtol=1e-6)


@pytest.mark.parametrize("build, error, message", [
    (lambda p: nn.SGD(p, -0.1), ValueError, r"For 'SGD', 'learning_rate' must be a float >= 0, got -0.1"),
    (lambda p: nn.SGD(p, 0.1, momentum=-0.5), ValueError, r"For 'SGD', 'momentum' must be >= 0, got -0.5"),
    (lambda p: nn.SGD(p, 0.1, nesterov=True), ValueError, r"For 'SGD', 'nesterov' needs 'momentum' > 0"),
    (lambda p: nn.Momentum(p, 0.1, 1), TypeError, r"For 'Momentum', 'momentum' must be a float, got int"),
    (lambda p: nn.Momentum(p, 0.1, 0.9, weight_decay=-1.0), ValueError,
     r"For 'Momentum', 'weight_decay' must be >= 0, got -1.0"),
    (lambda p: nn.Adam(p, beta1=1.0), ValueError, r"For 'Adam', 'beta1' must be in range \(0.0, 1.0\), got 1.0"),
    (lambda p: nn.Adam(p, loss_scale=0.0), ValueError, r"For 'Adam', 'loss_scale' must be > 0, got 0.0"),
    (lambda p: nn.RMSProp(p, epsilon=0.0), ValueError, r"For 'RMSProp', 'epsilon' must be > 0"),
    (lambda p: nn.Adagrad(p, accum=-1.0), ValueError, r"For 'Adagrad', 'accum' must be >= 0"),
    (lambda p: nn.Lamb(p, "fast"), TypeError, r"For 'Lamb', 'learning_rate' must be an int, float, Tensor"),
    (lambda p: nn.Momentum(p, [[0.1]], 0.9), ValueError, r"For 'Momentum', a list 'learning_rate' must be flat"),
    (lambda p: nn.SGD([], 0.1), ValueError, r"For 'Optimizer', the argument parameters must not be empty\."),
    (lambda p: nn.SGD(None, 0.1), ValueError, r"For 'Optimizer', the argument parameters can not be None\."),
    (lambda p: nn.SGD([np.ones(3)], 0.1), TypeError, r"For 'SGD', every element of 'parameters' must be a Parameter"),
    (lambda p: nn.SGD([{"params": p, "momentum": 0.9}], 0.1), KeyError, r"keys of a parameter group"),
    (lambda p: nn.SGD([{"params": p[:1], "lr": [0.1, 0.2]}], [0.1, 0.2, 0.3]), ValueError,
     r"every list 'lr' of the groups must have the length of 'learning_rate' \(3\), got 2"),
    (lambda p: nn.SGD(p, 0.1, weight_decay=nn.WarmUpLR(0.1, 2)), TypeError, r"For 'SGD', dynamic weight decay is currently not supported"),
    (lambda p: nn.ASGD(p, lambd=1), TypeError, r"For 'ASGD', 'lambd' must be a float, got int"),
    (lambda p: nn.ASGD(p, t0=10), TypeError, r"For 'ASGD', 't0' must be a float, got int"),
    (lambda p: nn.Rprop(p, etas=[0.5, 1.2]), TypeError, r"For Rprop, etas must be a tuple"),
    (lambda p: nn.Rprop(p, step_sizes=(1.0,)), ValueError, r"step_sizes must be a tuple with the size of 2, but got 1"),
    (lambda p: nn.Rprop(p, step_sizes=(2.0, 1.0)), ValueError, r"maximal step size should not be less than minimal"),
    (lambda p: nn.Rprop(p, etas=(0.5, 1.0)), ValueError, r"etaplus must be greater than 1.0"),
    (lambda p: nn.Rprop(p, etas=(1.5, 2.0)), ValueError, r"'etaminus' must be in range \(0.0, 1.0\)"),
    (lambda p: nn.AdaMax(p, beta2=1.0), ValueError, r"For 'AdaMax', 'beta2' must be in range \(0.0, 1.0\)"),
    (lambda p: nn.AdaMax(p, eps=0.0), ValueError, r"For 'AdaMax', 'eps' must be > 0"),
])
def test_bad_arguments_raise_naming_optimizer_and_argument(build, error, message):
    with pytest.raises(error, match=message):
        build(_params())


def test_wrong_gradients_raise_naming_the_optimizer():
    opt = nn.Adam(_params())
    with pytest.raises(RuntimeError, match=r"For 'Adam', expected 3 gradients \(one per parameter\), got 2"):
        opt([jnp.ones((2, 3)), jnp.ones(3)])
    with pytest.raises(RuntimeError, match=r"For 'Adam', expected 3 gradients \(one per parameter\), got 1"):
        opt(jnp.ones((2, 3)))
    with pytest.raises(ValueError, match=r"For 'Adam', the gradient of 'fc.bias' must have shape \(3,\), got \(4,\)"):
        opt([jnp.ones((2, 3)), jnp.ones(4), jnp.ones(3)])


def test_schedule_and_list_lr_groups_in_both_modes(mode):
    params = _params()
    opt = nn.Momentum([{"params": params[:1], "lr": nn.WarmUpLR(0.4, 4)}, {"params": params[1:]}],
                      [0.1, 0.2, 0.3], 0.0)
    ones = [jnp.ones(s, jnp.float32) for s in SHAPES]
    for _ in range(3):
        opt(ones)
    init = _initial()
    np.testing.assert_allclose(params[0].asnumpy(), init[0] - 0.3, rtol=1e-6)
    np.testing.assert_allclose(params[1].asnumpy(), init[1] - 0.6, rtol=1e-6)
    # The list schedule is shared by parameters 1 and 2: its table appears once, under its first path.
    assert [n for n, _ in opt.parameters_and_names()][-1] == "learning_rate.1.learning_rate"


@pytest.mark.parametrize("build", [
    lambda p: nn.ASGD(p, 0.05, lambd=0.01, t0=1.0, weight_decay=0.1),
    lambda p: nn.Rprop(p, 0.05, step_sizes=(0.01, 0.08)),
    lambda p: nn.AdaMax(p, 0.05, weight_decay=0.01),
], ids=["asgd", "rprop", "adamax"])
def test_asgd_rprop_adamax_inside_jit_match_their_direct_calls(build):
    direct_params, jit_params = _params(), _params()
    direct, compiled = build(direct_params), build(jit_params)
    for _ in range(STEPS):
        direct(jax.grad(_loss)([p.value() for p in direct_params]))

    @ms.jit
    def train_step():
        compiled(jax.grad(_loss)([p.value() for p in jit_params]))

    for _ in range(STEPS):
        train_step()
    _assert_params(jit_params, [p.asnumpy() for p in direct_params])
    for (name, want), (_, have) in zip(direct.parameters_and_names(), compiled.parameters_and_names()):
        np.testing.assert_allclose(have.asnumpy(), want.asnumpy(), rtol=1e-5, atol=1e-6, err_msg=name)


def test_base_optimizer_construct_is_not_implemented():
    with pytest.raises(NotImplementedError, match=r"For 'Optimizer': an optimizer must define construct"):
        nn.Optimizer(0.5, _params()).construct()


def test_optimizer_target_is_settable_where_mindspore_lets_it():
    net = nn.Dense(2, 2)
    ftrl = nn.FTRL(net.trainable_params())
    ftrl.target = "CPU"
    ftrl.target = "Ascend"
    assert ftrl.target == "Ascend"
    with pytest.raises(TypeError, match=r"For 'FTRL', the property 'target' must be a str, got int"):
        ftrl.target = 1
    with pytest.raises(ValueError, match=r"For 'FTRL', the property 'target' must be 'CPU', 'Ascend' or 'GPU'"):
        ftrl.target = "TPU"
    adam = nn.Adam(net.trainable_params(), learning_rate=0.1)
    adam.target = "CPU"
    assert adam.target == "CPU"
    with pytest.raises(ValueError, match=r"For 'Adam', .*cannot be set to 'Ascend' in the 'CPU' environment"):
        adam.target = "Ascend"
    sgd = nn.SGD(net.trainable_params(), learning_rate=0.1)
    with pytest.raises(NotImplementedError, match=r"For 'SGD', the property 'target' cannot be set"):
        sgd.target = "CPU"
