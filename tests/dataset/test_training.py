"""A training run fed by the pipeline ends with the same weights as one fed by arrays."""
import numpy as np
import pytest

import mindjax as ms
import mindjax.dataset as ds
from mindjax import nn


def _train(feed, sink):
    from mindjax.train import Model

    ms.set_seed(1)
    net = nn.Dense(4, 2)
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), learning_rate=0.1))
    model.train(2, feed, dataset_sink_mode=sink)
    return net.weight.asnumpy(), net.bias.asnumpy()


@pytest.mark.parametrize("sink", [False, True], ids=["steps", "sink"])
def test_model_train_on_pipeline_matches_training_on_arrays(sink):
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 4)).astype(np.float32)
    y = rng.normal(size=(16, 2)).astype(np.float32)
    arrays = [(x[i:i + 4], y[i:i + 4]) for i in range(0, 16, 4)]
    pipeline = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(4)
    for a, b in zip(_train(arrays, sink), _train(pipeline, sink)):
        np.testing.assert_array_equal(a, b)


def test_device_iterator_feeds_a_jax_loop_like_arrays():
    import jax
    import jax.numpy as jnp

    rng = np.random.default_rng(0)
    x = rng.normal(size=(24, 3)).astype(np.float32)
    y = x @ np.array([1.0, -2.0, 0.5], np.float32)

    @jax.jit
    def step(w, xb, yb):
        return w - 0.1 * jax.grad(lambda w: jnp.mean((xb @ w - yb) ** 2))(w)

    w_arrays = jnp.zeros(3)
    for _ in range(2):
        for i in range(0, 24, 6):
            w_arrays = step(w_arrays, x[i:i + 6], y[i:i + 6])
    data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(6)
    w_pipe = jnp.zeros(3)
    with data.device_iterator(num_epochs=2) as it:
        for xb, yb in it:
            w_pipe = step(w_pipe, xb, yb)
    np.testing.assert_array_equal(np.asarray(w_arrays), np.asarray(w_pipe))
