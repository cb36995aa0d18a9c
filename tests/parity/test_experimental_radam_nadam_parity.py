"""experimental.optim.RAdam and NAdam against MindSpore 2.10: the parameters after a few direct
steps from the same values and gradients (RAdam's steps cover both sides of rho_t > 5), and
MindSpore's messages for bad arguments."""
import os

os.environ.setdefault("GLOG_v", "3")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

mindspore = pytest.importorskip("mindspore")

import mindjax  # noqa: E402
from mindjax.experimental import optim as mj_optim  # noqa: E402

STEPS = 8


def _values():
    rng = np.random.default_rng(0)
    return ([rng.normal(size=(3, 2)).astype(np.float32), rng.normal(size=(2,)).astype(np.float32)],
            [[rng.normal(size=(3, 2)).astype(np.float32), rng.normal(size=(2,)).astype(np.float32)]
             for _ in range(STEPS)])


def _run(framework, optim_module, name, kwargs):
    inits, grads = _values()
    params = [framework.Parameter(framework.Tensor(v), name=f"p{i}") for i, v in enumerate(inits)]
    opt = getattr(optim_module, name)(params, **kwargs)
    for g in grads:
        opt(tuple(framework.Tensor(x) for x in g))
    return [p.asnumpy() for p in params]


@pytest.mark.parametrize("name, kwargs", [
    ("RAdam", {}),
    ("RAdam", {"lr": 0.05, "betas": (0.8, 0.9), "weight_decay": 0.1}),
    ("NAdam", {}),
    ("NAdam", {"lr": 0.05, "betas": (0.8, 0.9), "weight_decay": 0.1, "momentum_decay": 0.01}),
])
def test_steps_match_mindspore(name, kwargs):
    from mindspore.experimental import optim as ms_optim

    expected = _run(mindspore, ms_optim, name, kwargs)
    got = _run(mindjax, mj_optim, name, kwargs)
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g, e, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name, kwargs, message", [
    ("RAdam", {"lr": 0.0}, "For RAdam, the lr must be greater than 0.0, but got 0.0."),
    ("RAdam", {"eps": -1.0}, "For RAdam, the eps must be greater than 0.0"),
    ("RAdam", {"weight_decay": -0.1}, "For RAdam, the weight_decay must be greater than or equal to 0.0"),
    ("NAdam", {"momentum_decay": -1.0}, "For NAdam, the momentum_decay must be greater than or equal to 0.0"),
    ("NAdam", {"betas": (1.0, 0.9)}, "betas\\[0\\]"),
])
def test_bad_arguments_are_refused_naming_them(name, kwargs, message):
    params = [mindjax.Parameter(mindjax.Tensor(np.ones(2, np.float32)), name="w")]
    with pytest.raises(ValueError, match=message):
        getattr(mj_optim, name)(params, **kwargs)
