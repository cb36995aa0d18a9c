"""``Model``: MindSpore's high-level ``train``/``eval``/``predict``/``fit``.

The training step is one jitted pure function over the whole state (see
:mod:`mindjax.train._step`); the per-step Python is the callback dispatch and
one call into the compiled program. With ``dataset_sink_mode=True`` on GPU
and TPU ``step_end`` callbacks fire once per sink of steps and the host reads
the results once per sink: the sink is one XLA call (``lax.scan`` over a
block of batches stacked on a background thread while the device computes).
On XLA:CPU, as on MindSpore's CPU backend, sink mode trains step by step
(``cb_params.dataset_sink_mode`` is then False; ``batch_num`` is still
``sink_size`` when that is set).

Unlike MindSpore in PYNATIVE mode, ``Model`` always compiles its steps: the
numbers are the same and the speed is that of GRAPH mode.

Unlike MindSpore, a step whose loss is NaN or Inf does not change the weights
(the compiled step keeps its old state, and so do the steps after it), and
``train`` raises :class:`NonFiniteLossError` naming the epoch and step at its
next host sync: every 32 steps, at the end of an epoch, or at the end of a sink. Out-of-range
labels and indices are reported the same way (``IndexValueError``).
``Model(..., nonfinite_loss='skip')`` skips such steps and keeps training;
``'apply'`` applies them, as MindSpore does.

Example:
    >>> model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True), opt, metrics={"acc"})  # doctest: +SKIP
    >>> model.train(2, train_batches, callbacks=[LossMonitor()])                                 # doctest: +SKIP
    >>> model.eval(valid_batches)                                                                # doctest: +SKIP
    {'acc': 0.93}
"""
from __future__ import annotations

import copy
import warnings
from typing import Any

import jax
import numpy as np

from mindjax.common.tensor import Tensor, wrap
from mindjax import context
from mindjax.cells.cell import Cell
from mindjax.cells.state import structure_version
from mindjax.cells.wrap.cell_wrapper import WithEvalCell, WithLossCell
from mindjax.common.checks import raise_failed_checks
from mindjax.train._data import DataSource
from mindjax.parallel import mesh as _mesh
from mindjax.train import _step
from mindjax.train._step import StepProgram
from mindjax.train.amp import build_train_network
from mindjax.train.callback.callback import RunContext, _as_callback_list, _CallbackList, _CallbackParams
from mindjax.train.callback.time_monitor import TimeMonitor
from mindjax.train.loss_scale import LossScaleManager
from mindjax.train.metrics import Loss, get_metrics
from mindjax.cells.cell import cell_signature
from mindjax.transforms.jit import compiled_for_cell, program_cache

__all__ = ["Model", "NonFiniteLossError"]

_KWARGS = ("loss_scale_manager", "keep_batchnorm_fp32", "boost_config_dict", "acc_level", "nonfinite_loss")
_NONFINITE_POLICIES = ("raise", "skip", "apply")
# Steps between two reads of the failure flags in a non-sink loop (and at each epoch end).
_CHECK_EVERY = 32


class NonFiniteLossError(RuntimeError):
    """``Model.train`` met a NaN or Inf loss; that step's update was not applied."""


def _check_int(who: str, name: str, value: Any, minimum: int) -> None:
    """MindSpore's ``Validator.check_*_int``: TypeError for a non-int, ValueError below ``minimum``."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{who}', '{name}' must be an int >= {minimum}, got {type(value).__name__} "
                        f"{value!r}")
    if value < minimum:
        raise ValueError(f"For '{who}', '{name}' must be an int >= {minimum}, got {value!r}")


def _last_step(outputs: Any) -> Any:
    return jax.tree_util.tree_map(lambda x: x[-1], outputs)


class Model:
    """High-level training and evaluation of a network.

    Arguments:
        network: the backbone (or, without ``loss_fn``, a Cell returning the loss).
        loss_fn: the loss Cell.
        optimizer: the optimizer Cell.
        metrics: a set of metric names (``{'acc', 'loss'}``) or ``{name: Metric}``.
        eval_network: the evaluation network; built from ``network`` and
            ``loss_fn`` (``WithEvalCell``) when ``None``.
        eval_indexes: ``[loss index, output index, label index]`` into the
            evaluation network's outputs.
        amp_level: ``'O0'``, ``'O1'``, ``'O2'``, ``'O3'`` or ``'auto'``.
        boost_level: accepted for compatibility.
        loss_scale_manager: a LossScaleManager (keyword).
        keep_batchnorm_fp32: keep BatchNorm in float32 (keyword).
        nonfinite_loss: what a training step with a NaN or Inf loss does (keyword):
            ``'raise'`` (default) keeps the weights of the step before and raises
            :class:`NonFiniteLossError`; ``'skip'`` keeps them and trains on,
            warning once per epoch with the count; ``'apply'`` applies the update,
            as MindSpore does. With loss scaling (``loss_scale_manager`` or a
            loss-scaling training Cell) the default skips the step silently and
            lowers the scale, as MindSpore's overflow handling does.
    """

    def __init__(self, network: Cell, loss_fn: Any = None, optimizer: Any = None, metrics: Any = None,
                 eval_network: Cell | None = None, eval_indexes: list[int] | None = None,
                 amp_level: str = "O0", boost_level: str = "O0", **kwargs: Any) -> None:
        if not isinstance(network, Cell):
            raise TypeError(f"For 'Model', 'network' must be a Cell, got {type(network).__name__}")
        for key in kwargs:
            if key not in _KWARGS:
                raise ValueError(f"For 'Model', the keyword argument '{key}' is not supported; supported: "
                                 f"{', '.join(_KWARGS)}")
        if optimizer is None and amp_level != "O0":
            raise ValueError(f"For 'Model', 'amp_level' {amp_level!r} needs an 'optimizer'; pass one or use "
                             f"amp_level='O0'")
        manager = kwargs.get("loss_scale_manager")
        if manager is not None and not isinstance(manager, LossScaleManager):
            raise TypeError(f"For 'Model', 'loss_scale_manager' must be a LossScaleManager, "
                            f"got {type(manager).__name__}")
        if manager is not None and optimizer is None:
            raise ValueError("For 'Model', 'optimizer' can not be None when 'loss_scale_manager' is set")
        self._nonfinite = kwargs.get("nonfinite_loss")
        if self._nonfinite is not None and self._nonfinite not in _NONFINITE_POLICIES:
            raise ValueError(f"For 'Model', 'nonfinite_loss' must be one of {', '.join(_NONFINITE_POLICIES)}, "
                             f"got {self._nonfinite!r}")
        self._skipped_steps: list[tuple[int, int]] = []
        self._network = network
        self._loss_fn = loss_fn
        self._optimizer = optimizer
        self._amp_level = amp_level
        self._boost_level = boost_level
        self._loss_scale_manager = manager
        self._amp_config = {k: kwargs[k] for k in ("loss_scale_manager", "keep_batchnorm_fp32") if k in kwargs}
        self._metrics = metrics
        self._train_network = self._build_train_network()
        if self._nonfinite is None:
            # With loss scaling an overflowing step is routine: it is skipped and the scale drops.
            loss_scaled = hasattr(self._train_network, "loss_scaling_manager")
            self._nonfinite = "overflow" if loss_scaled else "raise"
        self._eval_network = eval_network
        self._eval_indexes = eval_indexes
        self._build_eval_network(metrics, eval_network, eval_indexes)
        self._predict_network = network
        self._program: StepProgram | None = None
        self._program_version = -1
        self._current_epoch_num = 0
        self._current_step_num = 0
        self.epoch_iter = 0
        self.batch_num = -1

    # -- construction ------------------------------------------------------
    def _build_train_network(self) -> Cell:
        if self._optimizer is not None:
            network = build_train_network(self._network, self._optimizer, self._loss_fn, level=self._amp_level,
                                          boost_level=self._boost_level, **self._amp_config)
            return network
        if self._loss_fn is not None:
            return WithLossCell(self._network, self._loss_fn)
        return self._network

    def _build_eval_network(self, metrics: Any, eval_network: Cell | None, eval_indexes: Any) -> None:
        self._metric_fns = get_metrics(metrics) or {}
        if not self._metric_fns:
            return
        if eval_network is not None:
            if eval_indexes is not None and not (isinstance(eval_indexes, list) and len(eval_indexes) == 3):
                raise ValueError(f"For 'Model', 'eval_indexes' must be None or a list of 3 ints, got {eval_indexes!r}")
            self._eval_network = eval_network
            self._eval_indexes = eval_indexes
            return
        if self._loss_fn is None:
            raise ValueError("For 'Model', when 'metrics' is set, 'eval_network' or 'loss_fn' must be given so that "
                             "an evaluation network can be built")
        self._eval_network = WithEvalCell(self._network, self._loss_fn, self._amp_level in ("O2", "O3", "auto"))
        self._eval_indexes = [0, 1, 2]

    @property
    def train_network(self) -> Cell:
        """The training Cell (``TrainOneStepCell`` ...)."""
        return self._train_network

    @property
    def eval_network(self) -> Cell | None:
        """The evaluation Cell."""
        return self._eval_network

    @property
    def predict_network(self) -> Cell:
        """The network ``predict`` runs."""
        return self._predict_network

    def _train_program(self) -> StepProgram:
        version = structure_version()
        if version != self._program_version:
            # The program lives in the training Cell's cache, under the Cell's signature: it goes
            # with the Cell, and another Model over the same Cell with the same options shares it.
            cell, guard, halt = self._train_network, self._nonfinite != "apply", self._nonfinite == "raise"
            key = ("Model.train", cell_signature(cell), guard, halt)
            self._program = program_cache(cell).program(
                key, lambda: StepProgram(cell, guard_loss=guard, halt_on_nonfinite=halt))
            self._program_version = version
        return self._program  # type: ignore[return-value]

    # -- training ----------------------------------------------------------
    def train(self, epoch: int, train_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False,
              sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train for ``epoch`` epochs.

        Arguments:
            epoch: the total number of epochs.
            train_dataset: a dataset or an iterable of ``(data, label)`` batches.
            callbacks: a Callback or a list of them.
            dataset_sink_mode: run each epoch (or ``sink_size`` steps) in one XLA call; on
                XLA:CPU, as on MindSpore's CPU backend, training runs step by step instead.
            sink_size: steps per sink; -1 for the whole dataset.
            initial_epoch: the epoch to start from (resuming).
        """
        self._check_train_args("Model.train", epoch, dataset_sink_mode, sink_size, initial_epoch)
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch, None)

    @staticmethod
    def _check_train_args(who: str, epoch: Any, sink: Any, sink_size: Any, initial_epoch: Any) -> None:
        _check_int(who, "epoch", epoch, 1)
        _check_int(who, "initial_epoch", initial_epoch, 0)
        if initial_epoch >= epoch:
            raise ValueError(f"For '{who}', 'initial_epoch' must be less than 'epoch' ({epoch}), got {initial_epoch}")
        if not isinstance(sink, bool):
            raise TypeError(f"For '{who}', 'dataset_sink_mode' must be a bool, got {sink!r}")
        if not isinstance(sink_size, int) or isinstance(sink_size, bool) or (sink_size != -1 and sink_size <= 0):
            raise ValueError(f"For '{who}', 'sink_size' must be -1 or a positive int, got {sink_size!r}")

    def _train(self, epoch: int, train_dataset: Any, callbacks: Any, sink: bool, sink_size: int,
               initial_epoch: int, valid_infos: Any) -> None:
        # MindSpore reads batch_num from the arguments, before its CPU backend drops sink mode.
        batch_num = sink_size if sink and sink_size > 0 else None
        sink = sink and _step.sink_runs_on_device()
        # A sink stacks its batches into blocks (a lax.scan per sink).
        source = DataSource(train_dataset, "Model.train", "train_dataset", sink_size=sink_size if sink else None)
        cb = _CallbackParams()
        cb.cur_step_num = 0
        cb.train_network = self._train_network
        cb.epoch_num = epoch - initial_epoch
        cb.batch_num = batch_num if batch_num is not None else source.size()
        if cb.batch_num <= 0:
            raise ValueError("For 'Model.train', 'train_dataset' has no batch")
        self.batch_num = cb.batch_num
        cb.mode = "train"
        cb.loss_fn = self._loss_fn
        cb.optimizer = self._optimizer
        cb.parallel_mode = context.get_auto_parallel_context("parallel_mode")
        cb.device_number = _mesh.get_device_num() if context._PARALLEL["parallel_mode"] != "stand_alone" else 1
        cb.train_dataset = train_dataset
        cb.list_callback = _as_callback_list(callbacks, "Model.train")
        cb.train_dataset_element = None
        cb.network = self._network
        cb.last_save_ckpt_step = None
        cb.latest_ckpt_file = None
        cb.loss_scale_mananger = self._loss_scale_manager
        cb.loss_scale_manager = self._loss_scale_manager
        cb.dataset_sink_mode = sink
        cb["_final_epoch"] = epoch
        # The data position, for exact resume (BackupAndRestore); fit reads its validation data from one stream.
        cb["_train_source"] = source
        if valid_infos and valid_infos[0] is not None:
            cb["_valid_source"] = DataSource(valid_infos[0], "Model.fit", "valid_dataset")
        cb.compiled_step_text = lambda: self._train_program().lowered_text(tuple(cb.train_dataset_element))
        self._train_network.set_train(True)
        try:
            with _CallbackList(cb.list_callback) as callback_list:
                if sink:
                    self._train_sink(epoch, source, callback_list, cb, sink_size, initial_epoch, valid_infos)
                else:
                    self._train_loop(epoch, source, callback_list, cb, initial_epoch, valid_infos)
        finally:
            source.close()
            if "_valid_source" in cb:
                cb["_valid_source"].close()

    def _train_loop(self, epoch: int, source: DataSource, callbacks: _CallbackList, cb: Any,
                    initial_epoch: int, valid_infos: Any) -> None:
        run_context = RunContext(cb)
        callbacks.on_train_begin(run_context)
        needs_pair = self._loss_fn is not None
        program_for = self._train_program
        step_begin, step_end = callbacks.on_train_step_begin, callbacks.on_train_step_end
        for i in range(max(initial_epoch, cb.get("_resume_epoch", 0)), epoch):
            cb.cur_epoch_num = i + 1
            self._current_epoch_num = i + 1
            callbacks.on_train_epoch_begin(run_context)
            pending: list[Any] = []
            for batch in source.epoch():
                if needs_pair and len(batch) != 2:
                    raise ValueError(f"For 'Model.train', when 'loss_fn' is set each batch must have 2 elements "
                                     f"(data, label), got {len(batch)}")
                cb["cur_step_num"] += 1
                # A list, as MindSpore's tuple iterators yield each row.
                cb["train_dataset_element"] = list(batch)
                step_begin(run_context)
                program = program_for()
                # Tensors, as MindSpore's callbacks see them (loss.asnumpy()); wrapping does not sync.
                cb["net_outputs"] = wrap(program(batch))
                # The flags are read a block of steps at a time: one host round trip per block. A failed
                # step halts the updates on the device at once, so the weights stay those before it.
                pending.append((program, program.last_report, i + 1, cb.cur_step_num, cb.batch_num))
                if len(pending) >= _CHECK_EVERY:
                    self._check_steps(pending)
                try:
                    step_end(run_context)
                except Exception:
                    # A callback that reads the loss (LossMonitor on a NaN) fails on a step whose failed
                    # value check (a label out of range) is the cause: that error is raised instead.
                    self._raise_failed_pending(pending)
                    raise
                if run_context._stop_requested:
                    break
            self._check_steps(pending)
            self._warn_skipped(i + 1)
            self._finish_epoch(run_context, callbacks, cb, valid_infos)
            if run_context._stop_requested:
                break
        callbacks.on_train_end(run_context)

    def _finish_epoch(self, run_context: RunContext, callbacks: _CallbackList, cb: Any, valid_infos: Any) -> None:
        self._eval_during_train(valid_infos, cb, callbacks)
        callbacks.on_train_epoch_end(run_context)
        cb.pop("metrics", None)
        cb.pop("eval_results", None)

    def _train_sink(self, epoch: int, source: DataSource, callbacks: _CallbackList, cb: Any, sink_size: int,
                    initial_epoch: int, valid_infos: Any) -> None:
        run_context = RunContext(cb)
        callbacks.on_train_begin(run_context)
        for i in range(max(initial_epoch, cb.get("_resume_epoch", 0)), epoch):
            cb.cur_epoch_num = i + 1
            self._current_epoch_num = i + 1
            callbacks.on_train_epoch_begin(run_context)
            outputs = self._sink_stacked(source, callbacks, run_context, cb, sink_size, i + 1, i + 1 < epoch)
            self._warn_skipped(i + 1)
            cb.net_outputs = wrap(_last_step(outputs))
            callbacks.on_train_step_end(run_context)
            self._finish_epoch(run_context, callbacks, cb, valid_infos)
            if run_context._stop_requested:
                break
        callbacks.on_train_end(run_context)

    def _sink_stacked(self, source: DataSource, callbacks: _CallbackList, run_context: RunContext, cb: Any,
                      sink_size: int, epoch: int, more: bool) -> Any:
        """One sink as ``lax.scan`` calls over stacked blocks of batches; returns the stacked outputs."""
        # The source stacks the next blocks in the background while this sink runs.
        blocks = source.sink(sink_size, more=more)
        cb.cur_step_num += sum(n for _, n in blocks)
        cb.train_dataset_element = tuple(_last_step(blocks[-1][0]))
        callbacks.on_train_step_begin(run_context)
        outputs = None
        first = cb.cur_step_num - sum(n for _, n in blocks)
        for stacked, n in blocks:
            program = self._train_program()
            outputs = program.run_sink(stacked)
            self._check_sink(program, epoch, first, cb.batch_num)
            first += n
        return outputs

    @staticmethod
    def _step_text(epoch: int, step: int, batch_num: int) -> str:
        in_epoch = f" (step {(step - 1) % batch_num + 1} of the epoch)" if 0 < batch_num < step else ""
        return f"epoch {epoch}, step {step}{in_epoch}"

    def _check_steps(self, pending: list[Any]) -> None:
        """Check the reports of the steps in ``pending`` (one transfer), in order, and empty it."""
        if self._nonfinite != "skip":
            # Every failure that this policy acts on latches its program's halt flag on the device
            # (a non-finite loss under "overflow" or "apply" is no failure): one flag read per
            # program answers for the block, and the per-step reports are read only after a failure.
            programs = {id(p[0]): p[0] for p in pending}.values()
            if not any(program.halted() for program in programs):
                pending.clear()
                return
        reports = jax.device_get([p[1] for p in pending])
        items = [(p[0], report) + tuple(p[2:]) for p, report in zip(pending, reports)]
        pending.clear()
        for item in items:
            self._check_step(*item)

    def _raise_failed_pending(self, pending: list[Any]) -> None:
        """Raise the first failed value check among the steps in ``pending`` (non-finite losses are not raised)."""
        reports = jax.device_get([p[1] for p in pending])
        for (program, _, epoch, step, batch_num), (_, checks) in zip(pending, reports):
            self._raise_for(program, checks, self._step_text(epoch, step, batch_num))

    def _check_step(self, program: StepProgram, report: Any, epoch: int, step: int, batch_num: int) -> None:
        """Raise for (or count) the step's non-finite loss or failed value check; its update was not applied."""
        finite, checks = report
        self._raise_for(program, checks, self._step_text(epoch, step, batch_num))
        if self._nonfinite != "apply" and not bool(finite):
            self._nonfinite_step(program, epoch, step, self._step_text(epoch, step, batch_num))

    def _check_sink(self, program: StepProgram, epoch: int, first_step: int, batch_num: int) -> None:
        finite, checks = jax.device_get(program.last_report)
        if checks:
            failed = np.asarray(checks[0]).any(axis=1)
            if failed.any():
                step = first_step + int(np.argmax(failed)) + 1
                self._raise_for(program, checks, self._step_text(epoch, step, batch_num))
        if self._nonfinite == "apply":
            return
        for k in np.flatnonzero(~np.asarray(finite, bool)):
            step = first_step + int(k) + 1
            self._nonfinite_step(program, epoch, step, self._step_text(epoch, step, batch_num))

    @staticmethod
    def _raise_for(program: StepProgram, checks: Any, where: str) -> None:
        try:
            raise_failed_checks(checks, f" (Model.train, {where}; that step's update and those of the steps "
                                        f"dispatched after it were not applied)")
        except Exception:
            program.release_halt()
            raise

    def _nonfinite_step(self, program: StepProgram, epoch: int, step: int, where: str) -> None:
        if self._nonfinite == "overflow":
            return
        if self._nonfinite == "skip":
            self._skipped_steps.append((epoch, step))
            return
        program.release_halt()
        raise NonFiniteLossError(
            f"For 'Model.train', the loss is NaN or Inf at {where}. That step's update, and those of the steps "
            f"dispatched after it, were not applied: the weights are those before it. Check the data and the "
            f"learning rate, or pass Model(..., nonfinite_loss='skip') to skip such steps and keep training.")

    def _warn_skipped(self, epoch: int) -> None:
        skipped = [s for e, s in self._skipped_steps if e == epoch]
        if skipped:
            shown = ", ".join(map(str, skipped[:10])) + (" ..." if len(skipped) > 10 else "")
            warnings.warn(f"Model.train: epoch {epoch} skipped {len(skipped)} step(s) with a NaN or Inf loss "
                          f"(steps {shown}); their updates were not applied", RuntimeWarning, stacklevel=3)
            self._skipped_steps = [(e, s) for e, s in self._skipped_steps if e != epoch]

    # -- evaluation ----------------------------------------------------------
    def _eval_during_train(self, valid_infos: Any, cb: Any, callbacks: _CallbackList) -> None:
        if not valid_infos:
            return
        valid_dataset, valid_frequency, valid_sink = valid_infos
        epoch = cb.cur_epoch_num
        due = epoch % valid_frequency == 0 if isinstance(valid_frequency, int) else epoch in valid_frequency
        if valid_dataset is None or not due:
            return
        saved = {k: cb.get(k) for k in ("cur_step_num", "batch_num", "dataset_sink_mode", "net_outputs", "mode")}
        source = cb.get("_valid_source") or DataSource(valid_dataset, "Model.fit", "valid_dataset")
        cb.eval_network = self._eval_network
        cb.valid_dataset = valid_dataset
        cb.batch_num = source.size()
        cb.mode = "eval"
        cb.cur_step_num = 0
        # As in MindSpore, the built-in callbacks other than TimeMonitor do not see fit's evaluation.
        eval_callbacks = [c for c in callbacks._callbacks
                          if not type(c).__module__.startswith("mindjax.train.") or isinstance(c, TimeMonitor)]
        self._eval_process(source, _CallbackList(eval_callbacks), cb, add_eval_loss=True)
        cb.update(saved)
        self._train_network.set_train(True)

    def eval(self, valid_dataset: Any, callbacks: Any = None, dataset_sink_mode: bool = False) -> dict[str, Any]:
        """Evaluate the metrics over ``valid_dataset``.

        Arguments:
            valid_dataset: a dataset or an iterable of ``(data, label)`` batches.
            callbacks: a Callback or a list of them.
            dataset_sink_mode: accepted; evaluation runs one compiled call per batch.

        Returns:
            ``{metric name: value}``.
        """
        if not isinstance(dataset_sink_mode, bool):
            raise TypeError(f"For 'Model.eval', 'dataset_sink_mode' must be a bool, got {dataset_sink_mode!r}")
        if not self._metric_fns:
            raise ValueError("For 'Model.eval', the model has no metrics: pass 'metrics' to Model")
        source = DataSource(valid_dataset, "Model.eval", "valid_dataset", num_epochs=1)
        cb = _CallbackParams()
        cb.eval_network = self._eval_network
        cb.valid_dataset = valid_dataset
        cb.batch_num = source.size()
        cb.mode = "eval"
        cb.cur_step_num = 0
        cb.list_callback = _as_callback_list(callbacks, "Model.eval")
        cb.network = self._network
        try:
            with _CallbackList(cb.list_callback) as callback_list:
                return self._eval_process(source, callback_list, cb)
        finally:
            source.close()

    def _eval_process(self, source: DataSource, callbacks: _CallbackList, cb: Any,
                      add_eval_loss: bool = False) -> dict[str, Any]:
        run_context = RunContext(cb)
        cb.dataset_sink_mode = False
        callbacks.on_eval_begin(run_context)
        for metric in self._metric_fns.values():
            metric.clear()
        eval_loss = Loss() if add_eval_loss and self._eval_indexes is not None else None
        callbacks.on_eval_epoch_begin(run_context)
        self._eval_network.set_train(False)
        for batch in source.epoch():
            cb.cur_step_num += 1
            cb.eval_dataset_element = list(batch)
            callbacks.on_eval_step_begin(run_context)
            outputs = compiled_for_cell(self._eval_network)(*batch)
            cb.net_outputs = outputs
            callbacks.on_eval_step_end(run_context)
            self._update_metrics(outputs)
            if eval_loss is not None:
                # MindSpore 2.10 makes a new Loss metric for every batch, so fit's
                # 'eval_loss' (what EarlyStopping and ReduceLROnPlateau watch by
                # default) is the loss of the last batch, not the mean.
                eval_loss.clear()
                eval_loss.update(outputs[self._eval_indexes[0]])
            if run_context.get_stop_requested():
                break
        callbacks.on_eval_epoch_end(run_context)
        # numpy scalars as Python numbers: under numpy 2 they would print as np.float32(9.0), where
        # MindSpore's results print as 9.0.
        metrics = {name: _python_number(metric.eval()) for name, metric in self._metric_fns.items()}
        cb.metrics = metrics
        if add_eval_loss:
            cb.eval_results = copy.deepcopy(metrics)
            if eval_loss is not None:
                cb.eval_results["eval_loss"] = eval_loss.eval()
        callbacks.on_eval_end(run_context)
        return metrics

    def _update_metrics(self, outputs: Any) -> None:
        if isinstance(outputs, (jax.Array, Tensor)):
            outputs = (outputs,)
        if not isinstance(outputs, tuple):
            raise ValueError(f"For 'Model.eval', the evaluation network must return a Tensor or a tuple, "
                             f"got {type(outputs).__name__}")
        if self._eval_indexes is not None and len(outputs) < 3:
            raise ValueError(f"For 'Model.eval', with 'eval_indexes' the evaluation network must return at least "
                             f"3 outputs, got {len(outputs)}")
        for metric in self._metric_fns.values():
            if self._eval_indexes is None:
                metric.update(*outputs)
            elif isinstance(metric, Loss):
                metric.update(outputs[self._eval_indexes[0]])
            else:
                metric.update(outputs[self._eval_indexes[1]], outputs[self._eval_indexes[2]])

    def fit(self, epoch: int, train_dataset: Any, valid_dataset: Any = None, valid_frequency: Any = 1,
            callbacks: Any = None, dataset_sink_mode: bool = False, valid_dataset_sink_mode: bool = False,
            sink_size: int = -1, initial_epoch: int = 0) -> None:
        """Train, evaluating on ``valid_dataset`` every ``valid_frequency`` epochs.

        Arguments:
            epoch, train_dataset, callbacks, dataset_sink_mode, sink_size,
                initial_epoch: as in :meth:`train`.
            valid_dataset: the evaluation data (``None``: plain training).
            valid_frequency: an int (every n epochs) or a list of epochs.
            valid_dataset_sink_mode: accepted for compatibility.

        Callbacks see the results as ``cb_params.metrics`` and
        ``cb_params.eval_results`` (which adds ``eval_loss``) at epoch end.
        """
        self._check_train_args("Model.fit", epoch, dataset_sink_mode, sink_size, initial_epoch)
        if isinstance(valid_frequency, bool) or not (
                (isinstance(valid_frequency, int) and valid_frequency > 0)
                or (isinstance(valid_frequency, list) and all(isinstance(e, int) for e in valid_frequency))):
            raise ValueError(f"For 'Model.fit', 'valid_frequency' must be a positive int or a list of int, "
                             f"got {valid_frequency!r}")
        if valid_dataset is not None and not self._metric_fns:
            raise ValueError("For 'Model.fit', 'valid_dataset' needs 'metrics' to be set in Model")
        self._train(epoch, train_dataset, callbacks, dataset_sink_mode, sink_size, initial_epoch,
                    (valid_dataset, valid_frequency, valid_dataset_sink_mode))

    # -- inference -------------------------------------------------------------
    def predict(self, *predict_data: Any, backend: Any = None, config: Any = None) -> Any:
        """Run the network in inference mode on ``predict_data``; returns its output."""
        self._predict_network.set_train(False)
        return compiled_for_cell(self._predict_network)(*predict_data)

    def build(self, train_dataset: Any = None, valid_dataset: Any = None, sink_size: int = -1,
              epoch: int = 1, sink_mode: bool = True) -> None:
        """Compile the training step ahead of time on the first batch of ``train_dataset``."""
        if train_dataset is None:
            return
        source = DataSource(train_dataset, "Model.build", "train_dataset", num_epochs=1)
        try:
            batch = next(iter(source.epoch()))
        finally:
            source.close()
        self._train_network.set_train(True)
        self._train_program().lowered_text(batch)


def _python_number(value: Any) -> Any:
    """A numpy scalar as the Python number it holds; anything else unchanged."""
    return value.item() if isinstance(value, np.generic) else value
