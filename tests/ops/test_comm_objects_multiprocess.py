"""ops' object collectives between two real processes (mindjax-run on 127.0.0.1, jax.distributed)."""
import json
import os
import socket
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WORKER = os.path.join(ROOT, "tests", "ops", "mp_objects_worker.py")
BOUND_S = 90  # a hang guard on 2 shared cores, not a measure


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_object_collectives_and_point_to_point_between_two_processes(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT, JAX_PLATFORMS="cpu")
    env.pop("XLA_FLAGS", None)
    cmd = [sys.executable, "-m", "mindjax.parallel.launcher", "--worker_num", "2", "--local_worker_num", "2",
           "--node_rank", "0", "--master_addr", "127.0.0.1", "--master_port", str(_free_port()),
           "--log_dir", str(tmp_path / "logs"), WORKER, str(tmp_path)]
    job = subprocess.run(cmd, env=env, cwd=ROOT, capture_output=True, text=True, timeout=BOUND_S)
    assert job.returncode == 0, job.stdout[-2000:] + job.stderr[-3000:]
    got = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(2)]
    everyone = [{"rank": r, "payload": "x" * (r * 50)} for r in range(2)]
    for r in range(2):
        assert got[r]["all_gather"] == everyone
        assert got[r]["broadcast"] == ["from 1", 1]
        assert got[r]["scatter"] == f"for {r}"
    assert got[0]["gather"] == [[0, 0], [1, 1]] and got[1]["gather"] is None
    assert got[1]["p2p"] == [[{"n": 1}, "first"], ["second"]]
