"""Device counts that are not powers of two (6, 12) and device_num below the devices JAX sees.

On 6 devices the global mesh is ``d0: 2, d1: 3``; a device matrix such as
``(3, 2)`` fits no grouping of it and is laid on a reordered mesh over the same
devices. In-process tests use ``device_num=6`` (or 4) of the 8 virtual
devices; two subprocesses check what JAX sees when it has exactly 6 or 12.
"""
import json
import os
import subprocess
import sys

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

import mindjax as ms
from mindjax import nn, ops
from mindjax.parallel import mesh
from tests.parallel.helpers import LossRecorder, max_rel_err, train_lenet

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BOUND_S = 120   # each run takes seconds; the bound only guards a hang

X = np.random.default_rng(1).normal(size=(12, 12)).astype(np.float32)
W = np.random.default_rng(2).normal(size=(12, 12)).astype(np.float32)
V = np.random.default_rng(3).normal(size=(12, 6)).astype(np.float32)


def _semi_auto(**extra):
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, **extra)


def _blocks_by_rank(array):
    """{rank: (row start, column start)} of each device's shard (rank = position in the devices)."""
    ranks = {d.id: r for r, d in enumerate(mesh.get_devices())}
    return {ranks[s.device.id]: tuple(i.start or 0 for i in s.index) for s in array.addressable_shards}


def _matmul_3x2():
    """MatMul with strategy ((3, 1), (1, 2)): device matrix (3, 1, 2) over 6 ranks."""
    matmul = ops.MatMul().shard(((3, 1), (1, 2)))
    out = jax.jit(lambda a, b: matmul(a, b))(X, W)
    a_spec, b_spec = ms.parallel.strategy.input_specs("MatMul", None, ((3, 1), (1, 2)),
                                                      [X.shape, W.shape], {})
    a = jax.device_put(X, mesh.named_sharding(a_spec))
    b = jax.device_put(W, mesh.named_sharding(b_spec))
    return out, a, b


# -- device_num below the devices JAX sees ------------------------------------------------------

def test_device_num_4_of_8_trains_data_parallel_as_one_device():
    single = train_lenet(steps=2)
    losses, params, model = train_lenet(steps=2, device_num=4, parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                        gradients_mean=True)
    np.testing.assert_allclose(losses, single[0], rtol=1e-5)
    assert max_rel_err(single[1], params) < 1e-5
    weight = model.train_network.network.backbone_network.fc1.weight._value
    assert weight.sharding.mesh.size == 4


def test_matmul_strategy_3x2_on_6_of_8_devices_is_laid_row_major_over_ranks():
    _semi_auto(device_num=6)
    out, a, b = _matmul_3x2()
    np.testing.assert_allclose(np.asarray(out), X @ W, rtol=1e-5, atol=1e-5)
    # MindSpore: rank r has device-matrix coordinates (r // 2, 0, r % 2).
    assert _blocks_by_rank(a) == {r: (4 * (r // 2), 0) for r in range(6)}
    assert _blocks_by_rank(b) == {r: (0, 6 * (r % 2)) for r in range(6)}
    assert out.sharding.mesh.devices.size == 6


def test_one_program_mixes_device_matrices_of_different_meshes(mode):
    _semi_auto(device_num=6)
    rows3 = ops.MatMul().shard(((3, 1), (1, 2)))     # reordered mesh 3x2
    rows2 = ops.MatMul().shard(((2, 1), (1, 3)))     # the global mesh 2x3
    layout = ms.Layout((3, 2), ("dp", "mp"))
    add = ops.Add().shard((layout("dp", "mp"), layout("dp", "mp")))

    def fn(x, w, v):
        h = rows3(x, w)
        return add(rows2(h, v), rows2(x, v))

    out = ms.jit(fn)(X, W, V) if mode == ms.GRAPH_MODE else fn(X, W, V)
    np.testing.assert_allclose(np.asarray(out), (X @ W) @ V + X @ V, rtol=1e-4, atol=1e-4)


class _ShardedDense(nn.Cell):
    """x @ w with w split into 3 row blocks: a device matrix (3, 1) that 2x3 cannot hold."""

    def __init__(self):
        super().__init__()
        rng = np.random.default_rng(0)
        self.w = ms.Parameter(ms.Tensor(rng.normal(size=(12, 6)).astype(np.float32) * 0.1), name="w")
        self.matmul = ops.MatMul().shard(((2, 3), (3, 1)))

    def construct(self, x):
        return self.matmul(x, self.w)


def _fit_sharded_dense(**parallel):
    ms.reset_auto_parallel_context()
    if parallel:
        ms.set_auto_parallel_context(**parallel)
    net = _ShardedDense()
    if parallel:
        net.shard(in_strategy=((3, 1),), parameter_plan={"w": (3, 1)})
    optimizer = nn.Adam(net.trainable_params(), 0.01)
    model = ms.Model(net, nn.MSELoss(), optimizer)
    rng = np.random.default_rng(5)
    data = [(rng.normal(size=(6, 12)).astype(np.float32), rng.normal(size=(6, 6)).astype(np.float32))
            for _ in range(2)]
    recorder = LossRecorder()
    model.train(1, data, callbacks=[recorder], dataset_sink_mode=False)
    return recorder.losses, net, optimizer


def test_parameter_plan_on_a_reordered_mesh_trains_with_sharded_optimizer_state():
    single, _, _ = _fit_sharded_dense()
    losses, net, optimizer = _fit_sharded_dense(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=6,
                                                enable_parallel_optimizer=True, dataset_strategy=((3, 1), (3, 1)))
    np.testing.assert_allclose(losses, single, rtol=1e-5)
    weight = net.w._value.sharding
    assert dict(weight.mesh.shape) == {"d0_3x2": 3, "d1_3x2": 2} and weight.spec[0] == "d0_3x2"
    # ZeRO-1 splits the moment over the axis the weight leaves free: each device keeps 1/6 of it.
    moment = optimizer.moment1[0]._value
    assert moment.sharding.spec == P("d0_3x2", "d1_3x2")
    assert moment.addressable_shards[0].data.shape == (4, 3)


# -- exactly 6 and 12 devices in JAX -------------------------------------------------------------

def _worker(devices: int) -> dict:
    """Run the checks on ``devices`` devices (in a subprocess); return what the test compares."""
    assert jax.device_count() == devices
    report: dict = {"mesh": dict(mesh.get_mesh().shape)}
    _semi_auto()
    if devices == 6:
        out, a, b = _matmul_3x2()
        report["matmul_err"] = float(np.max(np.abs(np.asarray(out) - X @ W)))
        report["a_spec"], report["b_spec"] = list(a.sharding.spec), list(b.sharding.spec)
        report["a_blocks"] = sorted(_blocks_by_rank(a).items())
        report["b_blocks"] = sorted(_blocks_by_rank(b).items())
        layout = ms.Layout((3, 2), ("dp", "mp"))
        report["layout_spec"] = list(layout("dp", "mp").to_spec())
        try:
            ops.MatMul().shard(((4, 1), (1, 1)))(X, W)
        except ValueError as exc:
            report["bad_error"] = str(exc)
        single, single_params, _ = train_lenet(steps=2, batch=12)
        parallel, params, model = train_lenet(steps=2, batch=12, parallel_mode=ms.ParallelMode.DATA_PARALLEL,
                                              gradients_mean=True)
        net = model.train_network.network.backbone_network
        report["losses"] = [single, parallel]
        report["params_err"] = max_rel_err(single_params, params)
        report["weight_devices"] = int(net.fc1.weight._value.sharding.mesh.size)
    else:
        report["axes"] = mesh.device_matrix_axes((3, 4))
        matmul = ops.MatMul().shard(((3, 1), (1, 4)))
        out = jax.jit(lambda a, b: matmul(a, b))(X, W)
        report["matmul_err"] = float(np.max(np.abs(np.asarray(out) - X @ W)))
        x = jax.device_put(X, NamedSharding(out.sharding.mesh, P(*mesh.device_matrix_axes((3, 4)))))
        report["blocks"] = sorted(_blocks_by_rank(x).items())
    return report


def _run_worker(devices: int) -> dict:
    env = dict(os.environ, PYTHONPATH=ROOT, JAX_PLATFORMS="cpu", GLOG_v="3",
               XLA_FLAGS=f"--xla_force_host_platform_device_count={devices}")
    code = ("import json, sys; from tests.parallel.test_uneven_devices import _worker; "
            "print('REPORT ' + json.dumps(_worker(int(sys.argv[1]))))")
    done = subprocess.run([sys.executable, "-c", code, str(devices)], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=BOUND_S)
    lines = [line for line in done.stdout.splitlines() if line.startswith("REPORT ")]
    assert done.returncode == 0 and lines, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(lines[-1][len("REPORT "):])


def test_six_devices_strategy_3x2_data_parallel_and_bad_strategy():
    report = _run_worker(6)
    assert report["mesh"] == {"d0": 2, "d1": 3}
    assert report["matmul_err"] < 1e-5
    assert report["a_spec"] == ["d0_3x2", None] and report["b_spec"] == [None, "d1_3x2"]
    assert report["a_blocks"] == [[r, [4 * (r // 2), 0]] for r in range(6)]
    assert report["b_blocks"] == [[r, [0, 6 * (r % 2)]] for r in range(6)]
    assert report["layout_spec"] == ["d0_3x2", "d1_3x2"]
    assert "For 'MatMul'" in report["bad_error"] and "((4, 1), (1, 1))" in report["bad_error"]
    assert "must divide the device number 6" in report["bad_error"]
    single, parallel = report["losses"]
    np.testing.assert_allclose(parallel, single, rtol=1e-5)
    assert report["params_err"] < 1e-5 and report["weight_devices"] == 6


def test_twelve_devices_lay_a_3x4_device_matrix():
    report = _run_worker(12)
    assert report["mesh"] == {"d0": 2, "d1": 2, "d2": 3}
    assert report["axes"] == [["d0_3x2x2"], ["d1_3x2x2", "d2_3x2x2"]]
    assert report["matmul_err"] < 1e-5
    # (3, 4) row-major: rank r holds row block r // 4 and column block r % 4 of the 12x12 matrix.
    assert report["blocks"] == [[r, [4 * (r // 4), 3 * (r % 4)]] for r in range(12)]
