"""A Tensor built from Python or numpy data inside a compiled program is a constant whose value is known
while tracing, as in MindSpore's graph mode: it can index a Python list and convert with int()/bool()."""
import numpy as np
import pytest

import mindjax as ms


def _x():
    return ms.Tensor(np.array([1.0], np.float32))


def test_a_constant_tensor_indexes_a_list_of_lists_inside_jit():
    class Pick(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            rows = [[1], [2, 3], [4, 5, 6]]
            return rows[ms.Tensor([1])]

    assert Pick()(_x()) == [2, 3]   # MindSpore 2.10: [2, 3]


def test_int_and_index_of_a_constant_tensor_inside_jit():
    class Count(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            k = int(ms.Tensor([[3]]))
            return x * k + [10, 20, 30][ms.Tensor(2, ms.int32)]

    assert Count()(_x()).asnumpy().tolist() == [33.0]


def test_a_list_loop_indexed_by_constant_tensors_inside_jit():
    class Grow(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            rows = [[1], [2], [3]]
            for i in range(1, len(rows)):
                rows[ms.Tensor([i])].extend([9])
                rows.reverse()
            return rows, x

    rows, _ = Grow()(_x())
    assert rows == [[1, 9], [2, 9], [3]]   # same as the loop in plain Python


def test_a_tensor_from_a_traced_value_still_has_no_known_value():
    class Traced(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            return [[1], [2, 3]][ms.Tensor(x).astype(ms.int32)]

    # A float input is no small integer input that a retrace could take as a constant.
    with pytest.raises(ValueError, match="value is known only when the program runs"):
        Traced()(ms.Tensor(np.array([1.0], np.float32)))


def test_constant_tensors_keep_their_dtype_and_value_inside_jit():
    class Make(ms.nn.Cell):
        @ms.jit
        def construct(self, x):
            return x + ms.Tensor([1, 2], ms.float16).astype(ms.float32), ms.Tensor(7).dtype == ms.int64

    out, is_int64 = Make()(ms.Tensor(np.zeros(2, np.float32)))
    assert out.asnumpy().tolist() == [1.0, 2.0] and bool(is_int64)
