"""mindjax.Profiler / mindjax.profiler: a jax.profiler trace with Cell names, and the per-Cell tables."""
import csv
import glob
import json
import os

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.common.upcalls import UPCALLS
from mindjax.profiler import ProfilerActivity, profile, schedule, tensorboard_trace_handler
from mindjax.profiler._analysis import cell_scopes, read_perfetto_names
from mindjax.profiler._xplane import read_xspace
from mindjax.profiler.schedule import ProfilerAction


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(16, 32)
        self.act = nn.ReLU()
        self.fc2 = nn.Dense(32, 4)

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


def _train_step():
    net = Net()
    loss = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, loss), nn.Momentum(net.trainable_params(), 0.01, 0.9))
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((8, 16)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 4, 8).astype(np.int32))
    return step, x, y


@pytest.fixture
def graph_mode():
    ms.set_context(mode=ms.GRAPH_MODE)
    yield
    ms.set_context(mode=ms.PYNATIVE_MODE)


def _one(pattern, root):
    found = glob.glob(os.path.join(str(root), "**", pattern), recursive=True)
    assert found, f"no {pattern} below {root}"
    return found


def _cell_rows(root):
    with open(_one("cell_statistic.csv", root)[-1], encoding="utf-8") as f:
        return {row["cell"]: row for row in csv.DictReader(f)}


def test_graph_mode_trace_names_the_cells_and_analyse_times_them(tmp_path, graph_mode, capsys):
    step, x, y = _train_step()
    step(x, y)  # compiled before recording: the steady step is profiled
    profiler = ms.Profiler(output_path=str(tmp_path))
    for _ in range(3):
        step(x, y)
    profiler.analyse()
    # The written trace: the compiled program's HLO inside it carries the Cells' paths as op names.
    space = read_xspace(_one("*.xplane.pb", tmp_path)[0])
    op_names = {name for names in space.op_names_by_program.values() for name in names.values()}
    assert any("/fc1/" in name for name in op_names) and any("/fc2/" in name for name in op_names)
    rows = _cell_rows(tmp_path)
    for cell in ("fc1", "fc2", "Momentum"):
        assert float(rows[cell]["device_ms"]) > 0, rows[cell]
    assert float(rows["fc1"]["backward_ms"]) > 0  # the gradient's ops are found under transpose(...)
    assert float(rows["Net"]["device_ms"]) >= float(rows["fc1"]["device_ms"]) + float(rows["fc2"]["device_ms"]) - 1e-3
    out = capsys.readouterr().out
    assert "per-Cell time" in out and "fc1" in out
    assert UPCALLS.cell_scope is None  # the Cell hook is gone once recording stops


def test_pynative_trace_holds_cell_call_events_that_perfetto_reads(tmp_path):
    step, x, y = _train_step()
    step(x, y)
    with profile(on_trace_ready=tensorboard_trace_handler(str(tmp_path))):
        step(x, y)
    names = read_perfetto_names(_one("perfetto_trace.json.gz", tmp_path)[0])
    assert {"fc1", "fc2", "act", "WithLossCell"} <= names
    rows = _cell_rows(tmp_path)
    assert rows["fc1"]["type"] == "Dense" and int(rows["fc1"]["calls"]) == 1
    assert float(rows["fc1"]["host_ms"]) > 0
    timeline = json.load(open(_one("trace_view.json", tmp_path)[0], encoding="utf-8"))
    assert {"fc1", "fc2"} <= {e["name"] for e in timeline["traceEvents"]}


def test_tracing_a_graph_call_under_the_profiler_times_each_cells_trace(tmp_path, graph_mode):
    step, x, y = _train_step()
    profiler = ms.Profiler(output_path=str(tmp_path))
    step(x, y)  # compiles while recording
    profiler.analyse()
    rows = _cell_rows(tmp_path)
    assert float(rows["fc1"]["trace_ms"]) > 0 and float(rows["fc1"]["host_ms"]) == 0


def test_schedule_records_only_active_steps_and_analyses_each_cycle(tmp_path):
    step, x, y = _train_step()
    with profile(schedule=schedule(wait=1, warmup=1, active=2, repeat=2, skip_first=1),
                 on_trace_ready=tensorboard_trace_handler(str(tmp_path), worker_name="w")) as prof:
        for _ in range(10):
            step(x, y)
            prof.step()
    recordings = sorted(glob.glob(os.path.join(str(tmp_path), "w_*_jax")))
    assert len(recordings) == 2  # repeat=2 cycles, each saved when its last active step ends
    for directory in recordings:
        assert glob.glob(os.path.join(directory, "**", "*.xplane.pb"), recursive=True)
        rows = _cell_rows(directory)
        assert int(rows["fc1"]["calls"]) == 2  # the two active steps


def test_schedule_actions_follow_mindspore():
    s = schedule(wait=1, warmup=1, active=2, repeat=1, skip_first=1)
    assert [s(i) for i in range(6)] == [ProfilerAction.NONE, ProfilerAction.NONE, ProfilerAction.WARM_UP,
                                        ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE, ProfilerAction.NONE]
    assert s.to_dict() == {"wait": 1, "active": 2, "warmup": 1, "repeat": 1, "skip_first": 1}
    assert schedule(wait=-1, active=0).to_dict()["active"] == 1  # reset to defaults, as MindSpore does
    with pytest.raises(ValueError, match="must be not less than 0"):
        s(-1)


def test_without_a_profiler_cell_calls_open_no_trace_event(monkeypatch):
    import jax

    def forbidden(*args, **kwargs):
        raise AssertionError("a trace event was opened with no profiler recording")

    monkeypatch.setattr(jax.profiler, "TraceAnnotation", forbidden)
    assert UPCALLS.cell_scope is None
    net = Net()
    out = net(ms.Tensor(np.ones((2, 16), np.float32)))
    assert out.shape == (2, 4)
    # The named scopes stay: compiled ops name their Cell whether a profiler runs or not.
    hlo = jax.jit(lambda v: net(v)).lower(np.ones((2, 16), np.float32)).as_text(debug_info=True)
    assert "fc1" in hlo and "fc2" in hlo


def test_op_names_give_cell_scopes_and_backward():
    assert cell_scopes("jit(_pure)/jit(main)/transpose(jvp(WithLossCell))/Net/fc1/dot_general") == \
        (["WithLossCell", "Net", "fc1"], True)
    assert cell_scopes("jit(f)/while/body/layers.0/add") == (["layers.0"], False)
    assert cell_scopes("jit(f)/reduce_sum") == ([], False)


def test_bad_arguments_name_the_argument(tmp_path):
    with pytest.raises(TypeError, match="'activities' must be ProfilerActivity"):
        ms.Profiler(output_path=str(tmp_path), activities=["CPU"])
    with pytest.raises(TypeError, match="'start_profile' must be a bool"):
        ms.Profiler(output_path=str(tmp_path), start_profile=1)
    prof = ms.Profiler(output_path=str(tmp_path), start_profile=False, activities=[ProfilerActivity.CPU])
    with pytest.raises(ValueError, match="'mode' must be one of"):
        prof.analyse(mode="later")
    with pytest.raises(FileNotFoundError, match=r"no JAX trace"):
        ms.Profiler.offline_analyse(str(tmp_path))


def test_module_exports_mindspore_names():
    import mindjax.profiler as p

    for name in ("Profiler", "profile", "schedule", "tensorboard_trace_handler", "ProfilerLevel",
                 "ProfilerActivity", "AicoreMetrics", "ExportType", "HostSystem", "_ExperimentalConfig"):
        assert hasattr(p, name), name
    assert ms.Profiler is p.Profiler
