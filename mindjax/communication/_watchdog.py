"""The guard of a multi-process job: a failure stops every rank at once, a stuck rank is named.

Started by :func:`mindjax.communication.init` in each process of a job. It
keeps two kinds of keys in the coordination service's key-value store (the
XLA coordination service that ``jax.distributed`` runs on rank 0):

- ``mindjax/state/<rank>``: ``busy``, ``wait <dispatch number>`` (a compiled
  program has been running for longer than one poll: the rank waits, as a
  rank in a collective waits for its peers) or ``done``;
- ``mindjax/beat/<rank>``: a counter the thread bumps every poll; one that
  stops moving marks a lost rank when a collective fails for want of a peer;
- ``mindjax/failed/<rank>``: the first failure a rank saw, as JSON
  ``{"culprit", "reason", "time"}``.

A thread polls them every ``min(1 s, timeout / 10)``:

- a rank that has waited ``timeout`` seconds blames the ranks that are not
  waiting (alive but stuck in Python, or gone), and stops; when every rank
  waits (a long step, or a hang inside the collective) it stops after
  ``4 * timeout``;
- a rank that is not waiting while another has waited ``timeout`` seconds
  is the stuck one: it writes its Python stack to stderr and stops;
- a rank that sees another's failure stops, naming that failure.

An uncaught exception on the main thread publishes the failure and ends the
process at once (``os._exit``), without ``jax.distributed.shutdown``'s
barrier, which would wait for the ranks that are still running. Each stop
also writes ``worker_<rank>.report.json`` to ``MINDJAX_REPORT_DIR`` when that
is set (``mindjax-run`` sets it), from which the launcher names the first
failure.
"""
from __future__ import annotations

import atexit
import faulthandler
import json
import os
import re
import sys
import threading
import time
import traceback
from typing import Any, Callable

from mindjax.common import progress as _progress

_KEYS = "mindjax/"
# How a rank's one stop line begins; the launcher hides the worker's output from there on.
STOP_MARK = "mindjax: rank "
_EXIT_CODE = 1
# An error that says a peer went away (gloo on CPU, NCCL on GPU): then the lost rank is the news.
_PEER_LOST = re.compile(r"(?i)gloo|nccl|connection (closed|reset|refused)|broken pipe|by peer|heartbeat|"
                        r"coordination service|unavailable")
# The coordinator (rank 0) hosts the key-value store: when it fails it waits this long,
# at most, for the other ranks to have read its failure before its exit takes the store away.
_ACK_WAIT_S = 3.0


# The guard running in this process (at most one: init starts it, release and the exit finish it).
_RUNNING: list["Guard"] = []


def program_exited(code: Any) -> None:
    """The main program ended with ``SystemExit(code)``; ``mindjax-run``'s worker wrapper calls this.

    A non-zero code is this rank's failure: it is published at once, so the
    other ranks stop naming it, instead of this process waiting in
    ``jax.distributed.shutdown``'s barrier until it is aborted (and blamed on
    a signal) while the others wait the collective timeout for it. A zero
    code is a normal end and changes nothing.
    """
    if code is None or code == 0 or not _RUNNING:
        return
    guard = _RUNNING[-1]
    if isinstance(code, int):
        reason = f"exited with code {code} (sys.exit)"
    else:
        print(code, file=sys.stderr, flush=True)  # what the interpreter would print for sys.exit("message")
        reason = f"exited: {str(code)[:300]} (sys.exit)"
    guard.fail(guard.rank, reason)


def report_path(rank: int) -> str | None:
    """Where rank ``rank`` writes its stop report (``MINDJAX_REPORT_DIR``), or None."""
    folder = os.environ.get("MINDJAX_REPORT_DIR")
    return os.path.join(folder, f"worker_{rank}.report.json") if folder else None


def write_report(rank: int, culprit: int, reason: str) -> None:
    """Write the stop report of ``rank`` atomically (temporary file, then rename)."""
    path = report_path(rank)
    if path is None:
        return
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w") as f:
            json.dump({"rank": rank, "culprit": culprit, "reason": reason, "time": time.time()}, f)
        os.replace(tmp, path)
    except OSError:
        pass  # the report is a courtesy to the launcher; stopping matters more


def _short(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    text = lines[0] if lines else ""
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__


def _main_thread_location() -> str:
    """``file:line in function`` of the main thread now: its innermost frame in the user's code.

    Frames of the standard library, installed packages and mindjax itself are
    skipped (a stuck ``Event().wait()`` should name its caller), unless there is
    nothing else.
    """
    import sysconfig

    frame = sys._current_frames().get(threading.main_thread().ident)
    stack = traceback.extract_stack(frame) if frame is not None else []
    library = tuple({os.path.realpath(sysconfig.get_path(name)) for name in ("stdlib", "purelib", "platlib")}
                    | {os.path.dirname(os.path.dirname(os.path.realpath(__file__)))})
    for entry in reversed(stack):
        if not os.path.realpath(entry.filename).startswith(library):
            return f"{entry.filename}:{entry.lineno} in {entry.name}"
    return f"{stack[-1].filename}:{stack[-1].lineno} in {stack[-1].name}" if stack else "an unknown place"


class Guard:
    """One process's watchdog (see the module docstring).

    Arguments:
        client: the ``jax.distributed`` client (``key_value_set``/``key_value_dir_get``).
        rank, size: this process and the job.
        timeout: seconds a rank may wait in a compiled program before the job stops.
    """

    def __init__(self, client: Any, rank: int, size: int, timeout: float) -> None:
        self.client, self.rank, self.size, self.timeout = client, rank, size, float(timeout)
        self.interval = max(0.05, min(1.0, self.timeout / 10))
        self._stop = threading.Event()
        self._failing = threading.Lock()
        self._published: str | None = None
        self._previous_hook: Callable[..., Any] | None = None
        self._first_waiting: dict[int, float] = {}  # rank -> when this rank first saw it waiting
        self._beats: dict[int, tuple[str, float]] = {}  # rank -> (its beat, when this rank saw it change)
        self._beat = 0
        self._thread = threading.Thread(target=self._run, name="mindjax-watchdog", daemon=True)

    # -- life cycle ---------------------------------------------------------------------------
    def start(self) -> None:
        """Install the exception hook and start polling."""
        _progress.TRACKING[0] = True
        self._previous_hook = sys.excepthook
        sys.excepthook = self._excepthook
        # atexit runs last-registered first: this runs before jax's own shutdown.
        atexit.register(self.finish)
        _RUNNING.append(self)
        self._publish("busy")
        self._thread.start()

    def finish(self) -> None:
        """Tell the others this rank is done, and stop polling (``release`` and normal exits)."""
        if self._stop.is_set():
            return
        self._stop.set()
        if self in _RUNNING:
            _RUNNING.remove(self)
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=2 * self.interval + 1)
        try:
            self._publish("done")
        except Exception:
            pass
        _progress.TRACKING[0] = False
        _progress.PENDING.clear()
        if sys.excepthook == self._excepthook:
            sys.excepthook = self._previous_hook or sys.__excepthook__
        atexit.unregister(self.finish)

    # -- failing ------------------------------------------------------------------------------
    def fail(self, culprit: int, reason: str, told: bool = False, then: Callable[[], None] | None = None) -> None:
        """Publish the failure (unless ``told`` by another rank), write the report and end the process.

        Prints one line, ``mindjax: rank R stops: ...``; ``mindjax-run`` shows
        the console nothing of the workers after it (the log files get all).

        Arguments:
            culprit: the rank to blame (-1 when none can be).
            reason: what happened, as the launcher's summary will show it.
            told: the failure came from another rank's key; acknowledge it only.
            then: run after that line (to write more to the log only).
        """
        if not self._failing.acquire(blocking=False):
            return
        who = f"rank {culprit}" if culprit >= 0 else "the job"
        try:
            if told:
                self.client.key_value_set(f"{_KEYS}ack/{self.rank}", "1", allow_overwrite=True)
            else:
                self.client.key_value_set(f"{_KEYS}failed/{self.rank}",
                                          json.dumps({"culprit": culprit, "reason": reason, "time": time.time()}),
                                          allow_overwrite=True)
        except Exception:
            pass  # the store may be gone with rank 0; the report and the exit still follow
        write_report(self.rank, culprit, reason)
        print(f"{STOP_MARK}{self.rank} stops: {who} {reason}", file=sys.stderr, flush=True)
        if then is not None:
            try:
                then()
            except Exception:
                pass
        if self.rank == 0 and not told:
            self._wait_for_acks()
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(_EXIT_CODE)

    def _wait_for_acks(self) -> None:
        deadline = time.monotonic() + _ACK_WAIT_S
        while time.monotonic() < deadline:
            try:
                keys = dict(self.client.key_value_dir_get(_KEYS))
            except Exception:
                return
            others = {r for r in range(1, self.size)}
            gone = {r for r in others if keys.get(f"{_KEYS}state/{r}") == "done"}
            acked = {r for r in others if f"{_KEYS}ack/{r}" in keys or f"{_KEYS}failed/{r}" in keys}
            if others <= gone | acked:
                return
            time.sleep(0.02)

    def _excepthook(self, exc_type: type, exc: BaseException, tb: Any) -> None:
        hook = self._previous_hook or sys.__excepthook__
        if _PEER_LOST.search(str(exc)):
            lost = self._lost_ranks()
            if lost:
                also = "" if len(lost) == 1 else f", as was rank {lost[1]}" if len(lost) == 2 else \
                    f", as were ranks {', '.join(map(str, lost[1:]))}"
                self.fail(lost[0], f"was lost{also} (its process ended or stopped answering; rank {self.rank}'s "
                                   f"collective failed: {_short(exc)})", then=lambda: hook(exc_type, exc, tb))
                return
            absent = self._absent_ranks()
            if absent and self._failure_of_others() is None:
                # Every peer still beats, but one never came to the collective (gloo's own timeout fired
                # before the collective timeout): that rank is the news, not this one's error.
                r, what = absent[0]
                self.fail(r, f"{what}: rank {self.rank}'s collective gave up waiting for it ({_short(exc)})",
                          then=lambda: hook(exc_type, exc, tb))
                return
        earlier = self._failure_of_others()
        if earlier is not None:
            # Most likely a consequence (a collective whose peer is gone): the first failure is the news.
            culprit, reason = earlier
            self.fail(culprit, reason, told=True, then=lambda: hook(exc_type, exc, tb))
            return
        hook(exc_type, exc, tb)
        self.fail(self.rank, f"raised {_short(exc)}")

    def _absent_ranks(self) -> list[tuple[int, str]]:
        """The other ranks that are not inside a compiled program (stuck in Python, or finished), with what
        they are doing, as ``[(rank, 'is stuck' | 'has finished')]``."""
        try:
            keys = dict(self.client.key_value_dir_get(f"{_KEYS}state/"))
        except Exception:
            return []
        states = {r: keys.get(f"{_KEYS}state/{r}", "absent") for r in range(self.size) if r != self.rank}
        return [(r, "has finished" if state == "done" else "has not joined" if state == "absent" else "is stuck")
                for r, state in sorted(states.items()) if not state.startswith("wait")]

    def _lost_ranks(self) -> list[int]:
        """The ranks whose watchdog stopped beating: read the beats, wait 2.5 polls, read again."""
        def beats() -> dict[int, str]:
            keys = dict(self.client.key_value_dir_get(_KEYS))
            return {r: keys.get(f"{_KEYS}beat/{r}", "") for r in range(self.size)
                    if r != self.rank and keys.get(f"{_KEYS}state/{r}") != "done"}

        try:
            before = beats()
            time.sleep(2.5 * self.interval)
            after = beats()
        except Exception:
            return [0] if self.rank != 0 else []  # the store is gone: rank 0 hosted it
        return sorted(r for r, beat in after.items() if before.get(r) == beat)

    def _failure_of_others(self, keys: dict[str, str] | None = None) -> tuple[int, str] | None:
        """The earliest failure another rank published, as ``(culprit, reason)``."""
        if keys is None:
            try:
                keys = dict(self.client.key_value_dir_get(f"{_KEYS}failed/"))
            except Exception:
                return None
        failures = []
        for key, value in keys.items():
            if key.startswith(f"{_KEYS}failed/") and key != f"{_KEYS}failed/{self.rank}":
                try:
                    failures.append((json.loads(value), int(key.rsplit("/", 1)[1])))
                except ValueError:
                    continue
        if not failures:
            return None
        first, teller = min(failures, key=lambda f: f[0].get("time", 0.0))
        culprit = int(first.get("culprit", teller))
        reason = str(first.get("reason", "failed"))
        if culprit != teller and "reported by rank" not in reason:
            reason += f" (reported by rank {teller})"
        return culprit, reason

    # -- polling ------------------------------------------------------------------------------
    def _publish(self, state: str) -> None:
        if state != self._published:
            self.client.key_value_set(f"{_KEYS}state/{self.rank}", state, allow_overwrite=True)
            self._published = state

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if self._poll(time.monotonic()):
                return

    def _poll(self, now: float) -> bool:
        """One look at the job (``now``: ``time.monotonic()``); True when this rank has stopped."""
        self._beat += 1
        pending = _progress.oldest_pending()
        waited = now - pending[1] if pending is not None else 0.0
        try:
            self._publish(f"wait {pending[0]}" if waited > self.interval else "busy")
            self.client.key_value_set(f"{_KEYS}beat/{self.rank}", str(self._beat), allow_overwrite=True)
            keys = dict(self.client.key_value_dir_get(_KEYS))
        except Exception as exc:
            if self._stop.is_set():
                return True
            self.fail(0, f"is unreachable: the coordination service on rank 0 is gone ({_short(exc)})")
            return True
        if self._stop.is_set():
            return True
        earlier = self._failure_of_others(keys)
        if earlier is not None:
            culprit, reason = earlier
            if culprit == self.rank and pending is None:  # the others say this rank is stuck: say where
                reason = f"{reason}; it was at {_main_thread_location()}"
                self.fail(culprit, reason, told=True,
                          then=lambda: faulthandler.dump_traceback(file=sys.stderr, all_threads=True))
            else:
                self.fail(culprit, reason, told=True)
            return True
        states = {r: keys.get(f"{_KEYS}state/{r}", "absent") for r in range(self.size) if r != self.rank}
        for r, state in states.items():
            value = keys.get(f"{_KEYS}beat/{r}", "")
            if self._beats.get(r, (None,))[0] != value:
                self._beats[r] = (value, now)
            if state.startswith("wait"):
                self._first_waiting.setdefault(r, now)
            else:
                self._first_waiting.pop(r, None)
        # A rank whose watchdog stopped beating is gone (or frozen with the GIL held), whatever it said last.
        silent = {r for r, state in states.items()
                  if state != "done" and now - self._beats[r][1] > max(5 * self.interval, 3.0)}
        if waited >= self.timeout:
            idle = sorted(r for r, state in states.items() if not state.startswith("wait") or r in silent)
            step = f"compiled step {pending[0]}"
            if idle:
                what = {r: ("stopped answering (no watchdog beat)" if r in silent else
                            "has finished" if states[r] == "done" else
                            "has not joined" if states[r] == "absent" else "is stuck") for r in idle}
                r = idle[0]
                self.fail(r, f"{what[r]}: rank {self.rank} waited {self.timeout:g} s for it in {step} "
                             f"(collective timeout)")
                return True
            if waited >= 4 * self.timeout:
                # Every rank is inside the program: a long step is likelier than a hang, so this waits longer.
                self.fail(-1, f"hangs: {step} did not finish on any rank within {4 * self.timeout:g} s "
                              f"(4 x the collective timeout)")
                return True
        if pending is None or waited < self.interval:
            waiting = sorted(r for r, t in self._first_waiting.items() if now - t >= self.timeout + self.interval)
            if waiting:
                where = _main_thread_location()
                self.fail(self.rank, f"is stuck at {where}: ranks {waiting} waited {self.timeout:g} s "
                                     f"for it (collective timeout)",
                          then=lambda: faulthandler.dump_traceback(file=sys.stderr, all_threads=True))
                return True
        return False
