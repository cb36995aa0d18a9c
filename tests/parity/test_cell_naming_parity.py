"""Parameter and Cell names equal MindSpore 2.10's on the same structure."""
import mindspore
import mindspore.nn as msnn
import pytest

import mindjax
from mindjax import nn
from tests.parity.nets_core import build_nested


@pytest.fixture
def pair():
    return build_nested(mindspore, msnn), build_nested(mindjax, nn)


def test_parameter_names_equal_mindspore(pair):
    theirs, ours = pair
    assert [p.name for p in ours.get_parameters()] == [p.name for p in theirs.get_parameters()]
    assert [n for n, _ in ours.parameters_and_names()] == [n for n, _ in theirs.parameters_and_names()]


def test_cell_names_equal_mindspore(pair):
    theirs, ours = pair
    assert [n for n, _ in ours.cells_and_names()] == [n for n, _ in theirs.cells_and_names()]
    assert list(ours.name_cells()) == list(theirs.name_cells())


def test_trainable_split_and_shapes_equal_mindspore(pair):
    theirs, ours = pair
    assert [(p.name, tuple(p.shape)) for p in ours.trainable_params()] == \
           [(p.name, tuple(p.shape)) for p in theirs.trainable_params()]
    assert [p.name for p in ours.untrainable_params()] == [p.name for p in theirs.untrainable_params()]


def test_sequential_append_names_equal_mindspore():
    def build(nn_mod):
        seq = nn_mod.SequentialCell(nn_mod.Dense(2, 2), nn_mod.ReLU())
        seq.append(nn_mod.Dense(2, 3))
        return [p.name for p in seq.get_parameters()], len(seq)

    assert build(nn) == build(msnn)


def test_repr_layout_equals_mindspore():
    def build(nn_mod):
        class N(nn_mod.Cell):
            def __init__(self):
                super().__init__()
                self.fc = nn_mod.Dense(2, 3)
                self.seq = nn_mod.SequentialCell([nn_mod.ReLU(), nn_mod.Dense(3, 1)])

            def construct(self, x):
                return x

        return repr(N())

    assert build(nn) == build(msnn)
