"""ops.operations._inner_ops.IsInstance: MindSpore's types of Python constants."""
import numpy as np
import pytest

import mindjax as ms
from mindjax.ops.operations import _inner_ops as inner


@pytest.mark.parametrize("inst, type_, expected", [
    ([1, 2], ms.list_, True), ((1, 2), ms.tuple_, True), ([1], ms.tuple_, False),
    (1, ms.int64, True), (1, ms.int32, False), (1, ms.number, True),
    (1.0, ms.float32, True), (1.0, ms.float64, False), (1.0, ms.float_, True),
    (True, ms.bool_, True), (True, ms.number, True), (True, ms.int64, False),
    (None, ms.type_none, True), ([1], ms.int64, False),
])
def test_isinstance_gives_mindspore_types_of_constants(inst, type_, expected):
    assert inner.IsInstance()(inst, type_) is expected


def test_isinstance_refuses_a_type_that_is_not_mindspores():
    with pytest.raises(TypeError, match="For 'IsInstance', the type of 'type_' should be 'Type', but got type 'type'"):
        inner.IsInstance()(1, int)
    with pytest.raises(TypeError, match="should be 'Type'"):
        inner.IsInstance()(np.ones(2), "float32")
