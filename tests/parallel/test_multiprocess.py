"""Multi-process: mindjax-run, communication.init over jax.distributed (gloo), failures and stuck ranks.

Every run here is real processes on 127.0.0.1 that stop by themselves; BOUND_S
only guards against a hang. Times are measured from the fault (the kill, the
raise, the start of the stall) to the end of the job.
"""
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

from tests.parallel.helpers import max_rel_err, train_lenet

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKER = os.path.join(ROOT, "tests", "parallel", "mp_worker.py")
BOUND_S = 55
TRAIN_BOUND_S = 120  # the 4-process training run (6 processes on 2 cores): a hang guard, not a measure
STOP_S = 10   # after a failure, every worker of the job ends within this


def _env():
    env = dict(os.environ, PYTHONPATH=ROOT, JAX_PLATFORMS="cpu")
    env.pop("XLA_FLAGS", None)      # one CPU device per worker process
    return env


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _launcher(*args, workers=2, local=2, node=0, port=None, timeout=10):
    return [sys.executable, "-m", "mindjax.parallel.launcher", "--worker_num", str(workers),
            "--local_worker_num", str(local), "--node_rank", str(node), "--master_addr", "127.0.0.1",
            "--master_port", str(port or _free_port()), "--heartbeat_timeout", "5",
            "--collective_timeout", str(timeout), *args]


def _start(cmd, **env):
    return subprocess.Popen(cmd, env=dict(_env(), **env), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _wait_for(proc, pattern):
    """Read ``proc``'s stdout until a line matches; return the match and the lines read."""
    seen = []
    for line in proc.stdout:
        seen.append(line)
        found = re.search(pattern, line)
        if found:
            return found, seen
    raise AssertionError(f"never saw {pattern!r}:\n" + "".join(seen) + proc.stderr.read()[-3000:])


def _finish(proc, deadline_s=BOUND_S):
    """Wait for ``proc`` (killing it at the deadline); return the rest of its stdout and its stderr.

    The file objects are read (not the raw pipes, as ``communicate`` does), so
    lines :func:`_wait_for` already buffered are not lost.
    """
    got = {}
    readers = [threading.Thread(target=lambda k=k, f=f: got.__setitem__(k, f.read()), daemon=True)
               for k, f in (("out", proc.stdout), ("err", proc.stderr))]
    for reader in readers:
        reader.start()
    try:
        proc.wait(timeout=deadline_s)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    for reader in readers:
        reader.join(timeout=10)
    return got.get("out", ""), got.get("err", "")


def _summary(err):
    lines = [line for line in err.splitlines() if line.startswith("mindjax-run:")]
    assert len(lines) == 1, err[-3000:]
    return lines[0]


def _quiet_console(out, err):
    for noise in ("Check failure stack trace", "@     0x", "coordination_service", "mindjax: rank"):
        assert noise not in out + err, (noise, (out + err)[-3000:])


def _no_worker_left(log_dir):
    """The launcher is gone; so must be every worker it started (their logs name their pids)."""
    for name in os.listdir(log_dir):
        found = re.search(r"ready rank \d+ pid (\d+)", open(os.path.join(log_dir, name)).read()) \
            if name.endswith(".log") else None
        if found:
            with pytest.raises(ProcessLookupError):
                os.kill(int(found.group(1)), 0)


def test_two_nodes_of_two_workers_train_as_one_process(tmp_path):
    port = _free_port()
    nodes = [_start(_launcher("--log_dir", str(tmp_path / f"logs{n}"), WORKER, "train", str(tmp_path),
                              workers=4, local=2, node=n, port=port)) for n in (0, 1)]
    outs = [_finish(node, TRAIN_BOUND_S) for node in nodes]
    for node, (out, err) in zip(nodes, outs):
        assert node.returncode == 0, out[-2000:] + err[-2000:]
    assert "[rank 0] done rank 0 of 4" in outs[0][0] and "[rank 3] done rank 3 of 4" in outs[1][0]
    assert "done rank 2 of 4" in (tmp_path / "logs1" / "worker_2.log").read_text()
    losses, single, _ = train_lenet()           # one process, the same global batch of 16
    for rank in range(4):
        got = dict(np.load(tmp_path / f"rank{rank}.npz", allow_pickle=False))
        np.testing.assert_allclose(got.pop("losses"), losses, rtol=0, atol=1e-5)
        assert max_rel_err(single, got) < 1e-5


def test_parameter_broadcast_gives_every_process_rank_0s_weights(tmp_path):
    job = _start(_launcher("--log_dir", str(tmp_path / "logs"), WORKER, "broadcast", str(tmp_path)))
    out, err = _finish(job)
    assert job.returncode == 0, out[-2000:] + err[-2000:]
    import mindjax as ms
    from mindjax import nn

    ms.set_seed(0)
    want = {p.name: p.asnumpy() for p in nn.Dense(3, 4).get_parameters()}
    for rank in range(2):
        got = dict(np.load(tmp_path / f"rank{rank}.npz", allow_pickle=False))
        assert sorted(got) == sorted(want)
        for name in want:
            np.testing.assert_array_equal(got[name], want[name])


def test_killing_one_node_ends_the_other_naming_a_lost_rank(tmp_path):
    port = _free_port()
    nodes = [_start(_launcher("--log_dir", str(tmp_path / f"logs{n}"), WORKER, "loop", workers=4, local=2,
                              node=n, port=port)) for n in (0, 1)]
    try:
        _wait_for(nodes[1], r"ready rank [23]")
        nodes[1].kill()                         # the whole node: its launcher takes its workers with it
        killed = time.monotonic()
        out, err = _finish(nodes[0])
    finally:
        for node in nodes:
            if node.poll() is None:
                os.killpg(node.pid, signal.SIGKILL)
    assert time.monotonic() - killed < STOP_S, err[-2000:]
    assert nodes[0].returncode == 1
    assert re.search(r"worker rank [23] was lost", _summary(err)), err[-2000:]
    _no_worker_left(tmp_path / "logs1")


def test_launcher_names_the_rank_that_raised_and_stops_quietly(tmp_path):
    logs = tmp_path / "logs"
    proc = _start(_launcher("--log_dir", str(logs), WORKER, "raise"))
    _wait_for(proc, r"ready rank 1")
    raised = time.monotonic()
    out, err = _finish(proc)
    assert time.monotonic() - raised < STOP_S
    assert proc.returncode == 1
    summary = _summary(err)
    assert summary.startswith("mindjax-run: worker rank 1 raised RuntimeError: rank 1 fails on purpose;"), summary
    assert f"full logs in {logs}" in summary
    assert "RuntimeError: rank 1 fails on purpose" in out        # the user's own traceback stays visible
    _quiet_console(out, err)
    assert "rank 1 stops: rank 1 raised RuntimeError" in (logs / "worker_1.log").read_text()


def test_a_stuck_rank_ends_the_job_after_the_collective_timeout_naming_it(tmp_path):
    proc = _start(_launcher("--log_dir", str(tmp_path), WORKER, "stuck", timeout=5))
    _wait_for(proc, r"ready rank 1")
    stuck = time.monotonic()
    out, err = _finish(proc)
    took = time.monotonic() - stuck
    assert 4 <= took < 5 + STOP_S, took
    assert proc.returncode == 1
    summary = _summary(err)
    assert re.search(r"worker rank 1 is stuck: rank 0 waited 5 s for it in compiled step \d+ "
                     r"\(collective timeout\)", summary), summary
    assert "mp_worker.py:" in summary          # where rank 1 was
    _quiet_console(out, err)


def test_a_stuck_coordinator_rank_is_named_as_the_others_are(tmp_path):
    # Rank 0 hosts the coordination service; the waiting rank 1 runs its small step inline, in the dispatch call.
    proc = _start(_launcher("--log_dir", str(tmp_path), WORKER, "stuck", timeout=5), MP_FAILING_RANK="0")
    _wait_for(proc, r"ready rank 0")
    stuck = time.monotonic()
    out, err = _finish(proc)
    assert time.monotonic() - stuck < 5 + STOP_S
    assert proc.returncode == 1
    assert re.search(r"worker rank 0 is stuck: rank 1 waited 5 s for it in compiled step \d+", _summary(err)), err


def test_a_rank_ending_with_sys_exit_code_is_named_with_its_code_at_once(tmp_path):
    proc = _start(_launcher("--log_dir", str(tmp_path), WORKER, "exit"))
    _wait_for(proc, r"ready rank 1")
    exited = time.monotonic()
    out, err = _finish(proc)
    assert time.monotonic() - exited < STOP_S
    assert proc.returncode == 1
    assert _summary(err).startswith("mindjax-run: worker rank 1 exited with code 3 (sys.exit);"), err
    _quiet_console(out, err)


def test_launcher_stops_the_other_workers_naming_the_killed_rank(tmp_path):
    proc = _start(_launcher("--log_dir", str(tmp_path), WORKER, "loop"))
    try:
        found, _ = _wait_for(proc, r"ready rank 1 pid (\d+)")
        os.kill(int(found.group(1)), signal.SIGKILL)
        killed = time.monotonic()
        out, err = _finish(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert time.monotonic() - killed < STOP_S
    assert proc.returncode == 1
    assert re.match(r"mindjax-run: worker rank 1 (was killed by signal 9 \(SIGKILL\)|was lost)", _summary(err)), err
    _no_worker_left(tmp_path)


def test_busy_master_port_is_refused_before_any_worker_starts(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(_launcher("--log_dir", str(tmp_path), WORKER, "loop", port=port), env=_env(),
                              cwd=ROOT, capture_output=True, text=True, timeout=BOUND_S)
    assert done.returncode == 2
    assert f"the master port {port} is already in use" in done.stderr and "--master_port" in done.stderr
    assert not os.listdir(tmp_path)


def test_without_launcher_the_survivor_stops_on_the_lost_heartbeat_naming_the_task():
    port = _free_port()
    procs = []
    for rank in (0, 1):
        env = dict(_env(), MINDJAX_COORDINATOR=f"127.0.0.1:{port}", MINDJAX_WORLD_SIZE="2",
                   MINDJAX_RANK=str(rank), MINDJAX_HEARTBEAT_TIMEOUT="5")
        procs.append(subprocess.Popen([sys.executable, WORKER, "loop"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
    try:
        found, _ = _wait_for(procs[1], r"ready rank 1 pid (\d+)")
        os.kill(int(found.group(1)), signal.SIGKILL)
        out, _ = procs[0].communicate(timeout=BOUND_S)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.communicate()
    assert procs[0].returncode != 0
    assert re.search(r"rank 1 was lost|tasks are unhealthy \(stopped sending heartbeats\):\s*\S*1", out), out[-2000:]
