"""Generated programs with nested if/for/while on tensors: GRAPH equals PYNATIVE.

Each example is a small function written to a real file (the conversion reads
source), run eagerly as plain Python (PYNATIVE) and converted under
``jax.jit`` (GRAPH); values and gradients must agree.
"""
import importlib.util
import itertools
import os
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mindjax.transforms.control_flow import convert_function

_DIR = tempfile.mkdtemp(prefix="mj_cf_prop_")
_IDS = itertools.count()

CONDS = ["y.sum() > {c}", "s < {c}", "(y.max() > {c}) and (s > {c2})", "not (y[0] > {c})"]
ASSIGNS = ["y = jnp.tanh(y * {c} + s)", "s = s + y.sum() * {c}", "y = y * {c} + 0.25",
           "s = jnp.sin(s) * {c}", "y += s * {c}"]
CONSTS = st.sampled_from(["-0.5", "0.0", "0.3", "1.0", "1.5"])


@st.composite
def _block(draw, depth, in_loop):
    lines = []
    for _ in range(draw(st.integers(1, 2))):
        kinds = ["assign"] + (["if", "for"] if depth < 2 else []) + (["while"] if depth == 0 else [])
        kinds += ["break", "continue"] if in_loop else []
        kind = draw(st.sampled_from(kinds))
        c, c2 = draw(CONSTS), draw(CONSTS)
        if kind == "assign":
            lines.append(draw(st.sampled_from(ASSIGNS)).format(c=c))
        elif kind in ("break", "continue"):
            cond = draw(st.sampled_from(CONDS)).format(c=c, c2=c2)
            lines += [f"if {cond}:", f"    {kind}"]
        elif kind == "if":
            cond = draw(st.sampled_from(CONDS)).format(c=c, c2=c2)
            lines.append(f"if {cond}:")
            lines += ["    " + x for x in draw(_block(depth + 1, in_loop))]
            if draw(st.booleans()):
                lines.append("else:")
                lines += ["    " + x for x in draw(_block(depth + 1, in_loop))]
        elif kind == "for":
            n = draw(st.integers(1, 3))
            lines.append(f"for i{depth} in range({n}):")
            lines += ["    " + x for x in draw(_block(depth + 1, True))]
        else:
            cond = draw(st.sampled_from(CONDS)).format(c=c, c2=c2)
            k = f"k{depth}"
            lines += [f"{k} = 0", f"while ({cond}) and {k} < {draw(st.integers(1, 3))}:",
                      f"    {k} += 1"]
            lines += ["    " + x for x in draw(_block(depth + 1, True))]
    return lines


@st.composite
def programs(draw):
    body = draw(_block(0, False))
    early = draw(st.sampled_from(["", "if s > {c}:\n        return y.sum() * s".format(c=draw(CONSTS))]))
    lines = ["import jax.numpy as jnp", "", "", "def prog(x, a):", "    y = x * 1.0",
             "    s = a * 1.0"]
    lines += ["    " + x for x in body]
    if early:
        lines.append("    " + early)
    lines.append("    return (y * y).sum() + s")
    return "\n".join(lines) + "\n"


def _load(source):
    path = os.path.join(_DIR, f"prog_{next(_IDS)}.py")
    with open(path, "w") as f:
        f.write(source)
    spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.prog


X = jnp.array([0.4, -0.3, 0.9], jnp.float32)
A = jnp.array(0.2, jnp.float32)


@settings(max_examples=25, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(programs())
def test_generated_programs_match_pynative_values_and_gradients(source):
    prog = _load(source)
    graph = convert_function(prog)
    expected = prog(X, A)
    got = jax.jit(graph)(X, A)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6, err_msg=source)
    ref = jax.grad(prog, argnums=(0, 1))(X, A)
    grads = jax.jit(jax.grad(graph, argnums=(0, 1)))(X, A)
    for g, r in zip(grads, ref):
        np.testing.assert_allclose(g, r, rtol=1e-5, atol=1e-6, err_msg=source)
