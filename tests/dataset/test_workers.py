"""Worker processes (grain's mp_prefetch): same rows as threads, resumable, and a dying worker is reported."""
import json
import os

import numpy as np
import pytest

import mindjax.dataset as ds
from mindjax.dataset import vision


def _scale(x):
    return x * 2


def _die_on_six(x):
    from grain._src.python.dataset.transformations.process_prefetch import is_in_worker_process

    if int(x[0]) == 6 and is_in_worker_process():
        os._exit(3)
    return x


def _pipeline(processes):
    data = ds.NumpySlicesDataset({"x": np.arange(48).reshape(12, 2, 2)})
    data = data.map([_scale, vision.RandomHorizontalFlip()], input_columns="x", num_parallel_workers=2,
                    python_multiprocessing=processes)
    return data.batch(2)


def _take(it, n):
    return [r[0].tolist() for _, r in zip(range(n), it)]


def test_worker_processes_match_threads_and_resume_exactly():
    ds.config.set_seed(5)
    threaded = _pipeline(False)
    assert threaded._parallelism() == (2, False)
    expected = [r[0].tolist() for r in threaded.create_tuple_iterator(output_numpy=True, num_epochs=1)]
    processes = _pipeline(True)
    assert processes._parallelism() == (2, True)
    it = processes.create_tuple_iterator(output_numpy=True, num_epochs=2)
    head = _take(it, 2)
    state = json.loads(json.dumps(it.get_state()))
    tail = [r[0].tolist() for r in it]
    assert head + tail == expected
    it.set_state(state)  # grain restarts the workers at the saved position
    assert [r[0].tolist() for r in it] == tail
    it.stop()


def test_dying_worker_process_is_reported_not_waited_on():
    data = ds.NumpySlicesDataset({"x": np.arange(20).reshape(10, 2)}, shuffle=False)
    data = data.map(_die_on_six, num_parallel_workers=2, python_multiprocessing=True)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=1)
    with pytest.raises(RuntimeError, match="Worker process was terminated unexpectedly with exit code 3"):
        for _ in it:
            pass
    it.stop()


def test_workers_are_capped_at_the_cores():
    ds.config.set_num_parallel_workers(64)
    assert ds.config.get_num_parallel_workers() == ds.config.cpu_count()
    data = ds.NumpySlicesDataset({"x": np.arange(4)}).map(_scale, num_parallel_workers=64)
    assert data._parallelism()[0] == ds.config.cpu_count()
    with pytest.raises(ValueError, match="'set_num_parallel_workers', the argument must be an int >= 1, got 0"):
        ds.config.set_num_parallel_workers(0)
    ds.config.set_prefetch_size(4)
    assert ds.config.get_prefetch_size() == 4
