"""Shared data and helpers of the ``test_compat_*`` parity tests (run with mindspore or mindjax)."""
import numpy as np

import mindjax
from tests.parity import nets_compat_mj, nets_compat_ms


def nets(framework):
    """The nets module written for ``framework`` (mindspore's parsed from its own file)."""
    return nets_compat_mj if framework is mindjax else nets_compat_ms


class EpochData:
    """A dataset as MindSpore's Model reads it: each pass of the iterator is one epoch of list rows."""

    def __init__(self, framework, batches):
        self._framework = framework
        self._batches = batches

    def get_dataset_size(self):
        return len(self._batches)

    def create_tuple_iterator(self, num_epochs=-1, output_numpy=False, do_copy=True):
        return _EpochIterator(self._framework, self._batches)

    def reset(self):
        pass

    def get_col_names(self):
        return ["data", "label"]


class _EpochIterator:
    def __init__(self, framework, batches):
        self._framework = framework
        self._batches = batches
        self._pos = 0

    def __iter__(self):
        return self

    def __next__(self):
        if self._pos == len(self._batches):
            self._pos = 0
            raise StopIteration
        self._pos += 1
        return [self._framework.Tensor(a) for a in self._batches[self._pos - 1]]


def classification(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4)).astype(np.float32)
    y = ((x[:, 0] > 0).astype(np.int32) + (x[:, 1] > 0.5).astype(np.int32)).astype(np.int32)
    return [(x[i:i + 8], y[i:i + 8]) for i in range(0, n, 8)]


def set_weights(framework, net, scale, seed=1):
    rng = np.random.default_rng(seed)
    for p in net.get_parameters():
        p.set_data(framework.Tensor((rng.normal(size=p.shape) * scale).astype(np.float32)))
