"""Pipeline stages hold only their own weights and optimizer state (8 virtual devices, 2 per stage or 4)."""
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.parallel import stage_state
from tests.parallel.helpers import LossRecorder


def _semi_auto(stages, scheduler="1f1b"):
    ms.reset_auto_parallel_context()
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=8,
                                 pipeline_stages=stages, pipeline_config={"pipeline_scheduler": scheduler})


def _bytes_per_device(params):
    out = {}
    for p in params:
        for shard in jnp.asarray(p).addressable_shards:
            out[shard.device.id] = out.get(shard.device.id, 0) + shard.data.nbytes
    return out


def _devices_of(p):
    return sorted(s.device.id for s in jnp.asarray(p).addressable_shards)


def _assert_stage_local(pairs, stages, total_bytes):
    """Each (value, stage) lies on exactly its stage's devices; the most loaded device is within 1/S + 10%."""
    per_stage = 8 // stages
    for p, stage in pairs:
        assert _devices_of(p) == list(range(stage * per_stage, (stage + 1) * per_stage)), p.name
    load = _bytes_per_device([p for p, _ in pairs])
    assert max(load.values()) <= (1 / stages + 0.1) * total_bytes, (load, total_bytes)


class Stack(nn.Cell):
    """Four equal blocks and a head: one block per stage, the head on the last."""

    def __init__(self):
        super().__init__()
        self.layers = nn.CellList([nn.Dense(16, 16, activation="tanh") for _ in range(4)])
        self.out = nn.Dense(16, 4)

    def construct(self, x):
        for layer in self.layers:
            x = layer(x)
        return self.out(x)


def _train_stack(schedule):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    net = Stack()
    loss = nn.WithLossCell(net, nn.MSELoss())
    if schedule is not None:
        _semi_auto(4, schedule)
        for k, layer in enumerate(net.layers):
            layer.pipeline_stage = k
        net.out.pipeline_stage = 3
        loss = nn.PipelineCell(loss, micro_size=4)
    opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
    step = nn.TrainOneStepCell(loss, opt)
    step.set_train()
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.normal(size=(8, 16)).astype(np.float32))
    y = ms.Tensor(rng.normal(size=(8, 4)).astype(np.float32))
    losses = [float(step(x, y)) for _ in range(3)]
    ms.reset_auto_parallel_context()
    return losses, net, opt


@pytest.mark.parametrize("schedule", ["gpipe", "1f1b"])
def test_each_stage_holds_only_its_weights_and_moments_and_trains_like_one_device(schedule):
    plain, _, _ = _train_stack(None)
    losses, net, opt = _train_stack(schedule)
    np.testing.assert_allclose(losses, plain, rtol=1e-5, atol=1e-6)
    stage = {id(p): k for k, layer in enumerate(net.layers) for p in layer.get_parameters()}
    stage.update({id(p): 3 for p in net.out.get_parameters()})
    weights = list(net.trainable_params())
    total = sum(p.value().nbytes for p in weights)
    _assert_stage_local([(p, stage[id(p)]) for p in weights], 4, total)
    moments = list(opt.moments)
    assert [m.name for m in moments] == ["moments." + p.name for p in weights]
    _assert_stage_local([(m, stage[id(p)]) for m, p in zip(moments, weights)], 4, total)


class EmbedHead(nn.Cell):
    """Stages of different shapes: an embedding and a block on stage 0, a wider head on stage 1.

    No shape repeats between the stages, so all of it travels in flat per-stage
    buffers; the two stages are about the same size (784 and 782 values).
    """

    def __init__(self, vocab=32, dim=16, classes=46):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.body = nn.Dense(dim, dim, activation="tanh")
        self.head = nn.Dense(dim, classes)

    def construct(self, ids):
        return self.head(self.body(self.embed(ids).mean(axis=1)))


def _token_batches(steps=3):
    rng = np.random.default_rng(0)
    return [(rng.integers(0, 32, size=(8, 4)).astype(np.int32), rng.integers(0, 46, size=(8,)).astype(np.int32))
            for _ in range(steps)]


def _train_embed_head(stages):
    ms.set_context(mode=ms.GRAPH_MODE)
    ms.reset_auto_parallel_context()
    ms.set_seed(0)
    net = EmbedHead()
    loss = nn.WithLossCell(net, nn.CrossEntropyLoss())
    if stages > 1:
        _semi_auto(stages)
        net.embed.pipeline_stage = 0
        net.body.pipeline_stage = 0
        net.head.pipeline_stage = 1
        loss = nn.PipelineCell(loss, 4)
    opt = nn.Adam(net.trainable_params(), 0.01)
    recorder = LossRecorder()
    ms.Model(loss, optimizer=opt).train(1, _token_batches(), callbacks=[recorder], dataset_sink_mode=False)
    return recorder.losses, net, opt


def test_embedding_and_head_stages_of_different_shapes_stay_on_their_devices_under_model_train():
    plain, _, _ = _train_embed_head(1)
    losses, net, opt = _train_embed_head(2)
    np.testing.assert_allclose(losses, plain, rtol=1e-5, atol=1e-6)
    stage = {id(p): 0 for c in (net.embed, net.body) for p in c.get_parameters()}
    stage.update({id(p): 1 for p in net.head.get_parameters()})
    weights = list(net.trainable_params())
    total = sum(p.value().nbytes for p in weights)
    _assert_stage_local([(p, stage[id(p)]) for p in weights], 2, total)
    by_name = {p.name: p for p in weights}
    for moments in (opt.moment1, opt.moment2):
        sources = [by_name[m.name.split(".", 1)[1]] for m in moments]
        assert [m.shape for m in moments] == [p.shape for p in sources]
        _assert_stage_local([(m, stage[id(p)]) for m, p in zip(moments, sources)], 2, total)
    # The backbone evaluated in GRAPH mode afterwards gets its stages' weights for the call.
    ids = ms.Tensor(_token_batches(1)[0][0])
    assert net(ids).shape == (8, 46)
    ms.reset_auto_parallel_context()


def test_a_jit_train_step_with_pipeline_grad_reducer_lays_the_stages_out_after_its_first_trace():
    def train(stages):
        ms.set_context(mode=ms.GRAPH_MODE)
        ms.reset_auto_parallel_context()
        ms.set_seed(0)
        net = EmbedHead()
        loss = nn.WithLossCell(net, nn.CrossEntropyLoss())
        if stages > 1:
            _semi_auto(stages, "gpipe")
            net.embed.pipeline_stage = net.body.pipeline_stage = 0
            net.head.pipeline_stage = 1
            loss = nn.PipelineCell(loss, 2)
        opt = nn.Momentum(net.trainable_params(), 0.1, 0.9)
        grad_fn = ms.value_and_grad(loss, None, opt.parameters)
        reducer = nn.PipelineGradReducer(opt.parameters)

        @ms.jit
        def step(x, y):
            value, grads = grad_fn(x, y)
            opt(reducer(grads))
            return value

        out = [float(step(ms.Tensor(x), ms.Tensor(y))) for x, y in _token_batches()]
        ms.reset_auto_parallel_context()
        return out, net

    plain, _ = train(1)
    losses, net = train(2)
    np.testing.assert_allclose(losses, plain, rtol=1e-5, atol=1e-6)
    assert _devices_of(net.embed.embedding_table) == [0, 1, 2, 3]
    assert _devices_of(net.head.weight) == [4, 5, 6, 7]


def test_a_parameter_shared_by_two_stages_is_left_out_of_the_stage_layout():
    class Tied(nn.Cell):
        def __init__(self):
            super().__init__()
            self.a = nn.Dense(4, 4)
            self.b = nn.Dense(4, 4)
            self.b.weight = self.a.weight

    net = Tied()
    net.a.pipeline_stage = 0
    net.b.pipeline_stage = 1
    owners = stage_state.stage_of_parameters(net)
    assert id(net.a.weight) not in owners
    assert owners[id(net.a.bias)][1] == 0 and owners[id(net.b.bias)][1] == 1


def test_parameters_of_an_optimizer_that_is_not_elementwise_are_not_grouped():
    net = Stack()
    for k, layer in enumerate(net.layers):
        layer.pipeline_stage = k
    owners = stage_state.stage_of_parameters(net)
    lamb = nn.Lamb(list(net.layers[0].trainable_params()), 0.01)
    momentum = nn.Momentum(list(net.layers[1].trainable_params()), 0.1, 0.9)
    keys = stage_state._optimizer_keys(owners)
    assert all(keys[id(p)] is None for p in lamb.parameters)
    assert all(keys[id(p)] is not None for p in momentum.parameters)


class Borrow(nn.Cell):
    """Stage 1 reads a weight of stage 0's Cell directly."""

    def __init__(self):
        super().__init__()
        self.first = nn.Dense(4, 4)
        self.second = _Reader()

    def construct(self, x, y):
        return ((self.second(self.first(x), self.first.weight) - y) ** 2).mean()


class _Reader(nn.Cell):
    def construct(self, x, w):
        return ms.ops.matmul(x, w)


def test_a_stage_reading_another_stages_weight_gets_it_and_trains_like_one_device():
    def train(stages):
        ms.set_context(mode=ms.GRAPH_MODE)
        ms.reset_auto_parallel_context()
        ms.set_seed(0)
        net = Borrow()
        cell = net
        if stages > 1:
            _semi_auto(stages)
            net.first.pipeline_stage = 0
            net.second.pipeline_stage = 1
            cell = nn.PipelineCell(net, 2)
        step = nn.TrainOneStepCell(cell, nn.SGD(net.trainable_params(), 0.1))
        rng = np.random.default_rng(0)
        x = ms.Tensor(rng.normal(size=(8, 4)).astype(np.float32))
        losses = [float(step(x, x)) for _ in range(2)]
        ms.reset_auto_parallel_context()
        return losses, net

    plain, _ = train(1)
    losses, net = train(2)
    np.testing.assert_allclose(losses, plain, rtol=1e-5, atol=1e-6)
    assert _devices_of(net.first.weight) == [0, 1, 2, 3]
