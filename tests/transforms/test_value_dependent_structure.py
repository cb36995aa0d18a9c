"""A compiled function whose Python structure depends on the value of an input tensor (a list of lists
indexed by an input) traces again with its small integer/bool Tensor inputs as constants, one program
per value, as MindSpore interprets such statements at run time
(tests/st/pynative/grad/test_common_grad::test_jit_network_with_list_inplace)."""
import numpy as np
import pytest

import mindjax as ms
from mindjax.transforms.control_flow import ValueDependentStructureError


def _rows_net(traces):
    class Rows(ms.nn.Cell):
        @ms.jit
        def construct(self, idx, x):
            traces.append(1)   # a Python side effect: runs once per trace
            rows = [[1], [2, 3], [4, 5, 6]]
            return rows[idx], x * 2
    return Rows()


def test_a_list_of_lists_indexed_by_an_integer_input_gives_the_item_for_each_value():
    traces = []
    net = _rows_net(traces)
    x = ms.Tensor(np.ones(2, np.float32))
    for i, want in [(1, [2, 3]), (2, [4, 5, 6]), (0, [1])]:
        picked, doubled = net(ms.Tensor([i]), x)
        assert picked == want and doubled.asnumpy().tolist() == [2.0, 2.0]
    n = len(traces)
    net(ms.Tensor([1]), x)   # a value seen before reuses its program
    assert len(traces) == n


def test_the_list_case_under_grad_operation_matches_mindspore():
    class ListInplace(ms.nn.Cell):
        @ms.jit
        def construct(self, input1, input2):
            x1 = [[1], [2], [3], [4]]
            for i in range(1, len(x1)):
                y = x1[ms.Tensor([i])]
                y.extend([4])
                x1.insert(1, [5])
                x1.reverse()
                z = x1[input1]
                z.extend(input2[i])
                x1.pop()
            return x1

    input2 = [ms.Tensor([1]), ms.Tensor([2]), ms.Tensor([3]), ms.Tensor([4])]
    out = ListInplace()(ms.Tensor([2]), input2)
    # MindSpore 2.10: [[5, 4], [3, T(3)], [2, 4, T(2), 4, T(4)], [5]] (T: a 0-d Int64 Tensor)
    plain = [[int(v) for v in row] for row in out]
    assert plain == [[5, 4], [3, 3], [2, 4, 2, 4, 4], [5]]
    assert isinstance(out[1][1], ms.Tensor) and out[1][1].shape == () and out[1][1].dtype == ms.int64
    grad = ms.ops.GradOperation()(ListInplace())(ms.Tensor([2]), input2)
    assert grad.dtype == ms.int64 and grad.asnumpy().tolist() == [0]   # MindSpore: Tensor([0], Int64)


def test_tensors_of_one_shape_indexed_by_an_input_stay_one_program():
    traces = []

    class Stack(ms.nn.Cell):
        @ms.jit
        def construct(self, idx, x):
            traces.append(1)
            return [x, x * 2, x * 3][idx]

    net = Stack()
    x = ms.Tensor(np.ones(2, np.float32))
    assert [net(ms.Tensor(i, ms.int32), x).asnumpy().tolist() for i in range(3)] == [[1, 1], [2, 2], [3, 3]]
    assert len(traces) == 1


def test_an_index_computed_from_a_float_input_still_raises_naming_the_line():
    class FromFloat(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            return [[1], [2, 3]][(x > 0).astype(ms.int32)]

    with pytest.raises(ValueDependentStructureError, match=r"test_value_dependent_structure\.py:\d+: indexing "
                                                           r"a list with a tensor whose value is known only"):
        FromFloat()(ms.Tensor(np.array([1.0], np.float32)))


def test_a_large_integer_input_is_not_made_a_constant():
    class Big(ms.nn.Cell):
        @ms.jit
        def construct(self, idx):
            return [[1], [2, 3]][idx[0]]

    with pytest.raises(ValueDependentStructureError, match=r"items \[list, list\]"):
        Big()(ms.Tensor(np.zeros(17, np.int32)))


def test_state_is_written_once_by_the_call_that_retraces():
    class WithParam(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.w = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="w")

        @ms.jit
        def construct(self, idx, x):
            ms.ops.assign_add(self.w, x)
            return [[1], [2, 3]][idx], self.w + 0

    net = WithParam()
    one = ms.Tensor(np.ones(2, np.float32))
    picked, w = net(ms.Tensor([1]), one)   # the first trace fails, the second (idx constant) runs
    assert picked == [2, 3] and w.asnumpy().tolist() == [2.0, 2.0] and net.w.asnumpy().tolist() == [2.0, 2.0]
    picked, w = net(ms.Tensor([0]), one)
    assert picked == [1] and net.w.asnumpy().tolist() == [3.0, 3.0]
