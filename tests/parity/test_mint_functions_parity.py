"""``mindjax.mint`` functions against ``mindspore.mint`` 2.10 on small inputs.

Each row: a call made on both ``mint`` modules, its numpy inputs, and a numpy formula with
PyTorch's semantics, used where MindSpore 2.10 has no CPU kernel for the op (see
``_mint_cases.mindspore_or_formula``).
"""
import math

import mindspore
import mindspore.mint as msmint
import numpy as np
import pytest
from _mint_cases import assert_close, mindspore_or_formula, mj, to_np

import mindjax as ms
from mindjax import mint

_RNG = np.random.default_rng(3)
A = _RNG.standard_normal((2, 3)).astype(np.float32)
B = _RNG.standard_normal((2, 3)).astype(np.float32)
P = (np.abs(A) + 0.5).astype(np.float32)
U = np.clip(A / 4, -0.9, 0.9).astype(np.float32)
I = np.array([[3, 1, 7], [4, 6, 2]], np.int32)
IDX = np.array([[0, 2, 1], [1, 0, 0]], np.int64)
M3 = _RNG.standard_normal((2, 3, 3)).astype(np.float32)
SQ = (np.eye(3) * 2 + _RNG.standard_normal((3, 3)) * 0.1).astype(np.float32)
V = _RNG.standard_normal((3,)).astype(np.float32)


def _var(x, axis, corr, keep=False):
    return np.var(x, axis=axis, ddof=corr, keepdims=keep)


UNARY = {
    "acos": np.arccos, "acosh": np.arccosh, "arccos": np.arccos, "arcsin": np.arcsin,
    "arcsinh": np.arcsinh, "arctan": np.arctan, "arctanh": np.arctanh, "asin": np.arcsin, "asinh": np.arcsinh,
    "atan": np.arctan, "atanh": np.arctanh, "cosh": np.cosh, "sinh": np.sinh, "tan": np.tan,
    "erfc": lambda x: np.vectorize(math.erfc)(x), "exp2": np.exp2, "expm1": np.expm1, "log10": np.log10,
    "log1p": np.log1p, "log2": np.log2, "negative": np.negative, "sinc": np.sinc, "trunc": np.trunc,
    "fix": np.trunc, "frac": lambda x: x - np.trunc(x), "isinf": np.isinf, "isneginf": np.isneginf,
    "ravel": np.ravel, "t": np.transpose, "clone": np.copy,
}
_SHIFTED = {"acosh": 2, "log10": 1, "log2": 1}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    x = (U + _SHIFTED.get(name, 0)).astype(np.float32)
    want, _ = mindspore_or_formula(lambda: getattr(msmint, name)(mindspore.Tensor(x)),
                                   lambda: UNARY[name](x))
    assert_close(to_np(getattr(mint, name)(ms.Tensor(x))), want, rtol=1e-4, atol=1e-5)


def test_erfinv_and_bitwise_not():
    assert_close(to_np(mint.erfinv(ms.Tensor(np.array([0.0, 0.5], np.float32)))), np.array([0.0, 0.4769363]), rtol=1e-5)
    assert_close(to_np(mint.bitwise_not(ms.Tensor(I))), ~I)


BINARY = {
    "arctan2": np.arctan2, "atan2": np.arctan2, "eq": np.equal, "fmod": np.fmod, "ge": np.greater_equal,
    "greater_equal": np.greater_equal, "gt": np.greater, "le": np.less_equal, "less": np.less,
    "less_equal": np.less_equal, "ne": np.not_equal, "logaddexp": np.logaddexp, "logaddexp2": np.logaddexp2,
    "logical_xor": lambda a, b: np.logical_xor(a > 0, b > 0), "mul": np.multiply,
    "xlogy": lambda a, b: a * np.log(b), "float_power": lambda a, b: np.power(a.astype(np.float64), b),
    "div": np.divide, "divide": np.divide,
}


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary(name):
    a, b = (A, P) if name in ("xlogy",) else (P, B) if name == "float_power" else (A, B)
    if name == "logical_xor":
        a, b = a > 0, b > 0
    want, _ = mindspore_or_formula(lambda: getattr(msmint, name)(mindspore.Tensor(a), mindspore.Tensor(b)),
                                   lambda: BINARY[name](a, b))
    assert_close(to_np(getattr(mint, name)(ms.Tensor(a), ms.Tensor(b))), want, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["bitwise_and", "bitwise_or", "bitwise_xor", "gcd"])
def test_integer_binary(name):
    b = I[::-1].copy()
    formula = {"bitwise_and": np.bitwise_and, "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
               "gcd": np.gcd}[name]
    want, _ = mindspore_or_formula(lambda: getattr(msmint, name)(mindspore.Tensor(I), mindspore.Tensor(b)),
                                   lambda: formula(I, b))
    assert_close(to_np(getattr(mint, name)(ms.Tensor(I), ms.Tensor(b))), want)


# (call on a mint module, numpy inputs, numpy formula)
CASES = [
    ("add_alpha", lambda m, a, b: m.add(a, b, alpha=2), (A, B), lambda a, b: a + 2 * b),
    ("sub_alpha", lambda m, a, b: m.sub(a, b, alpha=0.5), (A, B), lambda a, b: a - 0.5 * b),
    ("div_floor", lambda m, a, b: m.div(a, b, rounding_mode="floor"), (A, B), lambda a, b: np.floor(a / b)),
    ("div_trunc", lambda m, a, b: m.div(a, b, rounding_mode="trunc"), (A, B), lambda a, b: np.trunc(a / b)),
    ("clamp", lambda m, a: m.clamp(a, -0.5, 0.5), (A,), lambda a: np.clip(a, -0.5, 0.5)),
    ("clip_min", lambda m, a: m.clip(a, min=0.0), (A,), lambda a: np.maximum(a, 0)),
    ("lerp", lambda m, a, b: m.lerp(a, b, 0.3), (A, B), lambda a, b: a + 0.3 * (b - a)),
    ("addcmul", lambda m, a, b: m.addcmul(a, b, a, value=0.5), (A, B), lambda a, b: a + 0.5 * a * b),
    ("addcdiv", lambda m, a, b: m.addcdiv(a, a, b, value=2), (A, B), lambda a, b: a + 2 * a / b),
    ("where", lambda m, a, b: m.where(a > 0, a, b), (A, B), lambda a, b: np.where(a > 0, a, b)),
    ("where_one", lambda m, a: m.where(a > 0)[1], (A,), lambda a: np.nonzero(a > 0)[1]),
    ("max_all", lambda m, a: m.max(a), (A,), lambda a: a.max()),
    ("max_dim", lambda m, a: m.max(a, 1, keepdim=True), (A,), lambda a: [a.max(1, keepdims=True),
                                                                        a.argmax(1)[:, None]]),
    ("max_other", lambda m, a, b: m.max(a, b), (A, B), np.maximum),
    ("min_dim", lambda m, a: m.min(a, dim=0), (A,), lambda a: [a.min(0), a.argmin(0)]),
    ("min_all", lambda m, a: m.min(a), (A,), lambda a: a.min()),
    ("amax", lambda m, a: m.amax(a), (A,), lambda a: a.max()),
    ("amax_dim", lambda m, a: m.amax(a, 1, True), (A,), lambda a: a.max(1, keepdims=True)),
    ("amin_dim", lambda m, a: m.amin(a, dim=(0, 1)), (A,), lambda a: a.min()),
    ("any", lambda m, a: m.any(a > 1), (A,), lambda a: (a > 1).any()),
    ("any_dim", lambda m, a: m.any(a > 1, 1, True), (A,), lambda a: (a > 1).any(1, keepdims=True)),
    ("count_nonzero", lambda m, a: m.count_nonzero(a), (I,), lambda a: np.count_nonzero(a)),
    ("count_nonzero_dim", lambda m, a: m.count_nonzero(a - 1, dim=1), (I,), lambda a: np.count_nonzero(a - 1, 1)),
    ("nansum", lambda m, a: m.nansum(a, 1), (A,), lambda a: a.sum(1)),
    ("median_all", lambda m, a: m.median(a), (A,), lambda a: np.sort(a.ravel())[(a.size - 1) // 2]),
    ("median_dim", lambda m, a: m.median(a, 1)[0], (A,), lambda a: np.sort(a, 1)[:, 1]),
    ("kthvalue", lambda m, a: m.kthvalue(a, 2, 1), (A,), lambda a: [np.sort(a, 1)[:, 1], np.argsort(a, 1)[:, 1]]),
    ("std", lambda m, a: m.std(a, 1), (A,), lambda a: np.sqrt(_var(a, 1, 1))),
    ("std_corr0", lambda m, a: m.std(a, dim=0, correction=0, keepdim=True), (A,),
     lambda a: np.sqrt(_var(a, 0, 0, True))),
    ("var", lambda m, a: m.var(a), (A,), lambda a: _var(a, None, 1)),
    ("var_mean", lambda m, a: m.var_mean(a, 1), (A,), lambda a: [_var(a, 1, 1), a.mean(1)]),
    ("std_mean", lambda m, a: m.std_mean(a, 0), (A,), lambda a: [np.sqrt(_var(a, 0, 1)), a.mean(0)]),
    ("norm", lambda m, a: m.norm(a), (A,), lambda a: np.linalg.norm(a)),
    ("norm_p1_dim", lambda m, a: m.norm(a, 1, dim=1), (A,), lambda a: np.abs(a).sum(1)),
    ("cumprod", lambda m, a: m.cumprod(a, 1), (A,), lambda a: np.cumprod(a, 1)),
    ("cummax", lambda m, a: m.cummax(a, 1)[0], (A,), lambda a: np.maximum.accumulate(a, 1)),
    ("cummin", lambda m, a: m.cummin(a, 0)[0], (A,), lambda a: np.minimum.accumulate(a, 0)),
    ("sort", lambda m, a: m.sort(a, dim=1, descending=True), (A,), lambda a: [-np.sort(-a, 1), np.argsort(-a, 1)]),
    ("unique", lambda m, a: m.unique(a, return_inverse=True, return_counts=True), (I % 3,),
     lambda a: list(np.unique(a, return_inverse=True, return_counts=True))),
    ("unique_consecutive", lambda m, a: m.unique_consecutive(a), (np.array([1, 1, 2, 2, 1], np.int32),),
     lambda a: np.array([1, 2, 1])),
    ("gather", lambda m, a, i: m.gather(a, 1, i), (A, IDX), lambda a, i: np.take_along_axis(a, i, 1)),
    ("index_select", lambda m, a, i: m.index_select(a, 1, i), (A, np.array([2, 0], np.int64)),
     lambda a, i: a[:, i]),
    ("index_add", lambda m, a, i, s: m.index_add(a, 0, i, s, alpha=2), (A, np.array([1, 0], np.int32), B),
     lambda a, i, s: a + 2 * s[::-1]),
    ("scatter", lambda m, a, i, s: m.scatter(a, 1, i[:, :1], s[:, :1]), (A, IDX, B),
     lambda a, i, s: _scatter(a, i[:, :1], s[:, :1], False)),
    ("scatter_add", lambda m, a, i, s: m.scatter_add(a, 1, i, s), (A, IDX, B), lambda a, i, s: _scatter(a, i, s, True)),
    ("select", lambda m, a: m.select(a, 1, -1), (A,), lambda a: a[:, -1]),
    ("take", lambda m, a, i: m.take(a, i), (A, np.array([0, 5], np.int64)), lambda a, i: a.ravel()[i]),
    ("flatten", lambda m, a: m.flatten(a), (M3,), lambda a: a.reshape(-1)),
    ("flatten_dims", lambda m, a: m.flatten(a, 1), (M3,), lambda a: a.reshape(2, 9)),
    ("reshape", lambda m, a: m.reshape(a, (3, -1)), (A,), lambda a: a.reshape(3, 2)),
    ("squeeze", lambda m, a: m.squeeze(a[:, :1], 1), (A,), lambda a: a[:, 0]),
    ("swapaxes", lambda m, a: m.swapaxes(a, 0, 2), (M3,), lambda a: a.swapaxes(0, 2)),
    ("transpose", lambda m, a: m.transpose(a, 1, 2), (M3,), lambda a: a.swapaxes(1, 2)),
    ("unbind", lambda m, a: m.unbind(a, 1)[2], (A,), lambda a: a[:, 2]),
    ("repeat_interleave", lambda m, a: m.repeat_interleave(a, 2, dim=1), (A,), lambda a: np.repeat(a, 2, 1)),
    ("diag_1d", lambda m, v: m.diag(v, 1), (V,), lambda v: np.diag(v, 1)),
    ("diag_2d", lambda m, a: m.diag(a, -1), (SQ,), lambda a: np.diag(a, -1)),
    ("dstack", lambda m, a, b: m.dstack([a, b]), (A, B), lambda a, b: np.dstack([a, b])),
    ("hstack", lambda m, a, b: m.hstack((a, b)), (A, B), lambda a, b: np.hstack([a, b])),
    ("meshgrid", lambda m, v: m.meshgrid(v, v[:2]), (V,), lambda v: list(np.meshgrid(v, v[:2], indexing="ij"))),
    ("meshgrid_xy", lambda m, v: m.meshgrid(v, v[:2], indexing="xy")[0], (V,),
     lambda v: np.meshgrid(v, v[:2], indexing="xy")[0]),
    ("bmm", lambda m, a: m.bmm(a, a), (M3,), lambda a: a @ a),
    ("mv", lambda m, a, v: m.mv(a, v), (SQ, V), lambda a, v: a @ v),
    ("vdot", lambda m, v: m.vdot(v, v), (V,), lambda v: np.vdot(v, v)),
    ("addmv", lambda m, v, a: m.addmv(v, a, v, beta=0.5, alpha=2), (V, SQ), lambda v, a: 0.5 * v + 2 * a @ v),
    ("addbmm", lambda m, a, b: m.addbmm(a, b, b, alpha=0.5), (SQ, M3), lambda a, b: a + 0.5 * (b @ b).sum(0)),
    ("cdist", lambda m, a, b: m.cdist(a, b), (A, B),
     lambda a, b: np.sqrt(((a[:, None] - b[None]) ** 2).sum(-1))),
    ("cross", lambda m, a, b: m.cross(a, b, dim=1), (A, B), lambda a, b: np.cross(a, b, axis=1)),
    ("diff", lambda m, a: m.diff(a, dim=1), (A,), lambda a: np.diff(a, axis=1)),
    ("inverse", lambda m, a: m.inverse(a), (SQ,), np.linalg.inv),
    ("nan_to_num", lambda m, a: m.nan_to_num(a / 0.0, nan=1.0, posinf=9.0, neginf=-9.0), (A,),
     lambda a: np.nan_to_num(a / 0.0, nan=1.0, posinf=9.0, neginf=-9.0)),
    ("isclose", lambda m, a, b: m.isclose(a, a + b * 1e-6), (A, B), lambda a, b: np.isclose(a, a + b * 1e-6)),
    ("triangular_solve", lambda m, v, a: m.triangular_solve(v, a)[0], (A.T.copy(), np.triu(SQ)),
     lambda v, a: np.linalg.solve(a, v)),
    ("ones", lambda m: m.ones((2, 3), dtype=None), (), lambda: np.ones((2, 3), np.float32)),
    ("ones_int", lambda m: m.ones(3), (), lambda: np.ones(3, np.float32)),
    ("linspace", lambda m: m.linspace(0, 1, 5), (), lambda: np.linspace(0, 1, 5, dtype=np.float32)),
    ("polar", lambda m, a, b: m.polar(a, b), (P, B), lambda a, b: a * np.exp(1j * b)),
    ("real", lambda m, a, b: m.real(m.polar(a, b)), (P, B), lambda a, b: a * np.cos(b)),
    ("imag", lambda m, a, b: m.imag(m.polar(a, b)), (P, B), lambda a, b: a * np.sin(b)),
]


def _scatter(a, i, s, add):
    out = a.copy()
    for r in range(i.shape[0]):
        for c in range(i.shape[1]):
            if add:
                out[r, i[r, c]] += s[r, c]
            else:
                out[r, i[r, c]] = s[r, c]
    return out


@pytest.mark.parametrize("name,call,inputs,formula", CASES, ids=[c[0] for c in CASES])
def test_function(name, call, inputs, formula):
    want, source = mindspore_or_formula(lambda: call(msmint, *[mindspore.Tensor(x) for x in inputs]),
                                        lambda: formula(*inputs))
    got = to_np(call(mint, *[mj(x) for x in inputs]))
    if source == "formula":  # a tuple result compares element by element
        want = want if isinstance(want, list) else np.asarray(want)
    assert_close(got if isinstance(want, list) else np.asarray(got), want, rtol=1e-4, atol=1e-5)


def test_predicates_return_python_bools():
    a = ms.Tensor(A)
    assert mint.allclose(a, a + 1e-9) is True and mint.allclose(a, a + 1) is False
    assert mint.equal(a, a) is True and mint.equal(a, a[:1]) is False
    assert mint.item(ms.Tensor(np.array([2.5], np.float32))) == 2.5


def test_random_functions_shapes_dtypes_and_seeding():
    ms.set_seed(5)
    first = [to_np(f()) for f in (lambda: mint.rand(2, 3), lambda: mint.randn((2, 3)), lambda: mint.randint(5, (4,)),
                                  lambda: mint.randperm(6), lambda: mint.normal(1.0, 2.0, (3,)))]
    ms.set_seed(5)
    again = [to_np(f()) for f in (lambda: mint.rand(2, 3), lambda: mint.randn((2, 3)), lambda: mint.randint(5, (4,)),
                                  lambda: mint.randperm(6), lambda: mint.normal(1.0, 2.0, (3,)))]
    for x, y in zip(first, again):
        np.testing.assert_array_equal(x, y)
    assert first[0].shape == (2, 3) and 0 <= first[0].min() and first[0].max() < 1
    assert first[2].dtype == np.int64 and first[2].min() >= 0 and first[2].max() < 5
    assert sorted(first[3].tolist()) == list(range(6)) and first[3].dtype == np.int64
    x = ms.Tensor(A)
    assert mint.rand_like(x).shape == (2, 3) and mint.randn_like(x, dtype=ms.float16).dtype == ms.float16
    low_high = to_np(mint.randint(3, 6, (50,)))
    assert low_high.min() >= 3 and low_high.max() < 6
    like = to_np(mint.randint_like(ms.Tensor(I), 2, 4))
    assert like.shape == I.shape and set(np.unique(like)) <= {2, 3}
    draws = to_np(mint.multinomial(ms.Tensor(np.array([0.0, 1.0, 0.0], np.float32)), 2, replacement=True))
    np.testing.assert_array_equal(draws, [1, 1])
    coin = to_np(mint.bernoulli(ms.Tensor(np.array([0.0, 1.0], np.float32))))
    np.testing.assert_array_equal(coin, [0.0, 1.0])
    assert mint.empty(2, 3).shape == (2, 3) and mint.empty_like(x).shape == (2, 3)


@pytest.mark.parametrize("module", ["", ".nn.functional", ".linalg", ".special"])
def test_every_signature_matches_mindspore(module):
    import importlib
    import inspect
    theirs_mod = importlib.import_module("mindspore.mint" + module)
    ours_mod = importlib.import_module("mindjax.mint" + module)
    checked, differ = 0, {}
    for name in (n for n in dir(theirs_mod) if not n.startswith("_")):
        theirs = getattr(theirs_mod, name)
        if inspect.ismodule(theirs) or inspect.isclass(theirs) or not hasattr(ours_mod, name):
            continue
        try:
            want = inspect.signature(theirs).parameters.values()
        except (TypeError, ValueError):
            continue
        if any(p.kind == p.VAR_KEYWORD for p in want):
            continue  # an overloaded MindSpore function: pinned by the calls above
        got = list(inspect.signature(getattr(ours_mod, name)).parameters.values())
        # MindSpore's and MindJAX's dtype objects (randperm's int64 default) are equal by repr
        same = len(got) == len(want) and all(
            g.name == w.name and g.kind == w.kind and (g.default == w.default or repr(g.default) == repr(w.default))
            for g, w in zip(got, want))
        if not same:
            differ[name] = str(inspect.signature(getattr(ours_mod, name)))
        checked += 1
    assert differ == {} and checked >= 4


def test_bad_arguments_name_the_function():
    x = ms.Tensor(A)
    with pytest.raises(TypeError, match=r"For 'mint.std', .*std\(input, dim=None, \*, correction=1, keepdim=False\)"):
        mint.std(x, 1, 1)
    with pytest.raises(ValueError, match=r"mint.kthvalue.*'k' must be an int in \[1, 3\], but got 4"):
        mint.kthvalue(x, 4)
    with pytest.raises(TypeError, match=r"mint.max.*'dim' must be an int or a Tensor"):
        mint.max(x, "1")
    with pytest.raises(TypeError, match=r"mint.where.*'input' and 'other' must both be given"):
        mint.where(x > 0, x)
    with pytest.raises(TypeError, match=r"mint.randint.*\(low, high, size\)"):
        mint.randint(1, 2, 3, 4)


_X4 = _RNG.standard_normal((4, 3, 2, 2)).astype(np.float32)


def test_sync_batch_norm_building_blocks():
    mean, invstd = mindspore_or_formula(
        lambda: msmint.batch_norm_stats(mindspore.Tensor(_X4), 1e-5),
        lambda: [_X4.mean((0, 2, 3)), 1 / np.sqrt(_X4.var((0, 2, 3)) + 1e-5)])[0]
    got = to_np(mint.batch_norm_stats(ms.Tensor(_X4), 1e-5))
    assert_close(got, [mean, invstd], rtol=1e-5)
    w, b = np.array([1.0, 2.0, 0.5], np.float32), np.array([0.0, 1.0, -1.0], np.float32)
    out = to_np(mint.batch_norm_elemt(ms.Tensor(_X4), ms.Tensor(w), ms.Tensor(b), ms.Tensor(mean),
                                      ms.Tensor(invstd), 1e-5))
    assert_close(out, (_X4 - mean.reshape(1, 3, 1, 1)) * invstd.reshape(1, 3, 1, 1) * w.reshape(1, 3, 1, 1)
                 + b.reshape(1, 3, 1, 1), rtol=1e-4, atol=1e-5)
    # Two "devices" holding the halves of the batch give the whole batch's statistics.
    halves = [to_np(mint.batch_norm_stats(ms.Tensor(h), 1e-5)) for h in (_X4[:1], _X4[1:])]
    rm, rv = ms.Parameter(ms.Tensor(np.zeros(3, np.float32)), "rm"), ms.Parameter(ms.Tensor(np.ones(3, np.float32)),
                                                                                  "rv")
    g_mean, g_invstd = mint.batch_norm_gather_stats_with_counts(
        ms.Tensor(_X4), ms.Tensor(np.stack([h[0] for h in halves])), ms.Tensor(np.stack([h[1] for h in halves])),
        rm, rv, 0.1, 1e-5, ms.Tensor(np.array([4.0, 12.0], np.float32)))
    assert_close(to_np(g_mean), mean, rtol=1e-5, atol=1e-6)
    assert_close(to_np(g_invstd), invstd, rtol=1e-4)
    n = _X4.size / 3
    assert_close(to_np(rm), 0.1 * mean, rtol=1e-5, atol=1e-6)
    assert_close(to_np(rv), 0.9 + 0.1 * _X4.var((0, 2, 3)) * n / (n - 1), rtol=1e-5)


def test_conv_tbc_and_addr_():
    x = _RNG.standard_normal((5, 2, 3)).astype(np.float32)  # (T, N, C_in)
    w = _RNG.standard_normal((3, 3, 4)).astype(np.float32)  # (k, C_in, C_out)
    b = _RNG.standard_normal((4,)).astype(np.float32)
    xp = np.pad(x, [(1, 1), (0, 0), (0, 0)])
    want = np.stack([np.einsum("knc,kco->no", xp[t:t + 3], w) for t in range(5)]) + b
    got = to_np(mint.conv_tbc(ms.Tensor(x), ms.Tensor(w), ms.Tensor(b), 1))
    assert_close(got, mindspore_or_formula(lambda: msmint.conv_tbc(*map(mindspore.Tensor, (x, w, b)), 1),
                                           lambda: want)[0], rtol=1e-4, atol=1e-4)
    a = ms.Tensor(A)
    out = mint.addr_(a, ms.Tensor(A[:, 0]), ms.Tensor(B[0]), beta=0.5, alpha=2)
    assert out is a
    assert_close(to_np(a), 0.5 * A + 2 * np.outer(A[:, 0], B[0]), rtol=1e-5)
