"""``mindjax-run``: start the workers of a multi-process job (in the spirit of MindSpore's ``msrun``).

::

    mindjax-run --worker_num 2 --local_worker_num 2 [--master_addr 127.0.0.1 --master_port 8118]
                [--node_rank 0] [--log_dir logs] [--heartbeat_timeout 30] train.py --lr 0.1

Each worker runs ``python script args`` with the environment that
:func:`mindjax.communication.init` reads (``MINDJAX_COORDINATOR``,
``MINDJAX_WORLD_SIZE``, ``MINDJAX_RANK``, ``MINDJAX_LOCAL_RANK`` ...). Output
passes through line by line with a ``[rank N]`` prefix (and into
``log_dir/worker_N.log``). When a worker fails, the others are stopped and the
launcher exits with an error naming the failed rank; it never waits forever.
"""
from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Sequence

__all__ = ["main", "launch"]

_GRACE_S = 2.0  # JAX catches SIGTERM (preemption notice), so a worker may need SIGKILL


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="mindjax-run", description="Start the workers of a MindJAX job.")
    p.add_argument("--worker_num", type=int, required=True, help="processes in the whole job")
    p.add_argument("--local_worker_num", type=int, default=None, help="processes on this node")
    p.add_argument("--master_addr", default="127.0.0.1", help="host of rank 0 (the coordinator)")
    p.add_argument("--master_port", type=int, default=8118, help="coordinator port")
    p.add_argument("--node_rank", type=int, default=0, help="this node's index")
    p.add_argument("--log_dir", default=None, help="also write each worker's output here")
    p.add_argument("--heartbeat_timeout", type=int, default=30,
                   help="seconds without a heartbeat before a worker counts as lost")
    p.add_argument("script", help="the training script")
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments of the script")
    return p


def _pump(stream: IO[bytes], rank: int, log: IO[bytes] | None, lock: threading.Lock) -> None:
    prefix = f"[rank {rank}] ".encode()
    for line in iter(stream.readline, b""):
        with lock:
            sys.stdout.buffer.write(prefix + line)
            sys.stdout.buffer.flush()
        if log is not None:
            log.write(line)
            log.flush()
    stream.close()


def _stop(procs: dict[int, subprocess.Popen]) -> None:
    for proc in procs.values():
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
    deadline = time.monotonic() + _GRACE_S
    for proc in procs.values():
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()


def launch(worker_num: int, local_worker_num: int, master_addr: str, master_port: int, node_rank: int,
           log_dir: str | None, heartbeat_timeout: int, script: str, args: Sequence[str]) -> int:
    """Run the local workers until all finish or one fails.

    Returns:
        0 when every worker exits with 0; otherwise 1 after stopping the others.

    Raises:
        ValueError: inconsistent worker counts.
    """
    if worker_num < 1 or local_worker_num < 1 or local_worker_num > worker_num:
        raise ValueError(f"For 'mindjax-run', need 1 <= local_worker_num ({local_worker_num}) <= worker_num "
                         f"({worker_num})")
    first = node_rank * local_worker_num
    if first + local_worker_num > worker_num:
        raise ValueError(f"For 'mindjax-run', node_rank {node_rank} with {local_worker_num} local workers "
                         f"exceeds worker_num {worker_num}")
    if log_dir:
        os.makedirs(log_dir, exist_ok=True)
    lock = threading.Lock()
    procs: dict[int, subprocess.Popen] = {}
    pumps = []
    logs = []
    for local in range(local_worker_num):
        rank = first + local
        env = dict(os.environ, MINDJAX_COORDINATOR=f"{master_addr}:{master_port}",
                   MINDJAX_WORLD_SIZE=str(worker_num), MINDJAX_RANK=str(rank), MINDJAX_LOCAL_RANK=str(local),
                   MINDJAX_LOCAL_WORLD_SIZE=str(local_worker_num),
                   MINDJAX_HEARTBEAT_TIMEOUT=str(heartbeat_timeout), PYTHONUNBUFFERED="1")
        proc = subprocess.Popen([sys.executable, script, *args], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        procs[rank] = proc
        log = open(os.path.join(log_dir, f"worker_{rank}.log"), "wb") if log_dir else None
        logs.append(log)
        pump = threading.Thread(target=_pump, args=(proc.stdout, rank, log, lock), daemon=True)
        pump.start()
        pumps.append(pump)

    def on_signal(signum: int, _frame: object) -> None:
        _stop(procs)
        sys.exit(128 + signum)

    previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
    failed: tuple[int, int] | None = None
    try:
        while failed is None and any(p.poll() is None for p in procs.values()):
            for rank, proc in procs.items():
                code = proc.poll()
                if code not in (None, 0):
                    failed = (rank, code)
                    break
            time.sleep(0.05)
        if failed is None:
            failed = next(((r, p.returncode) for r, p in procs.items() if p.returncode), None)
        if failed is not None:
            rank, code = failed
            reason = f"was killed by signal {-code}" if code < 0 else f"exited with code {code}"
            with lock:
                print(f"mindjax-run: worker rank {rank} {reason}; stopping the other workers",
                      file=sys.stderr, flush=True)
            _stop(procs)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for pump in pumps:
            pump.join(timeout=_GRACE_S)
        for log in logs:
            if log is not None:
                log.close()
    return 0 if failed is None else 1


def main(argv: Sequence[str] | None = None) -> int:
    """The ``mindjax-run`` command line."""
    ns = _parser().parse_args(argv)
    local = ns.local_worker_num if ns.local_worker_num is not None else ns.worker_num
    try:
        return launch(ns.worker_num, local, ns.master_addr, ns.master_port, ns.node_rank, ns.log_dir,
                      ns.heartbeat_timeout, ns.script, ns.args)
    except ValueError as exc:
        print(f"mindjax-run: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
