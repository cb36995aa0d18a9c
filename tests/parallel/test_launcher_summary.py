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
