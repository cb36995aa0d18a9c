"""LazyAdam, AdamOffload, AdaFactor and LARS against MindSpore 2.10.

Direct-call parity for many configurations is in test_optim_parity.py (its CASES). Here: a
TrainOneStepCell and Model.train in PYNATIVE and GRAPH mode from the same weights and data, the
parameters and optimizer state after three steps; AdaFactor without a first moment; LARS (no CPU
kernel in MindSpore 2.10) against its documented update; and MindSpore's messages for bad arguments.
"""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402
import mindjax.train  # noqa: E402,F401
from tests.parity import nets_compat_mj, nets_compat_ms  # noqa: E402
from tests.parity.nets_optim_cases import gradient_sequence, initial_values  # noqa: E402
from tests.parity.test_train_parity import _BatchList  # noqa: E402

OPTIMIZERS = {
    "lazy_adam": lambda nn, p: nn.LazyAdam(p, 0.05, weight_decay=0.01, loss_scale=2.0),
    "adam_offload": lambda nn, p: nn.AdamOffload(p, 0.05, use_nesterov=False, weight_decay=0.01),
    "ada_factor": lambda nn, p: nn.AdaFactor(p, weight_decay=0.01),
}


def _weights():
    rng = np.random.default_rng(1)
    return {"fc1.weight": rng.normal(size=(8, 4)).astype(np.float32) * 0.5,
            "fc1.bias": rng.normal(size=(8,)).astype(np.float32) * 0.1,
            "fc2.weight": rng.normal(size=(3, 8)).astype(np.float32) * 0.5,
            "fc2.bias": rng.normal(size=(3,)).astype(np.float32) * 0.1}


def _batches():
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(8, 4)).astype(np.float32), rng.integers(0, 3, 8).astype(np.int32))
            for _ in range(3)]


def _net(framework, module):
    net = module.SmallNet()
    for p in net.get_parameters():
        p.set_data(framework.Tensor(_weights()[p.name]))
    return net


def _state(cell):
    return {n: np.asarray(p.asnumpy()) for n, p in cell.parameters_and_names()}


def _train_one_step(framework, module, make, graph):
    framework.set_context(mode=framework.GRAPH_MODE if graph else framework.PYNATIVE_MODE)
    net = _net(framework, module)
    loss = framework.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = framework.nn.TrainOneStepCell(framework.nn.WithLossCell(net, loss), make(framework.nn,
                                                                                    net.trainable_params()))
    losses = [float(step(framework.Tensor(x), framework.Tensor(y)).asnumpy()) for x, y in _batches()]
    return losses, _state(step)


def _assert_same_state(got, want):
    assert sorted(got) == sorted(want)
    for name in want:
        np.testing.assert_allclose(got[name], want[name].reshape(got[name].shape), rtol=1e-5, atol=1e-6,
                                   err_msg=name)


@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_train_one_step_cell_matches_mindspore_after_three_steps(name, graph):
    want_losses, want = _train_one_step(mindspore, nets_compat_ms, OPTIMIZERS[name], graph)
    got_losses, got = _train_one_step(mindjax, nets_compat_mj, OPTIMIZERS[name], graph)
    mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    np.testing.assert_allclose(got_losses, want_losses, rtol=1e-5, atol=1e-6)
    _assert_same_state(got, want)


def _model_train(framework, module, make):
    framework.set_context(mode=framework.GRAPH_MODE)
    net = _net(framework, module)
    loss = framework.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    model = framework.train.Model(net, loss, make(framework.nn, net.trainable_params()))
    model.train(1, _BatchList(framework, _batches()), dataset_sink_mode=False)
    return _state(model.train_network)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_model_train_matches_mindspore(name):
    want = _model_train(mindspore, nets_compat_ms, OPTIMIZERS[name])
    got = _model_train(mindjax, nets_compat_mj, OPTIMIZERS[name])
    mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    _assert_same_state(got, want)


def _direct(framework, make, steps=3):
    params = [framework.Parameter(framework.Tensor(v), name=n) for n, v in initial_values().items()]
    opt = make(framework.nn, params)
    for grads in gradient_sequence(steps):
        opt(tuple(framework.Tensor(g) for g in grads))
    return [(n, np.asarray(p.asnumpy())) for n, p in opt.parameters_and_names()]


def test_ada_factor_without_first_moment_matches_mindspore():
    make = lambda nn, p: nn.AdaFactor(p, learning_rate=0.01, relative_step=False, beta1=None)  # noqa: E731
    want, got = _direct(mindspore, make), _direct(mindjax, make)
    # MindSpore names the one shared 0-D placeholder 'Parameter$<counter>'; MindJAX names it 'exp_avg'.
    assert [n for n, _ in got] == [n if not n.startswith("Parameter$") else "exp_avg" for n, _ in want]
    for (name, w), (_, g) in zip(want, got):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6, err_msg=name)


def test_optimizer_state_names_and_shapes_match_mindspore():
    def names(framework, make):
        params = [framework.Parameter(framework.Tensor(v), name=n) for n, v in initial_values().items()]
        return [(n, tuple(p.shape), str(p.dtype)) for n, p in make(framework.nn, params).parameters_and_names()]

    for make in list(OPTIMIZERS.values()) + [lambda nn, p: nn.LARS(nn.Momentum(p, 0.1, 0.9, weight_decay=0.1)),
                                             lambda nn, p: nn.AdaFactor(p, compression=True)]:
        assert names(mindjax, make) == names(mindspore, make)


# -- LARS: MindSpore 2.10 has no CPU kernel for LARSUpdate; its documented update in numpy -------------

def _lars_reference(values, grads_seq, lr, momentum, wd, loss_scale, epsilon, coefficient, use_clip, lars_on):
    ws = [v.copy() for v in values]
    moments = [np.zeros_like(w) for w in ws]
    for grads in grads_seq:
        for i, g in enumerate(grads):
            g = g / np.float32(loss_scale)
            decay = wd if "beta" not in NAMES[i] and "gamma" not in NAMES[i] else 0.0
            if lars_on[i]:
                w_norm, g_norm = np.linalg.norm(ws[i]), np.linalg.norm(g)
                trust = coefficient * w_norm / (g_norm + decay * w_norm + epsilon)
                if use_clip:
                    trust = min(trust / lr, 1.0)
                if w_norm == 0 or g_norm == 0:
                    trust = 1.0
                g = (g + decay * ws[i]) * trust
            moments[i] = momentum * moments[i] + g
            ws[i] = ws[i] - lr * moments[i]
    return ws


NAMES = list(initial_values())


@pytest.mark.parametrize("use_clip", [False, True])
@pytest.mark.parametrize("graph", [False, True], ids=["pynative", "graph"])
def test_lars_follows_the_documented_update_in_both_modes(use_clip, graph):
    mindjax.set_context(mode=mindjax.GRAPH_MODE if graph else mindjax.PYNATIVE_MODE)
    values, grads_seq = list(initial_values().values()), gradient_sequence(3)
    params = [mindjax.Parameter(mindjax.Tensor(v), name=n) for n, v in initial_values().items()]
    inner = mindjax.nn.Momentum(params, 0.1, 0.9, weight_decay=0.05, loss_scale=4.0)
    opt = mindjax.nn.LARS(inner, epsilon=1e-6, coefficient=0.02, use_clip=use_clip,
                          lars_filter=lambda p: "bias" not in p.name)
    for grads in grads_seq:
        opt(tuple(mindjax.Tensor(g) for g in grads))
    mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    want = _lars_reference(values, grads_seq, 0.1, 0.9, 0.05, 4.0, 1e-6, 0.02, use_clip,
                           ["bias" not in n for n in NAMES])
    for p, w in zip(params, want):
        np.testing.assert_allclose(p.asnumpy(), w, rtol=1e-5, atol=1e-6, err_msg=p.name)
    assert int(opt.global_step.asnumpy()[0]) == 3 and opt.global_step is inner.global_step


def test_lars_in_a_train_one_step_cell_trains_in_graph_mode():
    mindjax.set_context(mode=mindjax.GRAPH_MODE)
    net = _net(mindjax, nets_compat_mj)
    loss = mindjax.nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    opt = mindjax.nn.LARS(mindjax.nn.Momentum(net.trainable_params(), 0.5, 0.9), coefficient=0.1)
    step = mindjax.nn.TrainOneStepCell(mindjax.nn.WithLossCell(net, loss), opt)
    x, y = _batches()[0]
    losses = [float(step(mindjax.Tensor(x), mindjax.Tensor(y)).asnumpy()) for _ in range(5)]
    mindjax.set_context(mode=mindjax.PYNATIVE_MODE)
    assert losses[-1] < losses[0]
    assert not np.allclose(net.fc1.weight.asnumpy(), _weights()["fc1.weight"])


# -- bad arguments: MindSpore's error type and message ----------------------------------------------------

def _two(framework):
    return [framework.Parameter(framework.Tensor(np.ones((3, 4), np.float32)), name="fc.weight"),
            framework.Parameter(framework.Tensor(np.ones((3,), np.float32)), name="fc.bias")]


BAD = [
    lambda nn, p: nn.LazyAdam(p, 0.1, beta1=1), lambda nn, p: nn.LazyAdam(p, 0.1, beta1=1.5),
    lambda nn, p: nn.LazyAdam(p, 0.1, eps=0.0), lambda nn, p: nn.LazyAdam(p, 0.1, use_nesterov=1),
    lambda nn, p: nn.LazyAdam(p, 0.1, weight_decay=nn.ExponentialDecayLR(0.1, 0.9, 2)),
    lambda nn, p: nn.AdamOffload(p, 0.1, beta2=0.0), lambda nn, p: nn.AdamOffload(p, 0.1, use_locking=None),
    lambda nn, p: nn.LARS(nn.Momentum(p, 0.1, 0.9), epsilon=1),
    lambda nn, p: nn.LARS(nn.Momentum(p, 0.1, 0.9), use_clip=1),
    lambda nn, p: nn.LARS(nn.Momentum(p, 0.1, 0.9), coefficient=None),
    lambda nn, p: nn.LARS(nn.Momentum([{"params": p[:1], "lr": nn.CosineDecayLR(0.01, 0.1, 3)},
                                       {"params": p[1:]}], 0.1, 0.9), use_clip=True),
    lambda nn, p: nn.AdaFactor(p, eps=1e-3), lambda nn, p: nn.AdaFactor(p, eps=(1e-3, 1)),
    lambda nn, p: nn.AdaFactor(p, eps=(1e-3, -1.0)), lambda nn, p: nn.AdaFactor(p, clip_threshold=1),
    lambda nn, p: nn.AdaFactor(p, decay_rate=1.0), lambda nn, p: nn.AdaFactor(p, weight_decay=1.0),
    lambda nn, p: nn.AdaFactor(p, scale_parameter=0), lambda nn, p: nn.AdaFactor(p, beta1="a"),
    lambda nn, p: nn.AdaFactor(p, beta1=-1), lambda nn, p: nn.AdaFactor(p, compression=1),
    lambda nn, p: nn.AdaFactor(p, relative_step=1),
]


@pytest.mark.parametrize("index", range(len(BAD)))
def test_bad_argument_raises_mindspores_error_and_message(index):
    with pytest.raises((TypeError, ValueError)) as theirs:
        BAD[index](mindspore.nn, _two(mindspore))
    with pytest.raises(type(theirs.value)) as ours:
        BAD[index](mindjax.nn, _two(mindjax))
    assert str(ours.value) == str(theirs.value).split("\n")[0]


@pytest.mark.parametrize("make, words", [
    (lambda nn, p: nn.AdaFactor(p, learning_rate=0.1), "cannot combine manual lr and relative_step"),
    (lambda nn, p: nn.AdaFactor(p, learning_rate=0.1, relative_step=False, warmup_init=True),
     "warmup_init requires relative_step=True"),
    (lambda nn, p: nn.AdaFactor(p, relative_step=False), "learning_rate can not be None"),
    (lambda nn, p: nn.AdaFactor(p, eps=(1e-3,)), "eps must have 2 value"),
    (lambda nn, p: nn.LARS(p), "the type of 'optimizer' should be 'Optimizer'"),
])
def test_bad_argument_raises_a_message_naming_the_optimizer(make, words):
    with pytest.raises(Exception) as theirs:
        make(mindspore.nn, _two(mindspore))
    with pytest.raises((ValueError, TypeError), match=f"^For '(AdaFactor|LARS)', {words}"):
        make(mindjax.nn, _two(mindjax))
    if "optimizer" not in words:  # MindSpore's LARS fails on a list with an AttributeError
        assert type(theirs.value) is ValueError
