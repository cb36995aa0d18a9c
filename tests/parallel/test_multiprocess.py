"""Multi-process: mindjax-run, communication.init over jax.distributed (gloo), lost workers."""
import os
import re
import signal
import socket
import subprocess
import sys

import numpy as np

from tests.parallel.helpers import max_rel_err, train_lenet

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKER = os.path.join(ROOT, "tests", "parallel", "mp_worker.py")
BOUND_S = 90   # every run here stops by itself well before this; the bound only guards a hang


def _env():
    env = dict(os.environ, PYTHONPATH=ROOT, JAX_PLATFORMS="cpu")
    env.pop("XLA_FLAGS", None)      # one CPU device per worker process
    return env


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _launcher(*args):
    return [sys.executable, "-m", "mindjax.parallel.launcher", "--worker_num", "2", "--local_worker_num", "2",
            "--master_addr", "127.0.0.1", "--master_port", str(_free_port()), "--heartbeat_timeout", "5", *args]


def _kill_rank1_when_ready(stream):
    seen = []
    for line in stream:
        seen.append(line)
        found = re.search(r"ready rank 1 pid (\d+)", line)
        if found:
            os.kill(int(found.group(1)), signal.SIGKILL)
            return seen
    raise AssertionError("rank 1 never became ready:\n" + "".join(seen))


def test_two_process_data_parallel_matches_single_process_on_both_ranks(tmp_path):
    run = subprocess.run(_launcher("--log_dir", str(tmp_path / "logs"), WORKER, "train", str(tmp_path)),
                         env=_env(), cwd=ROOT, capture_output=True, text=True, timeout=BOUND_S)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "[rank 0] done rank 0 of 2" in run.stdout and "[rank 1] done rank 1 of 2" in run.stdout
    assert "done rank 1 of 2" in (tmp_path / "logs" / "worker_1.log").read_text()
    ranks = [dict(np.load(tmp_path / f"rank{r}.npz", allow_pickle=False)) for r in (0, 1)]
    for name in ranks[0]:
        np.testing.assert_array_equal(ranks[0][name], ranks[1][name])
    _, single, _ = train_lenet()
    assert max_rel_err(single, ranks[0]) < 1e-5


def test_launcher_stops_the_other_workers_naming_the_lost_rank():
    proc = subprocess.Popen(_launcher(WORKER, "loop"), env=_env(), cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        _kill_rank1_when_ready(proc.stdout)
        rest, _ = proc.communicate(timeout=BOUND_S)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 1
    assert "mindjax-run: worker rank 1 was killed by signal 9; stopping the other workers" in rest


def test_without_launcher_the_survivor_stops_on_the_lost_heartbeat_naming_the_task():
    port = _free_port()
    procs = []
    for rank in (0, 1):
        env = dict(_env(), MINDJAX_COORDINATOR=f"127.0.0.1:{port}", MINDJAX_WORLD_SIZE="2",
                   MINDJAX_RANK=str(rank), MINDJAX_HEARTBEAT_TIMEOUT="5")
        procs.append(subprocess.Popen([sys.executable, WORKER, "loop"], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
    try:
        _kill_rank1_when_ready(procs[1].stdout)
        out, _ = procs[0].communicate(timeout=BOUND_S)
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
            p.communicate()
    assert procs[0].returncode != 0
    assert re.search(r"tasks are unhealthy \(stopped sending heartbeats\):\s*\S*1", out), out[-2000:]
