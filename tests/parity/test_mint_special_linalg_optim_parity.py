"""``mindjax.mint.special``, ``mint.linalg`` and ``mint.optim`` against MindSpore 2.10 (numpy formulas where
MindSpore has no CPU kernel, see ``_mint_cases.mindspore_or_formula``)."""
import inspect
import math

import mindspore
import mindspore.mint as msmint
import numpy as np
import pytest
from _mint_cases import assert_close, mindspore_or_formula, to_np

import mindjax as ms
from mindjax import mint

_RNG = np.random.default_rng(9)
X = np.clip(_RNG.standard_normal((2, 3)), -0.9, 0.9).astype(np.float32)
M = (np.eye(3) * 3 + _RNG.standard_normal((3, 3))).astype(np.float32)

SPECIAL = [
    ("erfc", lambda m, x: m.special.erfc(x), lambda x: np.vectorize(math.erfc)(x)),
    ("exp2", lambda m, x: m.special.exp2(x), np.exp2),
    ("expm1", lambda m, x: m.special.expm1(x), np.expm1),
    ("log1p", lambda m, x: m.special.log1p(x), np.log1p),
    ("round", lambda m, x: m.special.round(x * 3), lambda x: np.round(x * 3)),
    ("sinc", lambda m, x: m.special.sinc(x), np.sinc),
    ("log_softmax", lambda m, x: m.special.log_softmax(x, 1),
     lambda x: x - np.log(np.exp(x).sum(1, keepdims=True))),
]
LINALG = [
    ("inv", lambda m, a: m.linalg.inv(a), np.linalg.inv),
    ("vector_norm", lambda m, a: m.linalg.vector_norm(a), lambda a: np.linalg.norm(a.ravel())),
    ("vector_norm_dim", lambda m, a: m.linalg.vector_norm(a, 1, dim=0, keepdim=True),
     lambda a: np.abs(a).sum(0, keepdims=True)),
    ("matrix_norm", lambda m, a: m.linalg.matrix_norm(a), lambda a: np.linalg.norm(a, "fro")),
    ("matrix_norm_nuc", lambda m, a: m.linalg.matrix_norm(a, "nuc"), lambda a: np.linalg.norm(a, "nuc")),
    ("norm", lambda m, a: m.linalg.norm(a), lambda a: np.linalg.norm(a)),
    ("norm_ord", lambda m, a: m.linalg.norm(a, 2), lambda a: np.linalg.norm(a, 2)),
    ("qr_r_abs", lambda m, a: m.linalg.qr(a)[1], lambda a: np.linalg.qr(a)[1]),
]


@pytest.mark.parametrize("name,call,formula", SPECIAL + LINALG, ids=[c[0] for c in SPECIAL + LINALG])
def test_special_and_linalg(name, call, formula):
    x = M if (name, call, formula) in LINALG else X
    want, _ = mindspore_or_formula(lambda: call(msmint, mindspore.Tensor(x)), lambda: formula(x))
    got = to_np(call(mint, ms.Tensor(x)))
    if name == "qr_r_abs":  # the signs of QR's rows are a convention
        got, want = np.abs(got), np.abs(want)
    assert_close(got, want, rtol=1e-4, atol=1e-4)


def test_qr_reconstructs_its_input():
    q, r = (to_np(t) for t in mint.linalg.qr(ms.Tensor(M)))
    np.testing.assert_allclose(q @ r, M, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(r, np.triu(r), atol=1e-6)


@pytest.mark.parametrize("module", ["special", "linalg", "optim"])
def test_signatures_match_mindspore(module):
    theirs_mod, ours_mod = getattr(msmint, module), getattr(mint, module)
    for name in (n for n in dir(theirs_mod) if not n.startswith("_")):
        theirs = getattr(theirs_mod, name)
        if inspect.ismodule(theirs) or name == "absolute_import" or name.endswith("_op"):  # for its own use
            continue
        ours = getattr(ours_mod, name)
        target = "__init__" if inspect.isclass(theirs) else None
        try:
            want = inspect.signature(getattr(theirs, target) if target else theirs).parameters
        except (TypeError, ValueError):
            continue
        got = inspect.signature(getattr(ours, target) if target else ours).parameters
        assert [(n, p.default) for n, p in got.items()] == [(n, p.default) for n, p in want.items()], name


def test_fused_adamw_steps_as_mindsporese():
    from mindspore.experimental import optim as msexperimental
    from mindspore.mint import optim as msoptim
    rs = np.random.RandomState(2)
    w0 = rs.randn(3, 2).astype(np.float32)
    grads = [rs.randn(3, 2).astype(np.float32) for _ in range(3)]

    def run(lib, cls):
        p = lib.Parameter(lib.Tensor(w0), name="w")
        opt = cls([p], lr=0.05, weight_decay=0.1)
        for g in grads:
            opt((lib.Tensor(g),))
        return np.asarray(p.asnumpy())
    ours = run(ms, mint.optim.FusedAdamW)
    np.testing.assert_allclose(ours, run(ms, mint.optim.AdamW), rtol=1e-6)
    want, _ = mindspore_or_formula(lambda: run(mindspore, msoptim.FusedAdamW),
                                   lambda: run(mindspore, msexperimental.AdamW))  # mint's has no CPU kernel
    np.testing.assert_allclose(ours, want, rtol=1e-5, atol=1e-6)
