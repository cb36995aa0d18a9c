"""``mindspore.Profiler`` and ``mindspore.profiler.profile``, recording with ``jax.profiler``.

A recording is one ``jax.profiler.start_trace``/``stop_trace`` into its own
folder ``<output_path>/<worker>_<timestamp>_jax/``. JAX writes there, in
TensorBoard's layout, ``plugins/profile/<run>/<host>.xplane.pb`` (TensorBoard's
profile plugin / XProf open it: ``tensorboard --logdir <output_path>``) and
``perfetto_trace.json.gz`` (ui.perfetto.dev opens it). While a recording runs,
each Cell call is also a host event named by the Cell's path; its compiled ops
carry that path as their ``jax.named_scope`` at all times.

``analyse()`` reads the trace back and writes, next to it, ``cell_statistic.csv``
(per Cell: calls, host, trace and device time, forward/backward split),
``op_statistic.csv`` (per XLA op) and ``trace_view.json`` (a Perfetto/Chrome
timeline whose ops are named by their Cell), and prints the per-Cell summary.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn, ops
    >>> net = nn.Dense(4, 2)
    >>> prof = ms.Profiler(output_path="/tmp/mindjax_prof_doc")  # starts recording
    >>> _ = net(ops.ones((3, 4)))
    >>> prof.analyse()  # doctest: +SKIP
"""
from __future__ import annotations

import glob
import logging
import os
import socket
import threading
import time
from typing import Any, Callable, Iterable

import jax

from mindjax import context
from mindjax.common.upcalls import register_upcall
from mindjax.profiler import _analysis
from mindjax.profiler._xplane import read_xspace
from mindjax.profiler.common.constant import ProfilerActivity
from mindjax.profiler.experimental_config import _ExperimentalConfig
from mindjax.profiler.schedule import ProfilerAction, Schedule

__all__ = ["Profiler", "profile", "tensorboard_trace_handler"]

_LOG = logging.getLogger("mindjax")
_DEFAULT_OUTPUT = "./data"
_LOCK = threading.Lock()
_RECORDING: list["_Session | None"] = [None]   # JAX runs one trace per process
_COUNTER = [0]


class _CellScope:
    """The scope of one Cell call while a profiler records: its named scope plus a host trace event."""

    __slots__ = ("_scope", "_event")

    def __init__(self, cell: Any, path: str) -> None:
        self._scope = jax.named_scope(path)
        phase = "trace" if context.in_compiled() else "host"
        self._event = jax.profiler.TraceAnnotation(path, cell=type(cell).__name__, phase=phase)

    def __enter__(self) -> None:
        self._scope.__enter__()
        self._event.__enter__()

    def __exit__(self, *exc: Any) -> Any:
        self._event.__exit__(*exc)
        return self._scope.__exit__(*exc)


def _default_schedule(_: int) -> ProfilerAction:
    return ProfilerAction.RECORD


class _Session:
    """The recordings of one profiler: where they go, the JAX trace, and their analysis
    (MindSpore's ``ProfilerInterface``; ``on_trace_ready`` handlers receive it)."""

    def __init__(self, output_path: str, worker_name: str | None, with_stack: bool) -> None:
        self.output_path = os.path.abspath(output_path)
        self.worker_name = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        self.with_stack = with_stack
        self.recording_dir: str | None = None     # the recording under way or last finished
        self.finished: list[str] = []             # recordings not analysed yet
        self.metadata: dict[str, Any] = {}        # add_metadata's pairs, written with each analysis

    # -- the action controller's verbs ---------------------------------------------------
    def start(self) -> None:
        with _LOCK:
            if _RECORDING[0] is not None:
                _LOG.warning("A profiler is already recording in this process (JAX traces one at a time); "
                             "this one does not start.")
                return
            _COUNTER[0] += 1
            stamp = time.strftime("%Y%m%d%H%M%S") + f"{int(time.time() * 1000) % 1000:03d}"
            self.recording_dir = os.path.join(self.output_path, f"{self.worker_name}_{stamp}_{_COUNTER[0]}_jax")
            os.makedirs(self.recording_dir, exist_ok=True)
            options = jax.profiler.ProfileOptions()
            options.python_tracer_level = 1 if self.with_stack else 0
            jax.profiler.start_trace(self.recording_dir, create_perfetto_trace=True, profiler_options=options)
            _RECORDING[0] = self
            register_upcall("cell_scope", _CellScope)

    def stop(self) -> None:
        with _LOCK:
            if _RECORDING[0] is not self:
                return
            register_upcall("cell_scope", None)
            _RECORDING[0] = None
            jax.profiler.stop_trace()
            self.finished.append(self.recording_dir)

    @property
    def recording(self) -> bool:
        """Whether this session's trace is running."""
        return _RECORDING[0] is self

    def analyse(self, **_: Any) -> None:
        """Analyse every finished recording not analysed yet (the tables and the printed summary)."""
        import json

        pending, self.finished = self.finished, []
        for directory in pending:
            if self.metadata:
                with open(os.path.join(directory, "profiler_metadata.json"), "w", encoding="utf-8") as f:
                    json.dump(self.metadata, f)
            analyse_recording(directory)

    def delete_dir(self) -> None:
        """Forget the recording under way (a schedule stopped in warm-up leaves nothing)."""
        self.recording_dir = None


def _xplane_files(directory: str) -> list[str]:
    return sorted(glob.glob(os.path.join(directory, "**", "*.xplane.pb"), recursive=True))


def analyse_recording(directory: str) -> list[dict[str, Any]]:
    """Write the per-Cell and per-op tables and the timeline of the recording in ``directory``; print the summary.

    Arguments:
        directory: a recording folder (``<output_path>/<worker>_<stamp>_jax``) or any folder above
            the ``.xplane.pb`` files JAX wrote; each trace found is analysed.

    Returns:
        the per-Cell rows of the last trace (dicts keyed by :data:`CELL_COLUMNS`).

    Raises:
        FileNotFoundError: no ``.xplane.pb`` below ``directory``.
    """
    files = _xplane_files(directory)
    if not files:
        raise FileNotFoundError(f"For 'Profiler.analyse', no JAX trace (*.xplane.pb) below {directory!r}")
    cells: list[dict[str, Any]] = []
    for path in files:
        cells, text = _analysis.write_tables(read_xspace(path), os.path.dirname(path))
        print(text, flush=True)
    return cells


CELL_COLUMNS = _analysis.CELL_COLUMNS


class _ProfileBase:
    """What ``Profiler`` and ``profile`` share: parameters, the schedule and the step machine."""

    def __init__(self, *, output_path: str | None = None, activities: Iterable[ProfilerActivity] | None = None,
                 with_stack: bool = False, start_profile: bool = True,
                 schedule: Callable[[int], ProfilerAction] | None = None,
                 on_trace_ready: Callable[..., Any] | None = None,
                 experimental_config: _ExperimentalConfig | None = None, **options: Any) -> None:
        handler_path = getattr(on_trace_ready, "_mindjax_output_path", None)
        if handler_path and output_path:
            _LOG.warning("Both on_trace_ready path and output_path are provided. The on_trace_ready path takes "
                         "effect. Final path is %s", handler_path)
        path = handler_path or output_path or _DEFAULT_OUTPUT
        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"For 'Profiler', 'output_path' must be a str, but got {type(path)}")
        if activities is not None:
            activities = list(activities)
            bad = [a for a in activities if not isinstance(a, ProfilerActivity)]
            if bad:
                raise TypeError(f"For 'Profiler', 'activities' must be ProfilerActivity members, but got {bad}")
        if not isinstance(start_profile, bool):
            raise TypeError(f"For 'Profiler', 'start_profile' must be a bool, but got {type(start_profile)}")
        if schedule is not None and not callable(schedule):
            _LOG.warning("schedule is not Callable, set by default.")
            schedule = None
        self.activities = activities or [ProfilerActivity.CPU, ProfilerActivity.NPU]
        self.experimental_config = experimental_config or _ExperimentalConfig()
        self.options = dict(options)
        self.schedule_arg = schedule
        self.schedule = schedule or _default_schedule
        self.on_trace_ready = on_trace_ready
        self._session = _Session(os.fspath(path), getattr(on_trace_ready, "_mindjax_worker_name", None),
                                 with_stack)
        self._metadata: dict[str, Any] = self._session.metadata
        self._has_started = False
        self.step_num = 0
        self.current_action = self.schedule(self.step_num)
        if start_profile:
            self.start()

    @property
    def output_path(self) -> str:
        """The folder recordings go to."""
        return self._session.output_path

    # -- the action controller (MindSpore's transitions between step actions) -------------
    def _transit(self, previous: ProfilerAction, current: ProfilerAction | None) -> None:
        session = self._session
        recording = previous in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
        if current is None:                        # stop()
            if previous == ProfilerAction.WARM_UP:
                _LOG.warning("Incorrect schedule: Stop profiler while current state is WARMUP which will "
                             "result in empty parsed data.")
                session.delete_dir()
            if recording:
                session.stop()
                self._trace_ready()
            return
        will_record = current in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE)
        if previous == ProfilerAction.RECORD_AND_SAVE:
            session.stop()
            self._trace_ready()
            if will_record:
                session.start()
        elif recording and not will_record:
            _LOG.warning("Incorrect schedule: RECORD followed by %s", current.name)
            session.stop()
        elif will_record and not recording:
            session.start()

    def _trace_ready(self) -> None:
        if self.on_trace_ready is not None:
            self.on_trace_ready(self._session)

    # -- the public verbs -------------------------------------------------------------------
    def start(self) -> None:
        """Start collecting (a warning when already started)."""
        if self._has_started:
            _LOG.warning("The profiler has already started. Do not turn on again in the open state.")
            return
        self._has_started = True
        self._transit(ProfilerAction.NONE, self.current_action)

    def stop(self) -> None:
        """Stop collecting; with ``on_trace_ready``, hand the recording to it."""
        if not self._has_started:
            _LOG.error("The profiler has not started. Do not turn off again in the closed state.")
            return
        self._has_started = False
        self._transit(self.current_action, None)

    def step(self) -> None:
        """Mark the end of a step: the schedule decides what the next step records."""
        if self.schedule_arg is None:
            _LOG.error("With no schedule in the Profiler, step takes no effect!")
            return
        if not self._has_started:
            _LOG.error("Profiler is stopped, step takes no effect!")
            return
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(previous, self.current_action)

    def add_metadata(self, key: str, value: str) -> None:
        """Record a key/value pair (written to ``profiler_metadata.json`` of the next analysis)."""
        if not isinstance(key, str) or not isinstance(value, str):
            _LOG.warning("The key and value of metadata must be string. Skip this metadata.")
            return
        self._metadata[key] = value

    def add_metadata_json(self, key: str, value: str) -> None:
        """Record a key and a json value."""
        import json

        if not isinstance(key, str) or not isinstance(value, str):
            _LOG.warning("The key and value of metadata must be string. Skip this metadata.")
            return
        try:
            self._metadata[key] = json.loads(value)
        except ValueError:
            _LOG.warning("The metadata value must be json format string. Skip this metadata")

    def __enter__(self) -> "_ProfileBase":
        if not self._has_started:
            self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._has_started:
            self.stop()

    def __del__(self) -> None:
        try:
            if self._has_started and self._session.recording:
                self._session.stop()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass


class Profiler(_ProfileBase):
    """MindSpore's ``Profiler``: record a ``jax.profiler`` trace and analyse it per Cell.

    Arguments (keywords, MindSpore's names and defaults):
        output_path: folder of the recordings. Default ``"./data"``.
        start_profile: start recording at construction. Default True.
        activities: ``ProfilerActivity`` members (the trace always covers host and device).
        with_stack: also record Python calls (JAX's Python tracer). Default False.
        schedule: a :class:`~mindjax.profiler.schedule` of the steps to record, driven by :meth:`step`.
        on_trace_ready: called with the recording when a scheduled recording ends
            (see :func:`tensorboard_trace_handler`).
        profiler_level, aic_metrics, profile_memory, data_process, parallel_strategy, l2_cache,
        hbm_ddr, pcie, sync_enable, data_simplification, record_shapes, export_type, mstx ...:
            accepted and kept (Ascend collectors).

    Example:
        >>> import mindjax as ms
        >>> from mindjax import nn, ops
        >>> profiler = ms.Profiler(output_path="/tmp/mindjax_profiler_doc")
        >>> _ = nn.Dense(4, 2)(ops.ones((2, 4)))
        >>> profiler.analyse()  # doctest: +SKIP
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)

    def stop(self) -> None:
        """Stop collecting (with a schedule, use :meth:`step`; its last recording goes to ``on_trace_ready``)."""
        if not self._has_started:
            _LOG.error("The profiler has not started. Do not turn off again in the closed state.")
            return
        if self.schedule_arg is not None:
            super().stop()
            return
        self._has_started = False
        self._session.stop()

    def analyse(self, offline_path: str | None = None, pretty: bool = False, step_list: list[int] | None = None,
                mode: str = "sync") -> None:
        """Stop recording if needed, then write and print the per-Cell tables of the recordings.

        Arguments:
            offline_path: deprecated in MindSpore; a recorded folder to analyse instead.
            pretty, step_list, mode: accepted (the analysis runs in this process).
        """
        if mode not in ("sync", "async"):
            raise ValueError(f"For 'Profiler.analyse', 'mode' must be one of ['sync', 'async'], but got {mode!r}")
        if offline_path:
            _LOG.warning("The parameter 'offline_path' for Profiler.analyse() is deprecated, please use "
                         "Profiler.offline_analyse() instead.")
            Profiler.offline_analyse(offline_path)
            return
        if self._has_started:
            self._has_started = False
            self._session.stop()
        if self.schedule_arg is not None:
            _LOG.warning("The profiler has schedule. Please use 'on_trace_ready' to analyse data.")
            return
        self._session.analyse()

    @classmethod
    def offline_analyse(cls, path: str, pretty: bool = False, step_list: list[int] | None = None,
                        data_simplification: bool = True) -> None:
        """Analyse recordings already on disk: every trace below ``path``."""
        analyse_recording(os.fspath(path))

    def op_analyse(self, op_name: str | list[str], device_id: int | None = None) -> dict[str, list[dict[str, Any]]]:
        """Per-op rows (from the last analysis's ``op_statistic.csv``) whose op name contains ``op_name``.

        Raises:
            TypeError: ``op_name`` is not a str or a list, or is empty.
        """
        import csv

        if not isinstance(op_name, (str, list)) or not op_name:
            raise TypeError(f"For 'Profiler.op_analyse()', the parameter op_name must be a non-empty str or list, "
                            f"but got {op_name!r}")
        names = [op_name] if isinstance(op_name, str) else op_name
        tables = glob.glob(os.path.join(self.output_path, "**", _analysis.OP_TABLE), recursive=True)
        if not tables:
            return {name: [] for name in names}
        with open(max(tables, key=os.path.getmtime), encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        return {name: [r for r in rows if name.lower() in r["op"].lower()] for name in names}


class profile(_ProfileBase):  # noqa: N801 - MindSpore's name
    """MindSpore's ``mindspore.profiler.profile``: a context manager recording a ``jax.profiler`` trace.

    Arguments (MindSpore's): activities, with_stack, profile_memory, data_process, parallel_strategy,
        start_profile, hbm_ddr, pcie, sync_enable, record_shapes, schedule, on_trace_ready,
        experimental_config. The recordings go to ``on_trace_ready``'s folder
        (:func:`tensorboard_trace_handler`) or ``"./data"``.

    Example:
        >>> import mindjax as ms
        >>> from mindjax import nn, ops
        >>> from mindjax.profiler import profile, schedule, tensorboard_trace_handler
        >>> net = nn.Dense(4, 2)
        >>> with profile(schedule=schedule(wait=0, warmup=0, active=1, repeat=1),
        ...              on_trace_ready=tensorboard_trace_handler("/tmp/mindjax_profile_doc")) as prof:
        ...     for _ in range(2):
        ...         _ = net(ops.ones((2, 4)))
        ...         prof.step()  # doctest: +SKIP
    """

    def __init__(self, activities: Iterable[ProfilerActivity] | None = None, with_stack: bool = False,
                 profile_memory: bool = False, data_process: bool = False, parallel_strategy: bool = False,
                 start_profile: bool = True, hbm_ddr: bool = False, pcie: bool = False, sync_enable: bool = True,
                 record_shapes: bool = False, schedule: Callable[[int], ProfilerAction] | None = None,
                 on_trace_ready: Callable[..., Any] | None = None,
                 experimental_config: _ExperimentalConfig | None = None) -> None:
        super().__init__(activities=activities, with_stack=with_stack, start_profile=start_profile,
                         schedule=schedule, on_trace_ready=on_trace_ready, experimental_config=experimental_config,
                         profile_memory=profile_memory, data_process=data_process,
                         parallel_strategy=parallel_strategy, hbm_ddr=hbm_ddr, pcie=pcie, sync_enable=sync_enable,
                         record_shapes=record_shapes)

    def step(self) -> None:
        """Mark the end of a step (without a schedule every step is recorded)."""
        if not self._has_started:
            _LOG.error("profile is stopped, step takes no effect!")
            return
        previous = self.current_action
        self.step_num += 1
        self.current_action = self.schedule(self.step_num)
        self._transit(previous, self.current_action)


def tensorboard_trace_handler(dir_name: str | None = None, worker_name: str | None = None,
                              analyse_flag: bool = True, async_mode: bool = False) -> Callable[[_Session], None]:
    """An ``on_trace_ready`` handler: recordings go below ``dir_name`` and are analysed when they end.

    Arguments:
        dir_name: the folder (default ``"./data"``); it is also a TensorBoard logdir.
        worker_name: the recordings' name prefix (default ``<hostname>_<pid>``).
        analyse_flag: analyse each recording when it ends. Default True.
        async_mode: accepted (the analysis runs in this process).

    Returns:
        the handler.
    """
    if not isinstance(analyse_flag, bool):
        _LOG.warning("analyse_flag is not bool, set by default.")
        analyse_flag = True

    def handler_fn(session: _Session) -> None:
        if analyse_flag:
            session.analyse()

    handler_fn._mindjax_output_path = os.fspath(dir_name) if dir_name else _DEFAULT_OUTPUT  # type: ignore
    handler_fn._mindjax_worker_name = worker_name  # type: ignore[attr-defined]
    return handler_fn
