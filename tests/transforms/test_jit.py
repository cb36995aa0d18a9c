"""GRAPH mode and ms.jit: one compiled program per signature, state written back."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.transforms.jit import compiled_for_cell


class Scale(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = ms.Parameter(ms.Tensor(np.full(3, 2.0), ms.float32))
        self.calls = ms.Parameter(ms.Tensor(0.0), requires_grad=False)
        self.traces = 0

    def construct(self, x, factor=1.0):
        self.traces += 1
        self.calls = self.calls + 1
        y = x * self.w * factor
        return y * 10 if self.training else y


def test_graph_mode_compiles_once_per_signature_and_writes_state_back():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    x = ms.Tensor(np.ones(3), ms.float32)
    for _ in range(3):
        np.testing.assert_allclose(net(x), [2.0, 2.0, 2.0])
    assert net.traces == 1
    assert float(net.calls) == 3.0
    net(ms.Tensor(np.ones(4), ms.float32)[:3] * 1)  # same shape: no retrace
    assert net.traces == 1
    net(ms.Tensor(np.ones((2, 3)), ms.float32))     # new shape: one more trace
    assert net.traces == 2


def test_training_flag_selects_a_cached_program_without_retracing_twice():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    x = jnp.ones(3)
    net.set_train(True)
    np.testing.assert_allclose(net(x), [20.0] * 3)
    net.set_train(False)
    np.testing.assert_allclose(net(x), [2.0] * 3)
    net.set_train(True)
    np.testing.assert_allclose(net(x), [20.0] * 3)
    assert net.traces == 2


def test_python_scalars_are_compile_time_constants():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    np.testing.assert_allclose(net(jnp.ones(3), 3.0), [6.0] * 3)
    np.testing.assert_allclose(net(jnp.ones(3), factor=0.5), [1.0] * 3)
    assert net.traces == 2


def test_set_data_between_calls_is_seen_by_the_compiled_program():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    net(jnp.ones(3))
    net.w.set_data(jnp.full(3, 5.0))
    np.testing.assert_allclose(net(jnp.ones(3)), [5.0] * 3)
    assert net.traces == 1


def test_graph_and_pynative_agree(mode):
    net = Scale()
    np.testing.assert_allclose(net(jnp.arange(3.0)), [0.0, 2.0, 4.0])


def test_jit_function_updates_parameters_it_reaches():
    net = Scale()

    @ms.jit
    def step(x):
        out = net(x).sum()
        net.w.set_data(net.w - 0.5)
        return out

    assert float(step(jnp.ones(3))) == 6.0
    assert float(step(jnp.ones(3))) == 4.5
    np.testing.assert_allclose(net.w.asnumpy(), [1.0] * 3)
    assert float(net.calls) == 2.0


def test_jit_on_a_method_compiles_with_the_cells_parameters():
    class WithJit(nn.Cell):
        def __init__(self):
            super().__init__()
            self.inner = Scale()

        @ms.jit
        def construct(self, x):
            return self.inner(x) + 1

    net = WithJit()
    np.testing.assert_allclose(net(jnp.ones(3)), [3.0] * 3)
    np.testing.assert_allclose(net(jnp.ones(3)), [3.0] * 3)
    assert net.inner.traces == 1 and float(net.inner.calls) == 2.0


def test_jit_decorator_with_arguments_and_plain_functions():
    @ms.jit(jit_level="O1")
    def f(x, n):
        return x * n

    assert float(f(jnp.asarray(2.0), 3)) == 6.0
    with pytest.raises(TypeError, match="'function' must be callable"):
        ms.jit(3)


def test_compiled_call_inside_user_jax_jit_runs_inline():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    out = jax.jit(lambda x: net(x))(jnp.ones(3))
    np.testing.assert_allclose(out, [2.0] * 3)


def test_random_state_advances_identically_in_both_modes():
    class Noise(nn.Cell):
        def construct(self, x):
            from mindjax.common.random import next_key
            return x + jax.random.normal(next_key(), x.shape)

    results = []
    for m in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=m)
        ms.set_seed(5)
        net = Noise()
        results.append((np.asarray(net(jnp.zeros(2))), np.asarray(net(jnp.zeros(2)))))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-6)
    np.testing.assert_allclose(results[0][1], results[1][1], rtol=1e-6)
    assert not np.allclose(results[0][0], results[0][1])


def test_lowered_program_names_cells_in_hlo():
    ms.set_context(mode=ms.GRAPH_MODE)

    class Outer(nn.Cell):
        def __init__(self):
            super().__init__()
            self.scale_layer = Scale()

        def construct(self, x):
            return self.scale_layer(x)

    net = Outer()
    text = compiled_for_cell(net).lower(jnp.ones(3)).as_text(debug_info=True)
    assert "scale_layer" in text


def test_unhashable_non_array_argument_is_explained():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()

    class Odd:
        __hash__ = None

    with pytest.raises(TypeError, match="neither an array nor hashable"):
        net(jnp.ones(3), Odd())


def test_parameter_passed_as_an_argument_is_state_and_is_written_back():
    ms.set_context(mode=ms.GRAPH_MODE)
    p = ms.Parameter(ms.Tensor(1.0), name="p")

    class AddInto(nn.Cell):
        def construct(self, q, x):
            q.set_data(q + x)
            return q * 2

    net = AddInto()
    assert float(net(p, ms.Tensor(1.0))) == 4.0
    assert float(net(p, ms.Tensor(1.0))) == 6.0
    assert float(p) == 3.0


def test_pytree_copies_of_parameters_inside_a_trace_are_not_state():
    ms.set_context(mode=ms.GRAPH_MODE)

    class TreeMap(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones(2), ms.float32), name="w")

        def construct(self, x):
            doubled = jax.tree_util.tree_map(lambda v: v * 2, [self.w])[0]
            return x + doubled.value()

    np.testing.assert_allclose(TreeMap()(jnp.ones(2)), [3.0, 3.0])


def test_schedule_learning_rate_read_each_step_compiles_once():
    ms.set_context(mode=ms.GRAPH_MODE)
    opt = nn.Momentum(nn.Dense(2, 2).trainable_params(), learning_rate=[0.1, 0.2] * 10, momentum=0.9)
    assert abs(float(opt.get_lr()) - 0.1) < 1e-7
    compiled = compiled_for_cell(opt.learning_rate)
    programs = compiled._jitted._cache_size()
    for _ in range(3):
        assert abs(float(opt.get_lr()) - 0.1) < 1e-7
    assert compiled._jitted._cache_size() == programs


def test_tensor_and_array_positional_arguments_agree_and_keep_the_callers_type():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    t = ms.Tensor(np.ones(3), ms.float32)
    out_t = net(t)
    out_a = net(jnp.ones(3, jnp.float32))
    out_np = net(np.ones(3, np.float32))
    assert type(out_t) is ms.Tensor                       # a MindSpore caller gets a Tensor
    assert isinstance(out_a, jax.Array) and not isinstance(out_a, ms.Tensor)  # a JAX caller an array
    for out in (out_t, out_a, out_np):
        np.testing.assert_allclose(np.asarray(out), [2.0] * 3)
    assert float(net.calls) == 3.0


def test_jax_grad_over_a_graph_mode_cell_traces_inline():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    g = jax.grad(lambda x: net(x).sum())(jnp.ones(3, jnp.float32))
    np.testing.assert_allclose(np.asarray(g), [2.0] * 3)


def test_jit_method_programs_are_freed_with_their_cell():
    import gc
    import weakref

    class Net(nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones(2), ms.float32))

        @ms.jit
        def step(self, x):
            return x * self.w

    ms.set_context(mode=ms.PYNATIVE_MODE)
    net = Net()
    np.testing.assert_allclose(net.step(ms.Tensor(np.full(2, 3.0), ms.float32)).asnumpy(), [3.0, 3.0])
    ref = weakref.ref(net)
    del net
    gc.collect()
    assert ref() is None


def test_jit_method_on_a_plain_object_compiles_once_per_instance():
    traces = []

    class Scaler:
        def __init__(self, k):
            self.k = k

        @ms.jit
        def apply(self, x):
            traces.append(1)
            return x * self.k

    a, b = Scaler(2.0), Scaler(3.0)
    x = ms.Tensor(np.ones(2), ms.float32)
    for _ in range(3):
        np.testing.assert_allclose(a.apply(x).asnumpy(), [2.0, 2.0])
    np.testing.assert_allclose(b.apply(x).asnumpy(), [3.0, 3.0])
    assert len(traces) == 2


def test_compiled_cell_copy_starts_with_its_own_programs():
    import copy

    ms.set_context(mode=ms.GRAPH_MODE)
    net = Scale()
    net(jnp.ones(3, jnp.float32))
    twin = copy.deepcopy(net)
    twin.w.set_data(ms.Tensor(np.full(3, 5.0), ms.float32))
    np.testing.assert_allclose(np.asarray(twin(jnp.ones(3, jnp.float32))), [5.0] * 3)
    np.testing.assert_allclose(np.asarray(net(jnp.ones(3, jnp.float32))), [2.0] * 3)


def test_compiling_state_is_per_thread():
    import threading

    from mindjax import context

    seen = []
    with context.compiling():
        assert context.in_compiled()
        worker = threading.Thread(target=lambda: seen.append(context.in_compiled()))
        worker.start()
        worker.join(timeout=30)
    assert seen == [False]
    assert not context.in_compiled()


def test_jit_of_a_functools_wraps_wrapper_runs_the_wrapper_code():
    """inspect.getsource follows __wrapped__; the GRAPH-mode converter must read the wrapper's own
    code (its globals and closure differ from the wrapped function's)."""
    import functools

    def double_output(fn):
        @functools.wraps(fn)
        def wrapper(*args):
            return fn(*args) * 2
        return wrapper

    @double_output
    def f(x):
        return x + 1

    x = ms.Tensor(np.ones((2,), np.float32))
    np.testing.assert_array_equal(ms.jit(f)(x).asnumpy(), np.full((2,), 4.0, np.float32))
