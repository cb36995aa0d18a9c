"""One compiled-program type and one cache: every program is a ``Program`` and lives in its owner's cache."""
import gc
import weakref

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train import Model
from mindjax.train._step import StepProgram
from mindjax.transforms.jit import CompiledFunction, Program, ProgramCache, program_cache


class _Affine(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 2)

    def construct(self, x):
        return self.fc(x)


def _batch():
    rng = np.random.default_rng(0)
    return ms.Tensor(rng.normal(size=(4, 3)).astype(np.float32)), ms.Tensor(np.array([0, 1, 0, 1], np.int32))


def _model(net):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    return Model(net, loss, nn.Momentum(net.trainable_params(), 0.1, 0.9))


def test_model_step_program_lives_in_the_training_cells_cache():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    model = _model(_Affine())
    program = model._train_program()
    assert isinstance(program, StepProgram) and isinstance(program, Program)
    cache = program_cache(model.train_network)
    assert isinstance(cache, ProgramCache)
    assert list(cache.programs.values()) == [program]
    assert model._train_program() is program  # same structure: the same program


def test_two_models_over_one_training_cell_share_its_step_program():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    first = _model(_Affine())
    second = Model(first.train_network)
    assert second._train_program() is first._train_program()


def test_step_program_goes_with_its_cell():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    model = _model(_Affine())
    x, y = _batch()
    model._train_program()((x, y))
    ref = weakref.ref(model.train_network)
    del model
    gc.collect()
    assert ref() is None


def test_graph_mode_cell_call_and_grad_programs_are_programs():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    net = _Affine()
    x, _ = _batch()
    net(x)
    assert isinstance(program_cache(net).current, CompiledFunction)
    grad_fn = ms.grad(lambda v: net(v).sum())
    grad_fn(x)
    programs = list(program_cache(grad_fn._call).programs.values())
    assert len(programs) == 1 and isinstance(programs[0], Program)


def test_grad_programs_go_with_the_gradient_function():
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_seed(0)
    net = _Affine()
    x, _ = _batch()
    grad_fn = ms.grad(net, grad_position=0)
    np.testing.assert_allclose(grad_fn(x).asnumpy(), ms.grad(net, grad_position=0)(x).asnumpy())
    program = next(iter(program_cache(grad_fn._call).programs.values()))
    ref = weakref.ref(program)
    del grad_fn, program
    gc.collect()
    assert ref() is None


def test_jit_method_on_a_plain_object_keeps_its_program_in_the_objects_cache():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @ms.jit
        def apply(self, x):
            return x * self.k

    scaler = Scaler(2.0)
    np.testing.assert_allclose(scaler.apply(ms.Tensor(np.ones(2), ms.float32)).asnumpy(), [2.0, 2.0])
    methods = program_cache(scaler).methods
    assert len(methods) == 1 and isinstance(next(iter(methods.values())), CompiledFunction)
    ref = weakref.ref(next(iter(methods.values())))
    del scaler, methods
    gc.collect()
    assert ref() is None


def test_program_cache_keeps_at_most_its_limit_dropping_the_oldest():
    cache = ProgramCache()
    built = []
    for key in range(4):
        cache.program(key, lambda key=key: built.append(key) or f"p{key}", limit=2)
    assert list(cache.programs) == [2, 3]
    assert cache.program(3, lambda: "new", limit=2) == "p3"
    assert built == [0, 1, 2, 3]


def test_program_cache_refuses_an_owner_without_a_dict():
    with pytest.raises(TypeError, match="int cannot hold compiled programs"):
        program_cache(3)
