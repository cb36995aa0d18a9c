"""The rules of the multi-process watchdog, one poll at a time, on a fake store and a fake clock.

The real thing (processes, gloo) is in tests/parallel/test_multiprocess.py;
here each rule is pinned without processes or waiting.
"""
import collections
import json

import pytest

from mindjax.common import progress
from mindjax.communication import _watchdog


class Store:
    """The coordination service's key-value store, as the watchdog uses it."""

    def __init__(self):
        self.keys = {}

    def key_value_set(self, key, value, allow_overwrite=False):
        self.keys[key] = value

    def key_value_dir_get(self, prefix):
        return [(k, v) for k, v in self.keys.items() if k.startswith(prefix)]


class Stopped(Exception):
    pass


class Guard(_watchdog.Guard):
    """Records the stop instead of ending the process."""

    def fail(self, culprit, reason, told=False, then=None):
        self.stopped = (culprit, reason, told)
        raise Stopped


class Running:
    """An output array whose program has not finished."""

    def is_ready(self):
        return False


@pytest.fixture
def pending(monkeypatch):
    queue = collections.deque()
    monkeypatch.setattr(progress, "PENDING", queue)
    return queue


def _guard(store, rank=0, size=2, timeout=10.0):
    return Guard(store, rank, size, timeout)   # interval: 1 s


def _poll(guard, now):
    try:
        return guard._poll(now)
    except Stopped:
        return True


def test_a_rank_that_waited_the_timeout_blames_the_rank_that_is_not_waiting(pending):
    store = Store()
    store.keys["mindjax/state/1"] = "busy"
    guard = _guard(store)
    pending.append((7, 100.0, Running()))      # dispatched at t=100, still running
    assert not _poll(guard, 105.0)
    store.keys["mindjax/beat/1"] = "9"
    assert store.keys["mindjax/state/0"] == "wait 7"
    assert _poll(guard, 110.0)
    culprit, reason, told = guard.stopped
    assert (culprit, told) == (1, False)
    assert reason == "is stuck: rank 0 waited 10 s for it in compiled step 7 (collective timeout)"


def test_a_finished_step_is_no_wait(pending):
    class Done:
        def is_ready(self):
            return True

    store = Store()
    guard = _guard(store)
    pending.append((3, 100.0, Done()))
    assert not _poll(guard, 200.0)
    assert store.keys["mindjax/state/0"] == "busy" and not pending


def test_when_every_rank_waits_the_job_stops_after_four_timeouts(pending):
    store = Store()
    guard = _guard(store)
    pending.append((5, 100.0, Running()))
    for now in (101.0, 105.0, 111.0, 120.0, 139.0):  # rank 1 waits too, and keeps beating
        store.keys["mindjax/state/1"] = "wait 5"
        store.keys["mindjax/beat/1"] = str(now)
        assert not _poll(guard, now)
    store.keys["mindjax/beat/1"] = "140"
    assert _poll(guard, 140.0)
    assert guard.stopped[0] == -1 and "did not finish on any rank within 40 s" in guard.stopped[1]


def test_a_waiting_rank_whose_beat_stopped_counts_as_lost(pending):
    store = Store()
    store.keys.update({"mindjax/state/1": "wait 5", "mindjax/beat/1": "3"})
    guard = _guard(store)
    pending.append((5, 100.0, Running()))
    assert not _poll(guard, 101.0)
    assert _poll(guard, 110.0)                  # its beat is 9 s old
    assert guard.stopped[0] == 1 and guard.stopped[1].startswith("stopped answering (no watchdog beat)")


def test_the_rank_the_others_wait_for_names_itself_and_where_it_is(pending):
    store = Store()
    store.keys["mindjax/state/0"] = "wait 4"
    guard = _guard(store, rank=1)
    for now in (100.0, 105.0, 110.5):
        store.keys["mindjax/beat/0"] = str(now)
        assert not _poll(guard, now)
    store.keys["mindjax/beat/0"] = "111"
    assert _poll(guard, 111.0)                  # rank 0 has waited 11 s >= timeout + one poll
    culprit, reason, _ = guard.stopped
    assert culprit == 1 and reason.startswith("is stuck at ") and "ranks [0] waited 10 s for it" in reason


def test_a_published_failure_stops_the_others_naming_its_rank(pending):
    store = Store()
    store.keys["mindjax/failed/1"] = json.dumps({"culprit": 1, "reason": "raised ValueError: bad", "time": 5.0})
    store.keys["mindjax/failed/2"] = json.dumps({"culprit": 2, "reason": "raised OSError: later", "time": 6.0})
    guard = _guard(store, size=3)
    assert _poll(guard, 100.0)
    assert guard.stopped == (1, "raised ValueError: bad", True)


def test_a_finished_rank_is_never_a_lost_one(pending):
    store = Store()
    store.keys.update({"mindjax/state/1": "done", "mindjax/beat/1": "3"})
    guard = _guard(store)
    assert not _poll(guard, 100.0)
    assert not _poll(guard, 200.0)              # nothing pending here: nobody waits


def test_reports_are_written_atomically_where_the_launcher_reads_them(tmp_path, monkeypatch):
    monkeypatch.setenv("MINDJAX_REPORT_DIR", str(tmp_path))
    _watchdog.write_report(3, 1, "is stuck: rank 3 waited 5 s")
    report = json.loads((tmp_path / "worker_3.report.json").read_text())
    assert (report["rank"], report["culprit"], report["reason"]) == (3, 1, "is stuck: rank 3 waited 5 s")
    assert [p.name for p in tmp_path.iterdir()] == ["worker_3.report.json"]


def test_a_dispatch_call_that_has_not_returned_counts_as_waiting(pending, monkeypatch):
    # XLA runs small CPU programs on the calling thread: the call itself waits in the collective.
    monkeypatch.setattr(progress, "TRACKING", [True])
    monkeypatch.setattr(progress, "IN_DISPATCH", [None])
    with progress.dispatching():
        number, began = progress.oldest_pending()
        assert number == progress.DISPATCHES[0] + 1
    assert progress.oldest_pending() is None


def test_a_rank_inside_a_dispatch_call_blames_the_rank_stuck_in_python(pending, monkeypatch):
    store = Store()
    store.keys.update({"mindjax/state/1": "busy", "mindjax/beat/1": "1"})
    monkeypatch.setattr(progress, "IN_DISPATCH", [(7, 100.0)])
    guard = _guard(store)
    assert not _poll(guard, 100.5)
    store.keys["mindjax/beat/1"] = "2"          # alive: its watchdog still beats
    assert _poll(guard, 110.0)
    assert guard.stopped[0] == 1
    assert guard.stopped[1] == "is stuck: rank 0 waited 10 s for it in compiled step 7 (collective timeout)"


def test_a_gloo_timeout_with_every_peer_alive_blames_the_peer_that_never_came(pending, monkeypatch):
    store = Store()
    store.keys.update({"mindjax/state/0": "wait 1", "mindjax/state/1": "busy", "mindjax/beat/1": "4"})
    guard = _guard(store, rank=0)
    monkeypatch.setattr(guard, "_lost_ranks", lambda: [])
    monkeypatch.setattr(_watchdog.sys, "__excepthook__", lambda *a: None)
    error = RuntimeError("UNKNOWN: Gloo context initialization failed: DEADLINE_EXCEEDED: GetKeyValue() timed out")
    with pytest.raises(Stopped):
        guard._excepthook(RuntimeError, error, None)
    culprit, reason, _ = guard.stopped
    assert culprit == 1
    assert reason.startswith("is stuck: rank 0's collective gave up waiting for it (RuntimeError: UNKNOWN: Gloo")


def test_a_non_zero_sys_exit_is_this_ranks_failure_and_zero_is_a_normal_end(monkeypatch):
    guard = _guard(Store(), rank=1)
    monkeypatch.setattr(_watchdog, "_RUNNING", [guard])
    _watchdog.program_exited(0)
    _watchdog.program_exited(None)
    assert not hasattr(guard, "stopped")
    with pytest.raises(Stopped):
        _watchdog.program_exited(3)
    assert guard.stopped == (1, "exited with code 3 (sys.exit)", False)
