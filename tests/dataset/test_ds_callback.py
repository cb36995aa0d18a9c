"""DSCallback hooks called by map, and WaitedDSCallback's training context."""
import numpy as np
import pytest

import mindjax.dataset as ds
from mindjax.dataset.callback import DSCallback


class _Recorder(DSCallback):
    def __init__(self, step_size=1):
        super().__init__(step_size)
        self.calls = []

    def ds_begin(self, ctx):
        self.calls.append(("begin", ctx.cur_epoch_num))

    def ds_epoch_begin(self, ctx):
        self.calls.append(("epoch_begin", ctx.cur_epoch_num))

    def ds_epoch_end(self, ctx):
        self.calls.append(("epoch_end", ctx.cur_epoch_num))

    def ds_step_begin(self, ctx):
        self.calls.append(("step_begin", ctx.cur_step_num, ctx.cur_step_num_in_epoch))

    def ds_step_end(self, ctx):
        self.calls.append(("step_end", ctx.cur_step_num))


def test_map_calls_the_hooks_per_epoch_and_every_step_size_rows():
    cb = _Recorder(step_size=2)
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False).map(lambda x: x + 1, callbacks=[cb])
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=2)
    out = [int(r[0]) for _ in range(2) for r in it]
    assert out == [1, 2, 3, 1, 2, 3]
    assert cb.calls == [("begin", 1), ("epoch_begin", 1), ("step_begin", 1, 1), ("step_end", 1),
                        ("step_begin", 3, 3), ("step_end", 3), ("epoch_end", 1),
                        ("epoch_begin", 2), ("step_begin", 5, 2), ("step_end", 5), ("epoch_end", 2)]


def test_waited_ds_callback_sees_the_last_training_context():
    seen = []

    class Sync(ds.WaitedDSCallback):
        def sync_step_begin(self, train_run_context, ds_run_context):
            seen.append((train_run_context, ds_run_context.cur_step_num))

    cb = Sync(step_size=1)
    data = ds.NumpySlicesDataset({"x": np.arange(3)}, shuffle=False).map(lambda x: x, callbacks=cb)
    it = data.create_tuple_iterator(output_numpy=True, num_epochs=1)
    for step, _ in enumerate(it):
        cb.step_end(f"train-step-{step}")
    assert seen == [("train-step-0", 2), ("train-step-1", 3)]
    from mindjax.train.callback import Callback

    assert isinstance(cb, Callback) and isinstance(cb, DSCallback)


def test_waited_ds_callback_times_out_without_training():
    ds.config.set_callback_timeout(1)
    assert ds.config.get_callback_timeout() == 1
    cb = ds.WaitedDSCallback()
    data = ds.NumpySlicesDataset({"x": np.arange(2)}, shuffle=False).map(lambda x: x, callbacks=cb)
    with pytest.warns(RuntimeWarning, match="no training step_end within 1 s"):
        assert len(list(data.create_tuple_iterator(output_numpy=True, num_epochs=1))) == 2


def test_callback_argument_errors():
    with pytest.raises(TypeError, match="every callback must be a DSCallback"):
        ds.NumpySlicesDataset({"x": [1]}).map(lambda x: x, callbacks=[object()])
    with pytest.raises(ValueError, match=r"Input step_size is not within the required interval of \[1, 16777216\]"):
        DSCallback(0)
