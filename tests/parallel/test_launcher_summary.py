"""mindjax-run's one summary line names the first real failure, without starting processes."""
import signal

from mindjax.parallel import launcher

_ABORTED_BY_THE_SERVICE = """ready rank 1 pid 12533
F1202 07:58:56.221225   12778 client.h:80] Terminating process because the JAX distributed service detected \
fatal errors. absl::Status: UNAVAILABLE: The following tasks are unhealthy (stopped sending heartbeats):
2
The tasks have crashed. Check the task logs for an earlier error.

RPC: /xla.coordination.CoordinationService/PollForError
*** Check failure stack trace: ***
"""


class _Ended:
    def __init__(self, returncode):
        self.returncode = returncode


def _worker(rank, returncode, output, ended_at):
    worker = launcher._Worker(rank, _Ended(returncode), None)
    worker.ended_at = ended_at
    for line in output.splitlines():
        worker.tail.append(line)
        if line.strip():
            worker.last_line = line.strip()
    return worker


def test_a_rank_aborted_by_the_coordination_service_names_the_lost_rank_not_the_signal(tmp_path):
    aborted = _worker(1, -signal.SIGABRT, _ABORTED_BY_THE_SERVICE, ended_at=10.0)
    stopped = _worker(0, -signal.SIGTERM, "ready rank 0 pid 1\n", ended_at=11.0)
    _, summary = launcher._first_failure([stopped, aborted], str(tmp_path), stopped_at=10.5)
    assert summary == ("worker rank 2 was lost (it stopped sending heartbeats; the coordination service then ended "
                       "rank 1, which was killed by signal 6 (SIGABRT))")


def test_a_plain_abort_still_names_the_rank_and_signal(tmp_path):
    aborted = _worker(1, -signal.SIGABRT, "ready rank 1 pid 7\nboom\n", ended_at=10.0)
    _, summary = launcher._first_failure([aborted], str(tmp_path), stopped_at=10.5)
    assert summary == "worker rank 1 was killed by signal 6 (SIGABRT); its last output: 'boom'"


_SHUTDOWN_BARRIER_FAILED = """ready rank 1 pid 432
F1202 13:55:55.509100     432 client.h:80] Terminating process because the JAX distributed service detected \
fatal errors. absl::Status: INTERNAL: Failed to disconnect from coordination service with status: INTERNAL: \
Shutdown barrier has failed.
Barrier result: 'DEADLINE_EXCEEDED: Barrier timed out. Id: Shutdown::12707238258560970987::0. This usually happens \
because a task triggered the barrier too early or too slowly.
# of tasks that reached the barrier: 1/2.
The first task at the barrier: 1. Some timed out task names:
0
 [type.googleapis.com/tensorflow.BarrierError='\\n\\x1eShutdown::12707238258560970987']
*** Check failure stack trace: ***
"""


def test_a_rank_that_finished_first_names_the_rank_it_waited_for_at_shutdown_not_its_abort(tmp_path):
    finished = _worker(1, -signal.SIGABRT, _SHUTDOWN_BARRIER_FAILED, ended_at=10.0)
    stopped = _worker(0, -signal.SIGTERM, "ready rank 0 pid 1\n", ended_at=11.0)
    _, summary = launcher._first_failure([stopped, finished], str(tmp_path), stopped_at=10.5)
    assert summary == ("worker rank 0 did not finish: rank 1 ended its script normally and waited for rank 0 at "
                       "jax.distributed's shutdown barrier until it timed out (the ranks ran different numbers of "
                       "steps, or rank 0 is stuck)")


_JOIN_TIMED_OUT = """F1202 13:59:16.486234    2782 client.h:80] Terminating process because the JAX distributed \
service detected fatal errors. absl::Status: DEADLINE_EXCEEDED: Deadline Exceeded

RPC: /xla.coordination.CoordinationService/RegisterTask
*** Check failure stack trace: ***
"""


def test_a_local_rank_stuck_before_init_is_named_as_never_joining(tmp_path):
    waited = _worker(0, -signal.SIGABRT, _JOIN_TIMED_OUT, ended_at=10.0)
    stuck = _worker(1, -signal.SIGTERM, "", ended_at=11.0)
    _, summary = launcher._first_failure([waited, stuck], str(tmp_path), stopped_at=10.5)
    assert summary == ("worker rank 1 never joined the job: rank 0 timed out in jax.distributed.initialize waiting "
                       "for it (it is stuck before communication.init)")


def test_a_join_timeout_with_every_local_rank_waiting_blames_the_job_not_a_signal(tmp_path):
    workers = [_worker(r, -signal.SIGABRT, _JOIN_TIMED_OUT, ended_at=10.0 + r) for r in (0, 1)]
    _, summary = launcher._first_failure(workers, str(tmp_path), stopped_at=12.0)
    assert summary.startswith("the job did not start: rank 0 timed out in jax.distributed.initialize waiting for "
                              "the other ranks to join")


def test_the_same_error_raised_on_every_rank_names_them_all(tmp_path):
    import json
    reason = "raised IndexValueError: For 'SoftmaxCrossEntropyWithLogits', the value of 'labels' must be in [0, 10)"
    for rank, at in ((0, 5.0), (1, 5.001)):
        (tmp_path / f"worker_{rank}.report.json").write_text(
            json.dumps({"rank": rank, "culprit": rank, "reason": reason, "time": at}))
    workers = [_worker(r, 1, "", ended_at=6.0) for r in (0, 1)]
    _, summary = launcher._first_failure(workers, str(tmp_path), stopped_at=6.5)
    assert summary == f"worker rank 0 {reason} (rank 1 raised the same error)"


_LEADER_GONE = b"""ready rank 1 pid 29592
E1202 13:52:35.401408   29907 coordination_service_agent.cc:289] Polled an error from coordination service.
F1202 13:52:35.401450   29907 client.h:80] Terminating process because the JAX distributed service detected fatal \
errors. absl::Status: UNAVAILABLE: Failed to send RPC to coordination service.
Additional GRPC error information from remote target coordination_service while calling \
/xla.coordination.CoordinationService/PollForError:
:UNKNOWN:Error received from peer  {grpc_status:14, grpc_message:"Socket closed"}
*** Check failure stack trace: ***
    @     0x7fbeded40634  absl::lts_20260107::log_internal::LogMessage::SendToLog()
"""


def test_the_console_shows_the_workers_own_lines_and_none_of_the_grpc_error_details(tmp_path, capfd):
    import io

    class _Proc:
        stdout = io.BytesIO(_LEADER_GONE)

    log = io.BytesIO()
    worker = launcher._Worker(1, _Proc(), log)
    launcher._Job(str(tmp_path)).pump(worker)
    shown = capfd.readouterr().out
    assert shown == "[rank 1] ready rank 1 pid 29592\n", shown
    assert log.getvalue() == _LEADER_GONE          # the log file keeps everything
