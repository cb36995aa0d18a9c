"""``mindspore.ops.functional`` (``F``) reaches every public op, as MindSpore's does."""
import numpy as np
import pytest

import mindjax as ms
from mindjax import ops
from mindjax.ops import functional as F


@pytest.mark.parametrize("name", ["cumprod", "isinf", "cross", "logical_xor", "std_mean", "assign_sub", "conj"])
def test_functional_reaches_the_ops_of_the_function_modules(name):
    assert getattr(F, name) is getattr(ops, name)


def test_from_import_and_a_call_through_functional():
    from mindjax.ops.functional import cumprod

    np.testing.assert_array_equal(cumprod(ms.Tensor([1.0, 2.0, 3.0]), 0).asnumpy(), [1.0, 2.0, 6.0])


def test_unknown_and_class_names_are_attribute_errors():
    with pytest.raises(AttributeError, match="has no attribute 'no_such_op'"):
        F.no_such_op
    with pytest.raises(AttributeError):
        F.MatMul  # Primitives live in ops and ops.operations, not in functional
