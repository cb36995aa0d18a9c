"""``mindjax-run``: start the workers of a multi-process job (in the spirit of MindSpore's ``msrun``).

::

    mindjax-run --worker_num 4 --local_worker_num 2 [--node_rank 0] [--master_addr 127.0.0.1]
                [--master_port 8118] [--log_dir DIR] [--heartbeat_timeout 30]
                [--collective_timeout 45] train.py --lr 0.1

Each worker runs ``python script args`` with the environment that
:func:`mindjax.communication.init` reads (``MINDJAX_COORDINATOR``,
``MINDJAX_WORLD_SIZE``, ``MINDJAX_RANK``, ``MINDJAX_LOCAL_RANK`` ...). The
global rank of local worker ``i`` is ``node_rank * local_worker_num + i``;
start one launcher per node, with the same ``--worker_num``,
``--master_addr`` and ``--master_port``.

- Before anything starts, node 0 checks that the master port is free.
- Worker output passes through with a ``[rank N]`` prefix; everything,
  including the C++ logs of the coordination service, goes to
  ``log_dir/worker_N.log`` (by default a fresh folder under the temporary
  directory). The console gets the Python output only.
- When a worker fails, the launcher stops the others on its node (SIGTERM,
  SIGKILL after 2 s), and prints one line naming the first failure (the rank,
  and what it raised, the signal or the exit code, or the rank it was stuck
  waiting for) and the log folder. Workers on the other nodes stop through
  the job's watchdog (see ``mindjax.communication``). A launcher that is
  killed takes its workers with it.

Exit status: 0 when every worker exits with 0; 1 when the job failed; 2 for a
bad command line or a busy master port.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from typing import IO, Any, Sequence

__all__ = ["main", "launch"]

_GRACE_S = 2.0  # JAX catches SIGTERM (preemption notice), so a worker may need SIGKILL
# The C++ side's log lines (absl/glog: "E1202 00:30:25.155195   19479 file.cc:289] ..."), their
# stack traces and the continuation lines of their messages: kept in the log files only.
_NATIVE_LOG = re.compile(r"^[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+\s+\S+:\d+\]")
_STOP_LINE = re.compile(r"^mindjax: rank \d+ stops: ")
_NATIVE_TRACE = re.compile(r"^(\[Gloo\] |\*\*\* (Check failure stack trace|SIGABRT|SIGSEGV|Aborted)|\s+@\s+0x[0-9a-f]+|"
                           r"PC: @|\s*\[type\.googleapis\.com/|RPC: /xla\.|Additional GRPC error information|"
                           r":UNKNOWN:|\s*\{grpc_status)")


# How a worker runs the script: as ``python script args`` would (``__main__``, ``sys.argv``, the script's
# folder first on ``sys.path``), importing nothing before it, and telling the job's watchdog when the
# script ends with ``sys.exit(code)``: a non-zero code then stops the job naming the code at once.
_WORKER_MAIN = (
    "import os, runpy, sys\n"
    "sys.argv = sys.argv[1:]\n"
    "sys.path[0] = os.path.dirname(os.path.abspath(sys.argv[0]))\n"
    "try:\n"
    "    runpy.run_path(sys.argv[0], run_name='__main__')\n"
    "except SystemExit as exc:\n"
    "    watchdog = sys.modules.get('mindjax.communication._watchdog')\n"
    "    if watchdog is not None:\n"
    "        watchdog.program_exited(exc.code)\n"
    "    raise\n"
    "except BaseException as exc:\n"  # the traceback starts at the script, not in runpy
    "    tb = exc.__traceback__\n"
    "    while tb is not None and tb.tb_frame.f_code.co_filename != sys.argv[0]:\n"
    "        tb = tb.tb_next\n"
    "    raise exc.with_traceback(tb or exc.__traceback__)\n"
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mindjax-run", description="Start the workers of a MindJAX job.")
    p.add_argument("--worker_num", type=int, required=True, help="processes in the whole job")
    p.add_argument("--local_worker_num", type=int, default=None,
                   help="processes on this node (default: worker_num)")
    p.add_argument("--master_addr", default="127.0.0.1", help="host of rank 0 (the coordinator)")
    p.add_argument("--master_port", type=int, default=8118, help="coordinator port")
    p.add_argument("--node_rank", type=int, default=0, help="this node's index")
    p.add_argument("--log_dir", default=None,
                   help="where each worker's full output goes (default: a new folder in the temp directory)")
    p.add_argument("--heartbeat_timeout", type=int, default=30,
                   help="seconds without a heartbeat before a worker counts as lost")
    p.add_argument("--collective_timeout", type=float, default=45.0,
                   help="seconds a rank may wait in a compiled program (a collective) for the others before "
                        "the job stops, naming the ranks it waited for")
    p.add_argument("script", help="the training script")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments of the script")
    return p


def _default_log_dir() -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return os.path.join(tempfile.gettempdir(), "mindjax-run", f"{stamp}-{os.getpid()}")


def _die_with_parent() -> None:
    """In the child before exec: get SIGKILL when the launcher dies (Linux), so no worker outlives it."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class _Worker:
    """One local worker: its process, its output pump and when and how it ended."""

    def __init__(self, rank: int, proc: subprocess.Popen, log: IO[bytes]) -> None:
        self.rank, self.proc, self.log = rank, proc, log
        self.ended_at: float | None = None  # time.time() when it exited
        self.last_line = ""
        self.stop_line = ""
        self.tail: collections.deque = collections.deque(maxlen=200)  # its last lines, native logs included
        self.threads: list[threading.Thread] = []


class _Job:
    def __init__(self, log_dir: str) -> None:
        self.log_dir = log_dir
        self.lock = threading.Lock()
        self.quiet = False  # set when the launcher itself is stopped: the rest goes to the log files only
        self.ended = threading.Event()

    def pump(self, worker: _Worker) -> None:
        prefix = f"[rank {worker.rank}] ".encode()
        native = False
        for line in iter(worker.proc.stdout.readline, b""):
            worker.log.write(line)
            worker.log.flush()
            text = line.decode(errors="replace").rstrip()
            worker.tail.append(text)
            if _NATIVE_LOG.match(text):
                native = True
            elif text and not text[0].isspace() and not _NATIVE_TRACE.match(text):
                native = False
            if native or _NATIVE_TRACE.match(text):
                continue
            if _STOP_LINE.match(text):
                worker.stop_line = text  # the watchdog's stop line: the rest of this worker is for its log file
                continue
            if text.strip():
                worker.last_line = text.strip()
            with self.lock:
                if not (self.quiet or worker.stop_line):
                    sys.stdout.buffer.write(prefix + line)
                    sys.stdout.buffer.flush()
        worker.proc.stdout.close()

    def wait(self, worker: _Worker) -> None:
        worker.proc.wait()
        worker.ended_at = time.time()
        self.ended.set()


def _stop(workers: Sequence[_Worker]) -> None:
    for w in workers:
        if w.proc.poll() is None:
            try:
                os.killpg(w.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + _GRACE_S
    for w in workers:
        try:
            w.proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(w.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            w.proc.wait()
    for w in workers:
        try:  # a worker's own children (data loaders) share its process group
            os.killpg(w.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _exit_reason(code: int) -> str:
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "an unknown signal"
        return f"was killed by signal {-code} ({name})"
    return f"exited with code {code}"


_UNHEALTHY = re.compile(r"tasks are unhealthy \(stopped sending heartbeats\):\s*\n((?:.*\n?)*?)(?:The tasks have|$)")


def _unhealthy_ranks(worker: _Worker) -> list[int]:
    """The ranks the coordination service said stopped sending heartbeats, when it aborted ``worker``.

    XLA's client ends a process with SIGABRT when another task is lost; the
    lost task, not the aborted one, is then the failure to name.
    """
    found = _UNHEALTHY.search("\n".join(worker.tail))
    if found is None:
        return []
    ranks = re.findall(r"task:(\d+)", found.group(1)) or re.findall(r"\b(\d+)\b", found.group(1))
    return sorted({int(r) for r in ranks} - {worker.rank})


_SHUTDOWN_BARRIER = re.compile(r"Shutdown barrier has failed(?:.*\n)*?.*Some timed out task names:\s*\n"
                               r"((?:\s*\S+\n?)*)")


def _shutdown_barrier_waited_for(worker: _Worker) -> list[int] | None:
    """The ranks ``worker`` waited for in ``jax.distributed``'s shutdown barrier when that barrier failed.

    A rank whose script ended normally waits there for every other rank; when
    another rank is still training (the ranks ran different numbers of steps,
    or it is stuck), the barrier times out and XLA ends the finished rank with
    SIGABRT. That rank did not fail: the ones it waited for are the story.
    Returns None when ``worker`` did not die in that barrier.
    """
    found = _SHUTDOWN_BARRIER.search("\n".join(worker.tail))
    if found is None:
        return None
    ranks = re.findall(r"task:(\d+)", found.group(1)) or re.findall(r"^\s*(\d+)\s*$", found.group(1), re.M)
    return sorted({int(r) for r in ranks} - {worker.rank})


_JOIN_TIMEOUT = re.compile(r"DEADLINE_EXCEEDED(?:.*\n){0,4}.*CoordinationService/RegisterTask")


def _read_report(log_dir: str, rank: int) -> dict[str, Any] | None:
    try:
        with open(os.path.join(log_dir, f"worker_{rank}.report.json")) as f:
            report = json.load(f)
    except (OSError, ValueError):
        return None
    return report if isinstance(report, dict) else None


def _first_failure(workers: Sequence[_Worker], log_dir: str, stopped_at: float) -> tuple[float, str]:
    """``(time, summary)`` of the earliest failure: a worker's report, else its exit before the stop.

    When the rank blamed is local and wrote its own report, its words are used
    (a stuck rank's report says where it was).
    """
    events: list[tuple[float, int, str]] = []
    own: dict[int, str] = {}
    for w in workers:
        report = _read_report(log_dir, w.rank)
        if report is not None:
            culprit = int(report.get("culprit", w.rank))
            reason = str(report.get("reason", "failed"))
            if culprit == w.rank:
                own[w.rank] = reason
            elif culprit >= 0 and "reported by rank" not in reason:
                reason += f" (reported by rank {w.rank})"
            elif culprit < 0:
                reason += f" (reported by rank {w.rank})"
            events.append((float(report.get("time", 0.0)), culprit, reason))
        elif w.proc.returncode not in (None, 0) and w.ended_at is not None and w.ended_at <= stopped_at:
            lost = _unhealthy_ranks(w)
            if lost:
                also = "" if len(lost) == 1 else f", as were ranks {', '.join(map(str, lost[1:]))}"
                events.append((w.ended_at, lost[0], f"was lost{also} (it stopped sending heartbeats; the "
                                                    f"coordination service then ended rank {w.rank}, which "
                                                    f"{_exit_reason(w.proc.returncode)})"))
                continue
            if _JOIN_TIMEOUT.search("\n".join(w.tail)):
                # Ranks that reached jax.distributed.initialize time out there together; a local rank that
                # was still running without that timeout never got there.
                absent = [o.rank for o in workers if o is not w and not _JOIN_TIMEOUT.search("\n".join(o.tail))
                          and (o.ended_at is None or o.ended_at > stopped_at)]
                if absent:
                    events.append((w.ended_at, absent[0], f"never joined the job: rank {w.rank} timed out in "
                                                          f"jax.distributed.initialize waiting for it (it is "
                                                          f"stuck before communication.init)"))
                else:
                    events.append((w.ended_at, -1, f"did not start: rank {w.rank} timed out in "
                                                   f"jax.distributed.initialize waiting for the other ranks to "
                                                   f"join (a rank on another node never started, or is stuck "
                                                   f"before communication.init)"))
                continue
            waited = _shutdown_barrier_waited_for(w)
            if waited:
                them = ", ".join(map(str, waited))
                events.append((w.ended_at, waited[0], f"did not finish: rank {w.rank} ended its script normally and "
                                                      f"waited for rank {them} at jax.distributed's shutdown "
                                                      f"barrier until it timed out (the ranks ran different "
                                                      f"numbers of steps, or rank {waited[0]} is stuck)"))
                continue
            last = f"; its last output: {w.last_line[:200]!r}" if w.last_line else ""
            events.append((w.ended_at, w.rank, f"{_exit_reason(w.proc.returncode)}{last}"))
    if not events:
        w = next(w for w in workers if w.proc.returncode not in (None, 0))
        return 0.0, f"worker rank {w.rank} {_exit_reason(w.proc.returncode)}"
    at, culprit, reason = min(events)
    if culprit < 0:
        return at, f"the job {reason}"
    # In data parallel every rank checks the global batch: each raises the same error, and the first to report
    # it is only the fastest. Name them all.
    same = sorted({c for _, c, r in events if r == reason and c != culprit and c >= 0})
    if same:
        return at, (f"worker rank {culprit} {own.get(culprit, reason)} (rank{'s' if len(same) > 1 else ''} "
                    f"{', '.join(map(str, same))} raised the same error)")
    return at, f"worker rank {culprit} {own.get(culprit, reason)}"


def _check_counts(worker_num: int, local_worker_num: int, node_rank: int, master_port: int) -> None:
    if worker_num < 1 or local_worker_num < 1 or local_worker_num > worker_num:
        raise ValueError(f"For 'mindjax-run', need 1 <= local_worker_num ({local_worker_num}) <= worker_num "
                         f"({worker_num})")
    if node_rank < 0 or (node_rank + 1) * local_worker_num > worker_num:
        raise ValueError(f"For 'mindjax-run', node_rank {node_rank} with {local_worker_num} local workers "
                         f"(ranks {node_rank * local_worker_num}..{(node_rank + 1) * local_worker_num - 1}) "
                         f"does not fit in worker_num {worker_num}")
    if not 0 < master_port < 65536:
        raise ValueError(f"For 'mindjax-run', --master_port must be in [1, 65535], got {master_port}")


def launch(worker_num: int, local_worker_num: int, master_addr: str, master_port: int, node_rank: int,
           log_dir: str | None, heartbeat_timeout: int, script: str, args: Sequence[str],
           collective_timeout: float = 45.0) -> int:
    """Run the local workers until all finish or one fails.

    Arguments:
        worker_num: processes in the whole job.
        local_worker_num: processes on this node.
        master_addr, master_port: the coordinator (rank 0, on node 0).
        node_rank: this node's index; its workers get the global ranks
            ``node_rank * local_worker_num + i``.
        log_dir: where the full logs and the workers' stop reports go (None: a
            new folder under the temporary directory).
        heartbeat_timeout: seconds without a heartbeat before a process counts as lost.
        script, args: the program each worker runs, and its arguments.
        collective_timeout: seconds a rank may wait in a compiled program before the job stops.

    Returns:
        0 when every worker exits with 0; 1 after a failure (the others stopped);
        2 when node 0 finds the master port taken.

    Raises:
        ValueError: inconsistent worker counts or a bad port.
    """
    _check_counts(worker_num, local_worker_num, node_rank, master_port)
    if not collective_timeout > 0 or heartbeat_timeout < 1:
        raise ValueError(f"For 'mindjax-run', --collective_timeout ({collective_timeout}) and "
                         f"--heartbeat_timeout ({heartbeat_timeout}) must be positive")
    if node_rank == 0:
        from mindjax.communication.ports import port_in_use

        busy = port_in_use(master_port)
        if busy:
            print(f"mindjax-run: the master port {master_port} is already in use on this host ({busy}); "
                  f"rank 0 hosts the coordinator there. Free it or choose another --master_port.",
                  file=sys.stderr, flush=True)
            return 2
    log_dir = log_dir or _default_log_dir()
    os.makedirs(log_dir, exist_ok=True)
    first = node_rank * local_worker_num
    for rank in range(first, first + local_worker_num):
        try:
            os.remove(os.path.join(log_dir, f"worker_{rank}.report.json"))  # from an earlier run
        except FileNotFoundError:
            pass
    job = _Job(log_dir)
    workers: list[_Worker] = []
    for local in range(local_worker_num):
        rank = first + local
        env = dict(os.environ, MINDJAX_COORDINATOR=f"{master_addr}:{master_port}",
                   MINDJAX_WORLD_SIZE=str(worker_num), MINDJAX_RANK=str(rank), MINDJAX_LOCAL_RANK=str(local),
                   MINDJAX_LOCAL_WORLD_SIZE=str(local_worker_num), MINDJAX_NODE_RANK=str(node_rank),
                   MINDJAX_HEARTBEAT_TIMEOUT=str(heartbeat_timeout),
                   MINDJAX_COLLECTIVE_TIMEOUT=f"{collective_timeout:g}", MINDJAX_REPORT_DIR=log_dir,
                   PYTHONUNBUFFERED="1")
        # No thread of ours runs yet: preexec_fn is safe.
        proc = subprocess.Popen([sys.executable, "-c", _WORKER_MAIN, script, *args], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True, preexec_fn=_die_with_parent)
        workers.append(_Worker(rank, proc, open(os.path.join(log_dir, f"worker_{rank}.log"), "wb")))
    for w in workers:
        w.threads = [threading.Thread(target=job.pump, args=(w,), daemon=True),
                     threading.Thread(target=job.wait, args=(w,), daemon=True)]
        for t in w.threads:
            t.start()

    def on_signal(signum: int, _frame: object) -> None:
        with job.lock:
            job.quiet = True
        _stop(workers)
        print(f"mindjax-run: stopped by signal {signum} ({signal.Signals(signum).name}); logs: {log_dir}",
              file=sys.stderr, flush=True)
        sys.exit(128 + signum)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    failed = False
    try:
        while True:
            job.ended.wait(0.5)
            job.ended.clear()
            if any(w.proc.returncode not in (None, 0) for w in workers):
                failed = True
                break
            if all(w.proc.returncode is not None for w in workers):
                break
        if failed:
            stopped_at = time.time()
            _stop(workers)
            for w in workers:  # the exit times of the stopped ones, and the end of their output
                w.threads[1].join(timeout=1.0)
                w.threads[0].join(timeout=1.0)
            at, summary = _first_failure(workers, log_dir, stopped_at)
            ends = [w.ended_at for w in workers if w.ended_at is not None]
            took = max(0.0, max(ends, default=time.time()) - at) if at else 0.0
            line = (f"mindjax-run: {summary}; all {len(workers)} local worker(s) ended {took:.1f} s after it; "
                    f"full logs in {log_dir}")
            print(line, file=sys.stderr, flush=True)
            with open(os.path.join(log_dir, "launcher.log"), "a") as f:
                f.write(line + "\n")
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for w in workers:
            w.threads[0].join(timeout=_GRACE_S)
            w.log.close()
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    """The ``mindjax-run`` command line."""
    ns = _parser().parse_args(argv)
    local = ns.local_worker_num if ns.local_worker_num is not None else ns.worker_num
    try:
        return launch(ns.worker_num, local, ns.master_addr, ns.master_port, ns.node_rank, ns.log_dir,
                      ns.heartbeat_timeout, ns.script, ns.args, collective_timeout=ns.collective_timeout)
    except ValueError as exc:
        print(f"mindjax-run: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
