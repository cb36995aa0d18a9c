"""Out-of-range labels and indices raise as MindSpore's CPU kernels do, in PYNATIVE and GRAPH mode."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax import nn, ops
from mindjax.common.checks import IndexValueError

LOGITS = np.zeros((4, 3), np.float32)


def _labels(*values):
    return ms.Tensor(np.array(values, np.int32))


@pytest.mark.parametrize("bad", [3, 100, -1])
def test_sparse_softmax_cross_entropy_rejects_labels_outside_the_classes(mode, bad):
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True)
    with pytest.raises(IndexValueError, match=rf"For 'SoftmaxCrossEntropyWithLogits', the value of 'labels' must be "
                                              rf"in \[0, 3\), but got {bad} \(at position \(2,\)\)"):
        loss(ms.Tensor(LOGITS), _labels(0, 1, bad, 2))


def test_sparse_softmax_cross_entropy_in_range_labels_still_work(mode):
    out = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")(ms.Tensor(LOGITS), _labels(0, 1, 2, 2))
    np.testing.assert_allclose(float(out.asnumpy()), np.log(3), rtol=1e-6)


@pytest.mark.parametrize("cls", [nn.CrossEntropyLoss, nn.NLLLoss])
def test_cross_entropy_and_nll_reject_labels_outside_classes_but_accept_the_ignore_index(mode, cls):
    loss = cls()
    name = cls.__name__
    with pytest.raises(IndexValueError, match=rf"For '{name}', the value of 'labels' must be in \[0, 3\) or equal "
                                              rf"-100 \(the ignore index\), but got -1 \(at position \(1,\)\)"):
        loss(ms.Tensor(LOGITS), _labels(0, -1, 1, 2))
    assert np.isfinite(loss(ms.Tensor(LOGITS), _labels(0, -100, 1, 2)).asnumpy())


def test_embedding_rejects_ids_beyond_the_vocabulary_and_wraps_negative_ones_as_mindspore(mode):
    emb = nn.Embedding(4, 2)
    with pytest.raises(IndexValueError, match=r"For 'Embedding', the value of 'ids' must be in \[-4, 4\), but got 5 "
                                              r"\(at position \(0, 1\)\)"):
        emb(_labels(0, 5).reshape(1, 2))
    table = emb.embedding_table.asnumpy()
    np.testing.assert_array_equal(emb(_labels(-1)).asnumpy(), table[[3]])


def test_embedding_one_hot_path_checks_and_wraps_the_same_way(mode):
    emb = nn.Embedding(4, 2, use_one_hot=True)
    with pytest.raises(IndexValueError, match=r"in \[-4, 4\), but got 4"):
        emb(_labels(4))
    np.testing.assert_allclose(emb(_labels(-1)).asnumpy(), emb.embedding_table.asnumpy()[[3]], rtol=1e-6)


def test_ops_gather_rejects_indices_outside_the_axis(mode):
    x = ms.Tensor(np.arange(8, dtype=np.float32).reshape(2, 4))
    with pytest.raises(IndexValueError, match=r"For 'gather', the value of 'input_indices' must be in \[-4, 4\), "
                                              r"but got 5 \(at position \(1,\)\)"):
        ops.gather(x, _labels(0, 5), 1)
    np.testing.assert_array_equal(ops.gather(x, _labels(-1), 1).asnumpy(), [[3.0], [7.0]])


def test_ops_cross_entropy_and_nll_loss_check_the_target():
    with pytest.raises(IndexValueError, match=r"For 'cross_entropy', the value of 'target' must be in \[0, 3\)"):
        ops.cross_entropy(ms.Tensor(LOGITS), _labels(0, 1, 2, 3))
    with pytest.raises(IndexValueError, match=r"For 'nll_loss', the value of 'target' must be in \[0, 3\)"):
        ops.nll_loss(ms.Tensor(LOGITS), _labels(0, 1, 2, 9))


def test_graph_mode_training_step_with_a_bad_label_raises_and_updates_nothing():
    ms.set_context(mode=ms.GRAPH_MODE)
    net = nn.Dense(3, 3)
    step = nn.TrainOneStepCell(nn.WithLossCell(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True,
                                                                                      reduction="mean")),
                               nn.Momentum(net.trainable_params(), 0.1, 0.9))
    before = {p.name: p.asnumpy().copy() for p in net.get_parameters()}
    with pytest.raises(IndexValueError, match=r"the value of 'labels' must be in \[0, 3\), but got 7"):
        step(ms.Tensor(np.ones((4, 3), np.float32)), _labels(0, 7, 1, 2))
    for p in net.get_parameters():
        np.testing.assert_array_equal(p.asnumpy(), before[p.name], err_msg=p.name)
    step(ms.Tensor(np.ones((4, 3), np.float32)), _labels(0, 1, 1, 2))  # a good step still trains
    assert not np.array_equal(net.weight.asnumpy(), before["weight"])


def test_plain_jax_jit_reports_the_bad_index_through_a_host_callback():
    x = ms.Tensor(np.arange(4, dtype=np.float32))

    @jax.jit
    def f(idx):
        return ops.gather(x, idx, 0)

    np.testing.assert_array_equal(np.asarray(f(np.array([1, 2], np.int32))), [1.0, 2.0])
    with pytest.raises(Exception, match=r"For 'gather', the value of 'input_indices' must be in \[-4, 4\), but got 9"):
        jax.block_until_ready(f(np.array([1, 9], np.int32)))


class _GatherCell(nn.Cell):
    def __init__(self, how):
        super().__init__()
        self.how = how

    def construct(self, x, idx):
        if self.how == "elements":
            return ops.gather_elements(x, 1, idx)
        return ops.gather_nd(x, idx)


def test_gather_elements_rejects_indices_outside_dim_in_a_cell_in_both_modes(mode):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    cell = _GatherCell("elements")
    with pytest.raises(IndexValueError, match=r"For 'gather_elements', the value of 'index' must be in \[-3, 3\), "
                                              r"but got 3 \(at position \(0, 1\)\)"):
        cell(x, ms.Tensor(np.array([[0, 3, 0], [0, 0, 0]], np.int32)))
    with pytest.raises(IndexValueError, match=r"For 'gather_elements', the value of 'index' must be in \[-3, 3\), but got -4"):
        ops.GatherD()(x, 1, ms.Tensor(np.array([[-4, 0, 0], [0, 0, 0]], np.int32)))
    out = cell(x, ms.Tensor(np.array([[-1, 0, 0], [0, 0, 0]], np.int32)))  # negative indices wrap, as MindSpore
    np.testing.assert_array_equal(out.asnumpy(), [[2.0, 0.0, 0.0], [3.0, 3.0, 3.0]])


def test_gather_nd_rejects_indices_outside_the_input_in_a_cell_in_both_modes(mode):
    x = ms.Tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    cell = _GatherCell("nd")
    with pytest.raises(IndexValueError, match=r"For 'gather_nd', the value of 'indices\[\.\.\., 1\]' must be in "
                                              r"\[0, 3\), but got 3 \(at position \(1,\)\)"):
        cell(x, ms.Tensor(np.array([[0, 1], [1, 3]], np.int32)))
    with pytest.raises(IndexValueError, match=r"'indices\[\.\.\., 0\]' must be in \[0, 2\), but got -1"):
        cell(x, ms.Tensor(np.array([[-1, 0]], np.int32)))  # MindSpore's kernel rejects negatives too
    np.testing.assert_array_equal(cell(x, ms.Tensor(np.array([[1, 2]], np.int32))).asnumpy(), [5.0])


def test_a_compiled_cell_call_under_a_user_jax_jit_hands_its_checks_to_a_host_callback(mode):
    emb = nn.Embedding(4, 2)

    @jax.jit
    def f(idx):
        return emb(idx)  # a jax.Array in, a jax.Array out

    np.testing.assert_allclose(np.asarray(f(np.array([1, 3], np.int32))), emb.embedding_table.asnumpy()[[1, 3]])
    with pytest.raises(Exception, match=r"the value of .* must be in .*, but got 7"):
        jax.block_until_ready(f(np.array([1, 7], np.int32)))
