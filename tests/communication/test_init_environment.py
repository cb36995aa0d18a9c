"""communication.init reads MindJAX's, MindSpore msrun's and SLURM's names, and checks rank 0's port first.

Each case stops in init before jax.distributed starts (a taken port, a bad
value), so the test process stays a single-process job.
"""
import socket

import pytest

from mindjax import communication as comm

_NAMES = ["MINDJAX_COORDINATOR", "MINDJAX_WORLD_SIZE", "MINDJAX_RANK", "MS_SCHED_HOST", "MS_SCHED_PORT",
          "MS_WORKER_NUM", "MS_NODE_ID", "RANK_ID", "RANK_SIZE", "SLURM_NTASKS", "SLURM_PROCID",
          "JOB_COMPLETION_INDEX", "MS_ROLE",
          "MINDJAX_COLLECTIVE_TIMEOUT", "HCCL_EXEC_TIMEOUT", "MINDJAX_HEARTBEAT_TIMEOUT"]


@pytest.fixture
def env(monkeypatch):
    for name in _NAMES:
        monkeypatch.delenv(name, raising=False)
    if comm.is_initialized():   # an earlier test's single-process init
        comm.release()
    yield monkeypatch
    assert not comm.is_initialized()


@pytest.fixture
def taken_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        yield s.getsockname()[1]


@pytest.mark.parametrize("names", [
    {"MINDJAX_COORDINATOR": "127.0.0.1:{port}", "MINDJAX_WORLD_SIZE": "2", "MINDJAX_RANK": "0"},
    {"MS_SCHED_HOST": "127.0.0.1", "MS_SCHED_PORT": "{port}", "MS_WORKER_NUM": "2", "MS_NODE_ID": "0"},
    {"MS_SCHED_HOST": "127.0.0.1", "MS_SCHED_PORT": "{port}", "RANK_SIZE": "2", "RANK_ID": "0"},
    {"MINDJAX_COORDINATOR": "127.0.0.1:{port}", "SLURM_NTASKS": "4", "SLURM_PROCID": "0"},
], ids=["mindjax", "msrun", "rank_size", "slurm"])
def test_rank_zero_refuses_a_taken_coordinator_port_naming_it(env, taken_port, names):
    for name, value in names.items():
        env.setenv(name, value.format(port=taken_port))
    with pytest.raises(RuntimeError, match=rf"rank 0 can not host the coordinator on port {taken_port} .*in use"):
        comm.init()


def test_an_incomplete_job_environment_names_what_is_missing(env):
    env.setenv("MS_WORKER_NUM", "2")
    with pytest.raises(ValueError, match=r"MINDJAX_COORDINATOR.*MS_SCHED_HOST/MS_SCHED_PORT.*got coordinator None, "
                                         r"processes 2, rank None"):
        comm.init()


def test_a_rank_outside_the_job_is_an_error(env):
    env.setenv("MINDJAX_COORDINATOR", "127.0.0.1:1234")
    env.setenv("MINDJAX_WORLD_SIZE", "2")
    env.setenv("MINDJAX_RANK", "2")
    with pytest.raises(ValueError, match=r"the rank must be in \[0, 2\), got 2"):
        comm.init()


@pytest.mark.parametrize("name", ["MINDJAX_COLLECTIVE_TIMEOUT", "HCCL_EXEC_TIMEOUT", "MINDJAX_HEARTBEAT_TIMEOUT"])
def test_timeouts_must_be_positive_seconds(env, name):
    env.setenv(name, "-3")
    with pytest.raises(ValueError, match=rf"environment variable {name} must be a positive number of seconds"):
        comm.init()


def test_msrun_scheduler_process_exits_at_init(env):
    env.setenv("MS_ROLE", "MS_SCHED")
    with pytest.raises(SystemExit) as stop:
        comm.init()
    assert stop.value.code == 0
