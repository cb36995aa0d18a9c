"""lazy_inline / no_inline / set_recursion_limit: MindSpore's argument checks; nothing else changes."""
import sys

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn


def test_lazy_inline_returns_the_init_and_the_cell_works_in_both_modes():
    class Block(nn.Cell):
        def __init__(self, k):
            super().__init__()
            self.k = k

        def construct(self, x):
            return x * self.k

    plain_init = Block.__init__
    assert ms.lazy_inline(plain_init) is plain_init
    assert ms.lazy_inline(attrs=["k"], policy="front")(plain_init) is plain_init

    class Lazy(nn.Cell):
        @ms.lazy_inline
        def __init__(self):
            super().__init__()
            self.block = Block(3)

        def construct(self, x):
            return self.block(x)

    x = ms.Tensor(np.array([1.0, 2.0], np.float32))
    for mode in (ms.PYNATIVE_MODE, ms.GRAPH_MODE):
        ms.set_context(mode=mode)
        try:
            np.testing.assert_allclose(Lazy()(x).asnumpy(), [3.0, 6.0])
        finally:
            ms.set_context(mode=ms.PYNATIVE_MODE)


def test_lazy_inline_rejects_what_mindspore_rejects():
    class Net:
        pass

    def construct(self):
        return self

    with pytest.raises(ValueError, match="The lazy_inline should decorate the __init__ function, not the class Net."):
        ms.lazy_inline(Net)
    with pytest.raises(ValueError, match="not the function: construct."):
        ms.lazy_inline(construct)

    def __init__(self):
        pass

    with pytest.raises(ValueError, match="^policy must be None or 'front'$"):
        ms.lazy_inline(__init__, policy="back")
    with pytest.raises(ValueError, match="^attr must be a string$"):
        ms.lazy_inline(__init__, attrs=["a", 1])
    with pytest.raises(ValueError, match="^attrs must be list or string$"):
        ms.lazy_inline(__init__, attrs=3)


def test_no_inline_marks_and_returns_the_function():
    def f(x):
        return x * 3 + 2

    assert ms.no_inline(f) is f and f.no_inline is True
    g = ms.no_inline()(lambda x: x)
    assert g.no_inline is True and g(4) == 4
    with pytest.raises(TypeError, match="For 'no_inline', 'fn' must be a function, but got int."):
        ms.no_inline(3)


def test_set_recursion_limit_raises_pythons_limit_and_checks_like_mindspore():
    before = sys.getrecursionlimit()
    try:
        ms.set_recursion_limit(before + 500)
        assert sys.getrecursionlimit() == before + 500
        ms.set_recursion_limit(10)
        assert sys.getrecursionlimit() == before + 500  # never lowered
    finally:
        sys.setrecursionlimit(before)
    with pytest.raises(ValueError, match="^The input value must be int and must > 0, but got '0' with type 'int'.$"):
        ms.set_recursion_limit(0)
    with pytest.raises(ValueError, match="but got 'True' with type 'bool'"):
        ms.set_recursion_limit(True)
    with pytest.raises(TypeError, match="^The input value must be int, but got 'float'$"):
        ms.set_recursion_limit(1.5)
