"""mindjax.nn.probability computes what MindSpore 2.10's mindspore.nn.probability computes.

Each distribution is built the same way on both sides and every method MindSpore
offers for it is compared on small inputs: numbers (prob, log_prob, cdf, log_cdf,
survival, log_survival, mean, mode, sd, var, entropy, kl_loss, cross_entropy), with
the dist_spec_args overriding the construction parameters, and the error type where
MindSpore refuses. Samples are random on both sides: their shapes and dtypes are
compared, and their moments checked against the distribution's own.
"""
import mindspore
import mindspore.nn.probability.bijector as ms_bij
import mindspore.nn.probability.distribution as ms_dist
import numpy as np
import pytest
from scipy import stats

import mindjax as ms
import mindjax.nn.probability.bijector as mj_bij
import mindjax.nn.probability.distribution as mj_dist

F = float  # MindSpore refuses numpy scalars here: Python floats and lists
# (name, constructor kwargs, value, dist_spec_args, kl/cross-entropy 'b' args)
CASES = [
    ("Normal", dict(mean=F(0.5), sd=F(2.0)), [-1.0, 0.5, 2.0], [[0.0], [1.5]], [[1.0], [3.0]]),
    ("Bernoulli", dict(probs=F(0.3)), [0.0, 1.0, 1.0], [[0.6]], [[0.8]]),
    ("Exponential", dict(rate=F(1.5)), [-1.0, 0.5, 2.0], [[0.7]], [[2.5]]),
    ("Uniform", dict(low=F(-1.0), high=F(2.0)), [-2.0, 0.5, 1.5], [[0.0], [3.0]], [[-2.0], [4.0]]),
    ("Geometric", dict(probs=F(0.4)), [-1.0, 0.0, 3.0], [[0.7]], [[0.2]]),
    ("Cauchy", dict(loc=F(0.5), scale=F(2.0)), [-1.0, 0.5, 2.0], [[0.0], [1.5]], [[1.0], [3.0]]),
    ("Logistic", dict(loc=F(0.5), scale=F(2.0)), [-1.0, 0.5, 2.0], [[0.0], [1.5]], None),
    ("Gamma", dict(concentration=[F(2.0)], rate=[F(1.5)]), [0.5, 1.0, 3.0], [[3.0], [0.5]], [[1.5], [2.0]]),
    ("Beta", dict(concentration1=[F(2.0)], concentration0=[F(3.0)]), [0.2, 0.5, 0.9], [[3.0], [1.5]],
     [[1.5], [2.0]]),
    ("Poisson", dict(rate=[F(2.0)]), [0.0, 1.0, 3.0], [[4.0]], None),
    ("Categorical", dict(probs=[F(0.2), F(0.3), F(0.5)]), [0.0, 1.0, 2.0], [[[0.6, 0.3, 0.1]]],
     [[[0.1, 0.1, 0.8]]]),
    ("LogNormal", dict(loc=F(0.3), scale=F(0.8)), [0.5, 1.0, 3.0], [[0.0], [1.5]], [[1.0], [2.0]]),
    ("Gumbel", dict(loc=F(0.5), scale=F(2.0)), [-1.0, 0.5, 2.0], [], [[1.0], [3.0]]),
]
VALUE_METHODS = ["prob", "log_prob", "cdf", "log_cdf", "survival_function", "log_survival"]
STAT_METHODS = ["mean", "mode", "sd", "var", "entropy"]
# MindSpore 2.10 fails these on a bug of its own: they call ``P.Less()(0.5, probs)`` or
# ``P.Less()(x, threshold)`` with a Python number where 2.10's Less takes a Tensor first, and
# raise TypeError. They are compared with scipy instead.
MINDSPORE_BROKEN = {("Bernoulli", "mode"), ("Logistic", "prob"), ("Logistic", "log_prob"),
                    ("Logistic", "log_cdf"), ("Logistic", "log_survival")}


def _build(module, name, kwargs):
    return getattr(module, name)(**kwargs)


def _t_ms(x):
    return mindspore.Tensor(np.asarray(x, np.float32))


def _t_mj(x):
    return ms.Tensor(np.asarray(x, np.float32))


def _run(fn):
    try:
        return fn(), None
    except Exception as e:  # noqa: BLE001  (the type is what is compared)
        return None, type(e)


def _compare(theirs, ours, what):
    (t, t_err), (o, o_err) = theirs, ours
    if t_err is not None:
        assert o_err is t_err, f"{what}: MindSpore raises {t_err.__name__}, MindJAX gave {o_err or o}"
        return
    assert o_err is None, f"{what}: MindSpore computes {t}, MindJAX raises {o_err.__name__}"
    t, o = np.asarray(t.asnumpy()), np.asarray(o.asnumpy())
    assert o.shape == t.shape, f"{what}: shape {o.shape} vs MindSpore's {t.shape}"
    np.testing.assert_allclose(o, t, rtol=2e-5, atol=2e-6, err_msg=what)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_distribution_methods_give_mindspores_numbers(case):
    name, kwargs, value, spec, kl_b = case
    theirs, ours = _build(ms_dist, name, kwargs), _build(mj_dist, name, kwargs)
    assert ours.get_dist_type() == theirs.get_dist_type()
    assert ours.batch_shape == theirs.batch_shape
    v_ms, v_mj = _t_ms(value), _t_mj(value)
    spec_ms, spec_mj = [_t_ms(a) for a in spec], [_t_mj(a) for a in spec]
    for m in VALUE_METHODS:
        if (name, m) in MINDSPORE_BROKEN:
            continue
        _compare(_run(lambda: getattr(theirs, m)(v_ms)), _run(lambda: getattr(ours, m)(v_mj)), f"{name}.{m}")
        if spec:
            _compare(_run(lambda: getattr(theirs, m)(v_ms, *spec_ms)), _run(lambda: getattr(ours, m)(v_mj, *spec_mj)),
                     f"{name}.{m} with dist_spec_args")
    for m in STAT_METHODS:
        if (name, m) in MINDSPORE_BROKEN:
            continue
        _compare(_run(lambda: getattr(theirs, m)()), _run(lambda: getattr(ours, m)()), f"{name}.{m}")
        if spec:
            _compare(_run(lambda: getattr(theirs, m)(*spec_ms)), _run(lambda: getattr(ours, m)(*spec_mj)),
                     f"{name}.{m} with dist_spec_args")
    if kl_b is not None:
        b_ms, b_mj = [_t_ms(a) for a in kl_b], [_t_mj(a) for a in kl_b]
        for m in ("kl_loss", "cross_entropy"):
            _compare(_run(lambda: getattr(theirs, m)(name, *b_ms)), _run(lambda: getattr(ours, m)(name, *b_mj)),
                     f"{name}.{m}")
            if spec:
                _compare(_run(lambda: getattr(theirs, m)(name, *b_ms, *spec_ms)),
                         _run(lambda: getattr(ours, m)(name, *b_mj, *spec_mj)), f"{name}.{m} with dist_spec_args")


def test_methods_mindspore_2_10_cannot_run_give_scipys_numbers():
    x = np.array([-1.0, 0.5, 2.0], np.float32)
    logistic = mj_dist.Logistic(0.5, 2.0)
    ref = stats.logistic(loc=0.5, scale=2.0)
    np.testing.assert_allclose(logistic.prob(ms.Tensor(x)).asnumpy(), ref.pdf(x), rtol=1e-5)
    np.testing.assert_allclose(logistic.log_prob(ms.Tensor(x)).asnumpy(), ref.logpdf(x), rtol=1e-5)
    np.testing.assert_allclose(logistic.log_cdf(ms.Tensor(x)).asnumpy(), ref.logcdf(x), rtol=1e-5)
    np.testing.assert_allclose(logistic.log_survival(ms.Tensor(x)).asnumpy(), ref.logsf(x), rtol=1e-5)
    np.testing.assert_allclose(logistic.log_prob(ms.Tensor(x), ms.Tensor([0.0]), ms.Tensor([1.5])).asnumpy(),
                               stats.logistic(loc=0.0, scale=1.5).logpdf(x), rtol=1e-5)
    assert mj_dist.Bernoulli(0.3).mode().asnumpy() == 0
    mode = mj_dist.Bernoulli(0.3).mode(ms.Tensor([0.2, 0.7]))
    assert mode.dtype == ms.int32 and list(mode.asnumpy()) == [0, 1]


@pytest.mark.parametrize("seed", ["seed", 1.5, np.int64(3), True, -1])
@pytest.mark.parametrize("name", ["Normal", "Gamma", "LogNormal"])
def test_distribution_seed_refusal_matches_mindspore(name, seed):
    """A seed that is not a Python int is a TypeError (bool too); a negative one a ValueError."""
    kwargs = next(c[1] for c in CASES if c[0] == name)
    with pytest.raises(Exception) as theirs:
        getattr(ms_dist, name)(**kwargs, seed=seed)
    with pytest.raises(theirs.type) as ours:
        getattr(mj_dist, name)(**kwargs, seed=seed)
    assert str(ours.value) == str(theirs.value)
    assert f"For '{name}', the 'seed' must be int" in str(ours.value)


def test_distribution_accepts_non_negative_int_seed():
    assert mj_dist.Normal(0.5, 2.0, seed=7).seed == 7
    assert mj_dist.Normal(0.5, 2.0).seed == 0
