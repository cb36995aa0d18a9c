"""RNN, LSTM, GRU and the single-step cells: structure, masking, modes and errors."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.cells.layers import rnn as rnn_module


def _x(shape, seed=0):
    return ms.Tensor(np.random.default_rng(seed).standard_normal(shape).astype(np.float32))


class _Holder(nn.Cell):
    """Puts a layer at a known path ('encoder') for error messages."""

    def __init__(self, layer):
        super().__init__()
        self.encoder = layer

    def construct(self, *args):
        return self.encoder(*args)


@pytest.mark.parametrize("bidirectional,batch_first", [(False, False), (True, True)])
def test_lstm_returns_output_and_state_pair_with_mindspore_shapes(mode, bidirectional, batch_first):
    net = nn.LSTM(3, 4, num_layers=2, batch_first=batch_first, bidirectional=bidirectional)
    dirs = 2 if bidirectional else 1
    x = _x((2, 5, 3) if batch_first else (5, 2, 3))
    out, (h, c) = net(x)
    assert out.shape == ((2, 5, 4 * dirs) if batch_first else (5, 2, 4 * dirs))
    assert h.shape == c.shape == (2 * dirs, 2, 4)


@pytest.mark.parametrize("cls", [nn.GRU, nn.RNN])
def test_gru_and_rnn_return_output_and_hidden(mode, cls):
    net = cls(3, 4, num_layers=2, bidirectional=True)
    out, h = net(_x((5, 2, 3)), ms.Tensor(np.zeros((4, 2, 4), np.float32)))
    assert out.shape == (5, 2, 8) and h.shape == (4, 2, 4)


def test_parameters_are_named_and_ordered_as_in_mindspore():
    net = _Holder(nn.LSTM(3, 4, num_layers=2, bidirectional=True))
    names = [(p.name, p.shape) for p in net.get_parameters()]
    expected = []
    for kind, shape in (("weight_ih", None), ("weight_hh", (16, 4)), ("bias_ih", (16,)), ("bias_hh", (16,))):
        for layer in range(2):
            for suffix in ("", "_reverse"):
                in_size = 3 if layer == 0 else 8
                expected.append((f"encoder.{kind}_l{layer}{suffix}", shape or (16, in_size)))
    assert names == expected
    assert [p.name for p in nn.GRU(3, 4, has_bias=False).get_parameters()] == ["weight_ih_l0", "weight_hh_l0"]


def test_parameters_are_initialised_uniformly_within_one_over_sqrt_hidden():
    values = np.concatenate([np.ravel(p) for p in nn.GRU(3, 16, num_layers=2).get_parameters()])
    assert np.abs(values).max() <= 0.25 and values.std() > 0.1


@pytest.mark.parametrize("cls", [nn.LSTM, nn.GRU])
def test_seq_length_matches_running_each_sequence_on_its_own(mode, cls):
    net = cls(3, 4, bidirectional=True)
    x = _x((6, 2, 3))
    lengths = np.array([6, 3], np.int32)
    out, state = net(x, None, ms.Tensor(lengths))
    h = state[0] if cls is nn.LSTM else state
    short_out, short_state = net(x[:3, 1:2])
    short_h = short_state[0] if cls is nn.LSTM else short_state
    np.testing.assert_allclose(out[:3, 1:2], short_out, atol=1e-6)
    np.testing.assert_array_equal(out[3:, 1], 0)
    np.testing.assert_allclose(h[:, 1:2], short_h, atol=1e-6)


def test_time_loop_traces_the_step_once_per_layer(monkeypatch):
    calls = []
    step = rnn_module._STEPS["GRU"]

    def counting(*args):
        calls.append(1)
        return step(*args)

    monkeypatch.setitem(rnn_module._STEPS, "GRU", counting)
    rnn_module._recurrent_layer.clear_cache()
    ms.set_context(mode=ms.GRAPH_MODE)
    out, _ = nn.GRU(3, 4, num_layers=2)(_x((40, 2, 3)))
    assert out.shape == (40, 2, 4)
    assert len(calls) == 2


def test_inter_layer_dropout_acts_only_in_training():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.LSTM(3, 8, num_layers=2, dropout=0.5)
    x = _x((4, 2, 3))
    eval_a, eval_b = net(x)[0], net(x)[0]
    np.testing.assert_array_equal(eval_a, eval_b)
    net.set_train(True)
    assert not np.allclose(net(x)[0], eval_a)


def test_half_precision_input_gives_half_precision_output():
    out, h = nn.GRU(3, 4)(_x((5, 2, 3)).astype(ms.float16))
    assert out.dtype == ms.float16 and h.dtype == ms.float16


def test_gradient_flows_through_the_scanned_loop():
    net = nn.RNN(3, 4, num_layers=2, nonlinearity="relu")
    grad = jax.grad(lambda x: net(x)[0].sum())(jnp.asarray(_x((5, 2, 3))))
    assert grad.shape == (5, 2, 3) and np.isfinite(np.asarray(grad)).all()


@pytest.mark.parametrize("cls,hx", [(nn.LSTMCell, "pair"), (nn.GRUCell, "one"), (nn.RNNCell, "one")])
def test_cells_compute_one_step(mode, cls, hx):
    cell = cls(3, 4)
    h = ms.Tensor(np.zeros((2, 4), np.float32))
    out = cell(_x((2, 3)), (h, h) if hx == "pair" else h)
    if hx == "pair":
        assert out[0].shape == out[1].shape == (2, 4)
    else:
        assert out.shape == (2, 4)
    assert [p.name for p in cell.get_parameters()] == ["weight_ih", "weight_hh", "bias_ih", "bias_hh"]


def test_rnn_cell_relu_nonlinearity_never_negative():
    cell = nn.RNNCell(3, 4, nonlinearity="relu")
    assert (np.asarray(cell(_x((8, 3)), _x((8, 4), 1))) >= 0).all()


# -- errors ---------------------------------------------------------------------
def test_wrong_input_width_names_the_cell_and_shapes():
    net = _Holder(nn.LSTM(3, 4))
    with pytest.raises(ValueError, match=r"For 'LSTM' at 'encoder'.*input_size 3, got shape \(5, 2, 7\)"):
        net(_x((5, 2, 7)))


def test_wrong_input_rank_is_rejected(mode):
    with pytest.raises(ValueError, match=r"For 'GRU'.*rank 3.*got shape \(5, 3\)"):
        nn.GRU(3, 4)(_x((5, 3)))


def test_wrong_initial_state_shape_is_rejected():
    with pytest.raises(ValueError, match=r"expected 'hx' of shape \(2, 2, 4\), got \(1, 2, 4\)"):
        nn.GRU(3, 4, bidirectional=True)(_x((5, 2, 3)), ms.Tensor(np.zeros((1, 2, 4), np.float32)))
    with pytest.raises(TypeError, match="'hx' must be a tuple"):
        nn.LSTM(3, 4)(_x((5, 2, 3)), ms.Tensor(np.zeros((1, 2, 4), np.float32)))


def test_bad_seq_length_is_rejected():
    net = nn.GRU(3, 4)
    with pytest.raises(TypeError, match="'seq_length' must be an int32 or int64"):
        net(_x((5, 2, 3)), None, ms.Tensor(np.array([1.0, 2.0], np.float32)))
    with pytest.raises(ValueError, match=r"seq_length.*\(2,\), got \(3,\)"):
        net(_x((5, 2, 3)), None, ms.Tensor(np.array([1, 2, 3], np.int32)))


def test_cell_rejects_wrong_state_shape():
    with pytest.raises(ValueError, match=r"For 'GRUCell'.*'hx' of shape \(2, 4\), got \(2, 5\)"):
        nn.GRUCell(3, 4)(_x((2, 3)), _x((2, 5)))


@pytest.mark.parametrize("build,error,match", [
    (lambda: nn.LSTM(3, 0), ValueError, "'hidden_size'"),
    (lambda: nn.LSTM(3.0, 4), TypeError, "'input_size'"),
    (lambda: nn.GRU(3, 4, num_layers=0), ValueError, "'num_layers'"),
    (lambda: nn.LSTM(3, 4, dropout=0), TypeError, "'dropout'"),
    (lambda: nn.LSTM(3, 4, dropout=1.0), ValueError, r"'dropout'.*\[0, 1\)"),
    (lambda: nn.RNN(3, 4, nonlinearity="gelu"), ValueError, "'nonlinearity'"),
    (lambda: nn.RNNCell(3, 4, nonlinearity="gelu"), ValueError, "'nonlinearity'"),
    (lambda: nn.GRU(3, 4, bidirectional=1), TypeError, "'bidirectional'"),
])
def test_bad_constructor_arguments_name_the_argument(build, error, match):
    with pytest.raises(error, match=match):
        build()
