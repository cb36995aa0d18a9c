"""The parallel context governs every compiled call, as in MindSpore. AUTO_PARALLEL: a TrainOneStepCell called directly,
a Cell in GRAPH mode and an ms.jit function get the plan Model.train gets, searched once per signature;
DATA_PARALLEL and SEMI_AUTO_PARALLEL split the batch of GRAPH Cells and ms.jit steps."""
import warnings

import jax.numpy as jnp
import numpy as np
import pytest
from jax.sharding import NamedSharding

import mindjax as ms
from mindjax import nn
from mindjax.parallel.auto import collective_stats, find_plan, get_strategy, search_plan
from mindjax.parallel.auto import plan as plan_module
from mindjax.transforms.jit import compiled_for_cell
from benchmarks.parallel_auto import MLP, MSELoss

D = 256  # the smallest MLP width at batch 8 where the search splits the weights rather than replicate
COLUMN_THEN_ROW = {"fc1.weight": "P(('d0', 'd1'), None)", "fc1.bias": "P(('d0', 'd1'),)",
                   "fc2.weight": "P(None, ('d0', 'd1'))", "fc2.bias": "P(None,)"}


def _auto(mode=ms.GRAPH_MODE, **extra):
    ms.set_context(mode=mode)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.AUTO_PARALLEL,
                                 search_mode="recursive_programming", **extra)
    ms.set_seed(0)


def _batches(steps=2, batch=8):
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(batch, D)).astype(np.float32), rng.normal(size=(batch, D)).astype(np.float32))
            for _ in range(steps)]


def _layouts(params):
    """The layouts of the network's weights and of their optimizer moments."""
    return {p.name: str(jnp.asarray(p).sharding.spec) for p in params
            if p.name.startswith(("fc", "moments.", "net.")) and isinstance(jnp.asarray(p).sharding, NamedSharding)}


def _direct_step():
    net = MLP(D)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    return net, step


def test_direct_train_one_step_cell_gets_model_train_plan_layouts_and_collectives():
    _auto()
    net, step = _direct_step()
    losses = [float(step(ms.Tensor(x), ms.Tensor(y))) for x, y in _batches()]
    direct_hlo = compiled_for_cell(step).lower(*_batches(1)[0]).compile().as_text()
    direct = get_strategy(step)
    direct_layouts = _layouts(step.get_parameters())

    _auto()
    net2 = MLP(D)
    model = ms.Model(net2, nn.MSELoss(), nn.Momentum(net2.trainable_params(), 0.05, 0.9))
    model.train(1, _batches())
    trained = get_strategy(model.train_network)
    model_hlo = model._train_program().compile(tuple(jnp.asarray(a) for a in _batches(1)[0])).as_text()

    assert direct["parameters"] == trained["parameters"] == COLUMN_THEN_ROW
    assert direct_layouts == _layouts(model.train_network.get_parameters())
    assert direct_layouts["moments.fc1.weight"] == direct_layouts["fc1.weight"]  # the state follows its weight
    got, want = collective_stats(direct_hlo), collective_stats(model_hlo)
    assert got["total"] == want["total"]
    # Not data parallel: no all-reduce of the whole gradient (2 MB of weights), a few KB moved.
    weight_bytes = sum(p.size * 4 for p in net.trainable_params())
    assert got["total"]["bytes"] < weight_bytes / 50
    assert get_strategy(net) == direct                         # the user's own network shows it too
    np.testing.assert_allclose(losses, [1.0152477, 1.0530162], rtol=1e-5)


def test_plan_is_searched_once_per_input_signature(monkeypatch):
    searches = []
    real = plan_module.search_plan
    monkeypatch.setattr(plan_module, "search_plan", lambda *a, **k: searches.append(a[1:]) or real(*a, **k))
    _auto()
    _, step = _direct_step()
    for x, y in _batches(3):
        step(x, y)
    assert len(searches) == 1
    for x, y in _batches(2, batch=16):
        step(x, y)
    assert len(searches) == 2 and searches[1][0].shape == (16, D)
    assert len(find_plan(step).program.variables) > 0


def test_ms_jit_train_step_gets_the_same_weight_plan():
    _auto(mode=ms.PYNATIVE_MODE)
    mlp = MLP(D)
    loss_fn = nn.MSELoss()
    opt = nn.Momentum(mlp.trainable_params(), 0.05, 0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(mlp(x), y), None, opt.parameters)

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(grads)
        return loss

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # compiled: no PYNATIVE warning
        losses = [float(train_step(ms.Tensor(x), ms.Tensor(y))) for x, y in _batches()]
    assert get_strategy(train_step)["parameters"] == COLUMN_THEN_ROW
    assert _layouts(mlp.trainable_params()) == {k: v.replace("P(None,)", "P()") for k, v in COLUMN_THEN_ROW.items()}
    np.testing.assert_allclose(losses, [1.0152477, 1.0530162], rtol=1e-5)


class _Trainer(nn.Cell):
    """A Cell whose ms.jit method is the training step."""

    def __init__(self):
        super().__init__()
        self.net = MLP(D)
        self.loss_fn = nn.MSELoss()
        self.opt = nn.Momentum(self.net.trainable_params(), 0.05, 0.9)
        self.grad_fn = ms.value_and_grad(lambda x, y: self.loss_fn(self.net(x), y), None, self.opt.parameters)

    @ms.jit
    def step(self, x, y):
        loss, grads = self.grad_fn(x, y)
        self.opt(grads)
        return loss


def test_ms_jit_method_gets_the_plan_and_get_strategy_finds_it_through_the_cell_or_the_method():
    _auto(mode=ms.PYNATIVE_MODE)
    trainer = _Trainer()
    x, y = _batches(1)[0]
    trainer.step(ms.Tensor(x), ms.Tensor(y))
    params = get_strategy(trainer)["parameters"]
    # (the names carry the Cell's prefixes, e.g. 'opt.net.fc1.weight')
    assert {name.split("net.")[-1]: spec for name, spec in params.items()} == COLUMN_THEN_ROW
    assert get_strategy(trainer.step) == get_strategy(trainer) == get_strategy(trainer.net)


def test_graph_cell_call_runs_the_forward_plan_searched_for_it():
    # A memory budget under the replicated forward's makes the plan shard the weights.
    _auto(memory_budget_bytes=1.5e6)
    net = MSELoss(MLP(D))
    x, y = _batches(1)[0]
    out = net(ms.Tensor(x), ms.Tensor(y))
    plan = find_plan(net)
    assert plan is not None and plan.program.num_inputs == 2
    expected = search_plan(MSELoss(MLP(D)), x, y, mesh=plan.mesh, training=False, verify=True,
                           output_specs=[plan_module.PartitionSpec()])
    assert get_strategy(net)["parameters"] == {k: str(v) for k, v in expected.param_specs.items()}
    assert any(spec != "P(None, None)" for spec in get_strategy(net)["parameters"].values())
    layouts = _layouts(net.trainable_params())
    assert layouts == {k: str(v) for k, v in plan.param_specs.items()}
    hlo = compiled_for_cell(net).lower(x, y).compile().as_text()
    assert collective_stats(hlo)["total"]["count"] >= 1
    np.testing.assert_allclose(float(out), 1.0152477, rtol=1e-5)


def test_pynative_cell_under_auto_parallel_warns_once_naming_why():
    from mindjax.parallel import compiled_calls

    compiled_calls._EAGER_WARNED.clear()
    _auto(mode=ms.PYNATIVE_MODE)
    _, step = _direct_step()
    x, y = _batches(1)[0]
    with pytest.warns(UserWarning, match="runs in PYNATIVE_MODE, op by op: the strategy search needs the whole "
                                         "compiled graph"):
        step(ms.Tensor(x), ms.Tensor(y))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        step(ms.Tensor(x), ms.Tensor(y))               # once
    with pytest.raises(ValueError, match="has no searched plan"):
        get_strategy(step)


def test_stand_alone_graph_call_is_not_planned():
    ms.set_context(mode=ms.GRAPH_MODE)
    _, step = _direct_step()
    step(*_batches(1)[0])
    assert find_plan(step) is None


def _small_batches(steps=2, batch=8, d=16):
    rng = np.random.default_rng(0)
    return [(rng.normal(size=(batch, d)).astype(np.float32), rng.normal(size=(batch, d)).astype(np.float32))
            for _ in range(steps)]


def _jit_step(reducer):
    mlp = MLP(16)
    loss_fn = nn.MSELoss()
    opt = nn.Momentum(mlp.trainable_params(), 0.05, 0.9)
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(mlp(x), y), None, opt.parameters)
    reduce = nn.DistributedGradReducer(opt.parameters) if reducer else (lambda g: g)

    @ms.jit
    def train_step(x, y):
        loss, grads = grad_fn(x, y)
        opt(reduce(grads))
        return loss

    return train_step, mlp


@pytest.mark.parametrize("parallel_mode", [ms.ParallelMode.DATA_PARALLEL, ms.ParallelMode.SEMI_AUTO_PARALLEL])
def test_ms_jit_step_and_graph_cell_split_the_batch_in_data_and_semi_auto_parallel(parallel_mode):
    ms.set_seed(0)
    single_step, single_mlp = _jit_step(False)
    single = [float(single_step(ms.Tensor(x), ms.Tensor(y))) for x, y in _small_batches()]

    ms.set_auto_parallel_context(parallel_mode=parallel_mode, gradients_mean=True)
    ms.set_seed(0)
    step, mlp = _jit_step(True)
    losses = [float(step(ms.Tensor(x), ms.Tensor(y))) for x, y in _small_batches()]
    np.testing.assert_allclose(losses, single, rtol=1e-5)
    for a, b in zip(mlp.trainable_params(), single_mlp.trainable_params()):
        np.testing.assert_allclose(a.asnumpy(), b.asnumpy(), rtol=1e-5, atol=1e-6)
    x, y = _small_batches(1)[0]
    hlo = step._compiled.lower(ms.Tensor(x), ms.Tensor(y)).compile().as_text()  # (runs one more step)
    assert "f32[1,64]" in hlo                                  # each device runs 1 of the 8 rows
    assert collective_stats(hlo)["all-reduce"]["count"] >= 1   # the gradient's all-reduce

    ms.set_context(mode=ms.GRAPH_MODE)
    net = MSELoss(MLP(16))
    out = net(ms.Tensor(x), ms.Tensor(y))
    assert isinstance(out, ms.Tensor)
    assert "f32[1,64]" in compiled_for_cell(net).lower(x, y).compile().as_text()


def test_graph_cell_input_that_does_not_divide_stays_whole_with_a_warning_naming_the_cell():
    from mindjax.parallel import compiled_calls

    compiled_calls._UNSPLIT_WARNED.clear()
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    net = MLP(16)
    x = np.ones((6, 16), np.float32)
    with pytest.warns(UserWarning, match=r"For 'MLP': in DATA_PARALLEL an input of shape \(6, 16\) stays whole "
                                         r"on every device, not split: .*divisible by the 8 devices"):
        out = net(ms.Tensor(x))
    assert out.shape == (6, 16)


def test_plain_ms_jit_function_of_sharded_ops_applies_strategies_planned_once_per_signature(monkeypatch):
    from mindjax import ops
    from mindjax.parallel import compiled_calls

    planned = []
    real = compiled_calls._record_applied
    monkeypatch.setattr(compiled_calls, "_record_applied", lambda *a: planned.append(a[1]) or real(*a))
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    matmul = ops.MatMul().shard(((1, 8), (8, 1)))   # the contraction split: partial sums, one all-reduce
    relu = ops.ReLU().shard(((8, 1),))

    @ms.jit
    def f(x, w):
        return relu(matmul(x, w))

    rng = np.random.default_rng(0)
    x, w = rng.normal(size=(8, 16)).astype(np.float32), rng.normal(size=(16, 4)).astype(np.float32)
    out = f(ms.Tensor(x), ms.Tensor(w))
    f(ms.Tensor(x), ms.Tensor(w))
    assert planned == ["semi_auto_parallel"]                  # once per signature
    np.testing.assert_allclose(out.asnumpy(), np.maximum(x @ w, 0), rtol=1e-5, atol=1e-6)
    hlo = f._compiled.lower(ms.Tensor(x), ms.Tensor(w)).compile().as_text()
    assert collective_stats(hlo)["all-reduce"]["count"] == 1
    assert "f32[8,2]" in hlo                                    # each device holds 2 of x's 16 columns
    strategy = get_strategy(f)
    assert strategy["candidate"] == "semi_auto_parallel" and strategy["search_mode"] is None
    assert [(r["op"], r["strategy"]) for r in strategy["ops"]] == [("MatMul", ((1, 8), (8, 1))),
                                                                   ("ReLU", ((8, 1),))]
    assert strategy["ops"][0]["inputs"] == ("P(None, ('d0', 'd1', 'd2'))", "P(('d0', 'd1', 'd2'), None)")
    f(ms.Tensor(x[:, :8]), ms.Tensor(w[:8]))
    assert len(planned) == 2                                   # a new signature is planned again


def test_get_strategy_reports_data_parallel_ms_jit_step_and_graph_train_one_step_cell():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    step, mlp = _jit_step(False)
    x, y = _small_batches(1)[0]
    step(ms.Tensor(x), ms.Tensor(y))
    strategy = get_strategy(step)
    assert strategy["candidate"] == "data_parallel" and strategy["ops"] == []
    assert strategy["inputs"] == [{"cell": "MLP", "inputs": ["P(('d0', 'd1', 'd2'), None)"]}]
    assert strategy["parameters"]["fc1.weight"] == "P()" and "moments.fc1.weight" in strategy["parameters"]

    ms.set_context(mode=ms.GRAPH_MODE)
    net = MLP(16)
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    train(ms.Tensor(x), ms.Tensor(y))
    assert get_strategy(train)["candidate"] == "data_parallel"
    assert set(get_strategy(train)["parameters"]) >= {"fc1.weight", "fc2.bias"}


@pytest.mark.parametrize("parallel_mode", [ms.ParallelMode.DATA_PARALLEL, ms.ParallelMode.SEMI_AUTO_PARALLEL])
def test_pynative_cell_under_data_or_semi_auto_warns_once_that_its_inputs_are_not_split(parallel_mode):
    from mindjax.parallel import compiled_calls

    compiled_calls._EAGER_WARNED.clear()
    ms.set_auto_parallel_context(parallel_mode=parallel_mode)
    net = MSELoss(MLP(16))
    x, y = _small_batches(1)[0]
    with pytest.warns(UserWarning, match=rf"For 'MSELoss': {parallel_mode.upper()} is set but the Cell runs in "
                                         r"PYNATIVE_MODE, op by op: only a compiled call splits its inputs over "
                                         r"the 8 devices \(the input of shape \(8, 16\) would be laid out as "
                                         r"P\(\('d0', 'd1', 'd2'\), None\)\)"):
        out = net(ms.Tensor(x), ms.Tensor(y))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = net(ms.Tensor(x), ms.Tensor(y))                 # once; the Cells it calls never warn
    assert float(out) == float(again)


def test_pynative_calls_the_mode_does_apply_to_do_not_warn():
    from mindjax.parallel import compiled_calls

    compiled_calls._EAGER_WARNED.clear()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
    net = MLP(16)
    x, y = _small_batches(1)[0]
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.Momentum(net.trainable_params(), 0.05, 0.9))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        train(ms.Tensor(x), ms.Tensor(y))              # the wrapper lays its batch out itself
        net(ms.Tensor(x[:6]))                          # 6 rows: a compiled call would not split them either
        ms.set_auto_parallel_context(full_batch=True, parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
        net(ms.Tensor(x))                              # full_batch: every device holds the whole batch anyway


def test_pynative_cell_without_weights_or_with_collectives_does_not_warn_under_data_parallel():
    from mindjax import ops
    from mindjax.parallel import compiled_calls

    class Summed(nn.Cell):
        def __init__(self):
            super().__init__()
            self.dense = nn.Dense(16, 16)
            self.all_reduce = ops.AllReduce()

        def construct(self, x):
            return self.all_reduce(self.dense(x).sum(0))

    compiled_calls._EAGER_WARNED.clear()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
    x, y = _small_batches(1)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nn.MSELoss()(ms.Tensor(x), ms.Tensor(y))       # no weights: a compiled call leaves it whole too
        Summed()(ms.Tensor(x))                           # runs per device, each device a rank


class _PlainTrainer:
    """Not a Cell: its ms.jit method's program keeps its plan in the object."""

    def __init__(self):
        from mindjax import ops

        self.matmul = ops.MatMul().shard(((8, 1), (1, 1)))    # rows over the 8 devices

    @ms.jit
    def step(self, x, w):
        return self.matmul(x, w).sum()


def test_ms_jit_method_of_a_plain_object_gets_strategies_and_get_strategy_finds_them():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL)
    trainer = _PlainTrainer()
    x, w = np.ones((8, 4), np.float32), np.ones((4, 2), np.float32)
    assert float(trainer.step(ms.Tensor(x), ms.Tensor(w))) == 64.0
    strategy = get_strategy(trainer.step)
    assert strategy == get_strategy(trainer)
    assert strategy["ops"][0]["strategy"] == ((8, 1), (1, 1))
