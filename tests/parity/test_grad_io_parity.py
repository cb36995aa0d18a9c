"""Which inputs get gradients and which outputs get a sensitivity, against MindSpore 2.10.

MindSpore differentiates Tensor inputs only (Python numbers and tuples of
Tensors are constants, left out of the result), gives no sensitivity to
outputs that are not Tensors, reaches a Parameter through every output that
holds it, and returns the conjugate of JAX's complex gradient. MindSpore runs
in its GRAPH mode (the nets are parsed from ``nets_grad_io_ms.py``), except
where noted; MindJAX runs in both modes.
"""
import mindspore
import numpy as np
import pytest

import mindjax
import nets_grad_io_mj as mj
import nets_grad_io_ms as ms
from mindjax.transforms import grad as mjgrad

_EXPECTED = {}
X = np.array([1.0, 2.0], np.float32)
Y = np.array([3.0, 3.0], np.float32)


def _numpy(tree):
    if isinstance(tree, (tuple, list)):
        return tuple(_numpy(t) for t in tree)
    if isinstance(tree, (int, str)):
        return tree
    return np.asarray(tree.asnumpy() if hasattr(tree, "asnumpy") else tree)


def _reference(key, compute, mode=mindspore.GRAPH_MODE):
    if key not in _EXPECTED:
        mindspore.set_context(mode=mode)
        _EXPECTED[key] = _numpy(compute(mindspore))
    return _EXPECTED[key]


def _assert_same(ours, expected):
    ours = _numpy(ours)
    assert _layout(ours) == _layout(expected)
    for a, b in zip(_leaves(ours), _leaves(expected)):
        np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)


def _layout(tree):
    if isinstance(tree, tuple):
        return tuple(_layout(t) for t in tree)
    if isinstance(tree, (int, str)):
        return tree
    return ("T", np.shape(tree), np.asarray(tree).dtype.kind)


def _leaves(tree):
    if isinstance(tree, tuple):
        return [leaf for t in tree for leaf in _leaves(t)]
    return [] if isinstance(tree, (int, str)) else [tree]


def _nets(framework):
    return ms if framework is mindspore else mj


@pytest.mark.parametrize("grad_position", [0, 1, 2, (0, 1), (1, 2), (0, 1, 2)])
def test_python_number_inputs_are_left_out_as_in_mindspore(mode, grad_position):
    def run(fw):
        return fw.grad(_nets(fw).MulThree(), grad_position)(fw.Tensor(X), 2.0, fw.Tensor(Y))

    _assert_same(run(mindjax), _reference(("numbers", grad_position), run))


def test_grad_operation_get_all_skips_numbers_and_tuples_as_in_mindspore(mode):
    def run(fw):
        t = (fw.Tensor(X), fw.Tensor(Y))
        get_all = fw.ops.GradOperation(get_all=True)
        return (get_all(_nets(fw).MulThree())(fw.Tensor(X), 2.0, fw.Tensor(Y)),
                get_all(_nets(fw).TupleInput())(t, fw.Tensor(X)),
                fw.ops.GradOperation()(_nets(fw).TupleInput())(t, fw.Tensor(X)),
                fw.grad(_nets(fw).MulThree(), (0, 2), return_ids=True)(fw.Tensor(X), 2.0, fw.Tensor(Y)))

    _assert_same(run(mindjax), _reference("get_all", run))


def test_non_tensor_outputs_get_no_sensitivity_as_in_mindspore(mode):
    def run(fw):
        net = _nets(fw).WithConstants()
        return fw.ops.GradOperation(get_all=True, get_by_list=True)(net, net.trainable_params())(fw.Tensor(X))

    _assert_same(run(mindjax), _reference("constants", run))


def test_a_returned_parameter_gets_its_gradient_as_in_mindspore(mode):
    def run(fw):
        net = _nets(fw).ReturnsParameter()
        return fw.grad(net, (0, 1), net.trainable_params())(fw.Tensor(X), fw.Tensor(Y))

    _assert_same(run(mindjax), _reference("returns_param", run))


def test_a_sens_dict_with_a_constant_entry_as_in_mindspore(mode):
    def run(fw):
        sens = {"a": fw.Tensor(Y), "b": 2}
        return fw.ops.GradOperation(sens_param=True)(_nets(fw).DictWithConstant())(fw.Tensor(X), sens)

    _assert_same(run(mindjax), _reference("dict_sens", run))


def test_complex_gradient_is_conjugated_as_in_mindspore(mode):
    z = np.asarray(1.3 + 0.4j, np.complex64)

    def run(fw):
        return fw.ops.GradOperation()(_nets(fw).Imag())(fw.Tensor(z))

    _assert_same(run(mindjax), _reference("imag", run))


def test_requires_grad_false_gives_zero_as_mindspore_pynative(mode):
    # MindSpore's GRAPH mode ignores requires_grad for listed weights; MindJAX follows its
    # PYNATIVE mode in both modes (a frozen Parameter gets no gradient).
    def run(fw):
        net = _nets(fw).ReturnsParameter()
        net.w.requires_grad = False
        return fw.grad(net, None, [net.w])(fw.Tensor(X), fw.Tensor(Y))

    _assert_same(run(mindjax), _reference("frozen", run, mode=mindspore.PYNATIVE_MODE))


@pytest.mark.parametrize("framework_mode", ["GRAPH_MODE", "PYNATIVE_MODE"])
def test_a_tensor_written_to_an_attribute_loses_its_gradient_in_graph_mode_as_in_mindspore(framework_mode):
    # MindSpore's GRAPH mode runs the write in the interpreter (PyExecute): d(self.p * x)/dx is self.p = 6;
    # PYNATIVE differentiates through it: 12.
    mindjax.set_context(mode=getattr(mindjax, framework_mode))

    def run(fw):
        return fw.grad(_nets(fw).WritesAttribute(), 0)(fw.Tensor(np.array([2.0], np.float32)))

    ours = run(mindjax)
    _assert_same(ours, _reference(("attr", framework_mode), run, mode=getattr(mindspore, framework_mode)))
    assert float(_numpy(ours)[0]) == (6.0 if framework_mode == "GRAPH_MODE" else 12.0)


def test_an_int_input_added_to_an_int_attribute_has_gradient_zero_in_graph_mode_as_in_mindspore():
    mindjax.set_context(mode=mindjax.GRAPH_MODE)

    def run(fw):
        return fw.grad(_nets(fw).AddsToIntAttribute(), 0)(fw.Tensor(np.array([2], np.int64)))

    _assert_same(run(mindjax), _reference("int_attr", run))


def test_a_bool_input_gets_the_sensitivitys_truth_value_as_in_mindspore(mode):
    x = np.array([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6]], np.float32)
    y = np.array([[True, True, True], [False, False, False]])
    sens = np.array([[1.0, 2.0, 0.0], [0.0, 3.0, 4.0]], np.float32)

    def run(fw):
        return fw.ops.GradOperation(get_all=True, sens_param=True)(_nets(fw).Add())(
            fw.Tensor(x), fw.Tensor(y), fw.Tensor(sens))

    ours = run(mindjax)
    _assert_same(ours, _reference("bool_input", run))
    assert ours[1].dtype == mindjax.bool_
    np.testing.assert_array_equal(ours[1].asnumpy(), sens.astype(bool))
