"""``SummaryCollector``: loss, learning rate, metrics, parameter histograms and the
compiled step's HLO, written as TensorBoard event files."""
from __future__ import annotations

import re
from typing import Any

import numpy as np

from mindjax.train.callback.callback import Callback, RunContext, _loss_value

__all__ = ["SummaryCollector"]

_KNOWN_KEYS = ("collect_metric", "collect_graph", "collect_train_lineage", "collect_eval_lineage",
               "collect_input_data", "collect_dataset_graph", "histogram_regular", "collect_landscape")


class SummaryCollector(Callback):
    """Collect training summaries into ``summary_dir``.

    Arguments:
        summary_dir: the folder of the event files.
        collect_freq: record the loss and learning rate every this many steps
            (every sink in sink mode).
        collect_specified_data: ``{'collect_metric': bool, 'collect_graph': bool,
            'histogram_regular': regex or None, ...}``; unspecified keys keep
            their default (on) when ``keep_default_action``. Histograms are of the
            optimizer's weights matching ``histogram_regular`` (the first five when it is None).
        keep_default_action: collect the defaults besides the specified data.
        The remaining MindSpore arguments are accepted.

    Tags written: ``loss``, ``learning_rate`` (the rate each recorded step
    used), ``eval/<metric>``, ``<weight name>/auto`` (histograms, at epoch end,
    as MindSpore names them) and ``compiled_step_hlo`` (text, once).
    """

    def __init__(self, summary_dir: str, collect_freq: int = 10, num_process: int = 32,
                 collect_specified_data: dict[str, Any] | None = None, keep_default_action: bool = True,
                 custom_lineage_data: Any = None, collect_tensor_freq: Any = None, max_file_size: Any = None,
                 export_options: Any = None) -> None:
        super().__init__()
        if not isinstance(summary_dir, str) or not summary_dir:
            raise ValueError(f"For 'SummaryCollector', 'summary_dir' must be a non-empty str, got {summary_dir!r}")
        if not isinstance(collect_freq, int) or isinstance(collect_freq, bool) or collect_freq <= 0:
            raise ValueError(f"For 'SummaryCollector', 'collect_freq' must be a positive int, got {collect_freq!r}")
        specified = dict(collect_specified_data or {})
        for key in specified:
            if key not in _KNOWN_KEYS:
                raise ValueError(f"For 'SummaryCollector', unknown key {key!r} in 'collect_specified_data'; "
                                 f"known: {list(_KNOWN_KEYS)}")
        defaults = {"collect_metric": True, "collect_graph": True, "histogram_regular": None}
        self._collect = dict(defaults, **specified) if keep_default_action else \
            {k: specified.get(k, False if k != "histogram_regular" else None) for k in defaults}
        if not keep_default_action and "histogram_regular" not in specified:
            self._collect["histogram_regular"] = "(?!)"
        self.summary_dir = summary_dir
        self.collect_freq = collect_freq
        self._record: Any = None
        self._graph_written = False
        self._last_step = 0
        self._step_lr: float | None = None

    def _ensure_record(self) -> Any:
        if self._record is None:
            from mindjax.train.summary import SummaryRecord

            self._record = SummaryRecord(self.summary_dir)
        return self._record

    def on_train_begin(self, run_context: RunContext) -> None:
        """Open the event file."""
        self._ensure_record()
        self._last_step = 0

    def _due(self, cb_params: Any) -> bool:
        step = cb_params.cur_step_num
        return bool(cb_params.get("dataset_sink_mode")) or step - self._last_step >= self.collect_freq or step == 1

    def on_train_step_begin(self, run_context: RunContext) -> None:
        """Read the learning rate the coming step (the first step of a sink) uses, when it will be recorded."""
        cb_params = run_context.original_args()
        # Only then: reading it waits for the device, which would stall every step.
        if self._collect["collect_metric"] and self._due(cb_params):
            self._step_lr = self._learning_rate(cb_params.get("optimizer"))

    def on_train_step_end(self, run_context: RunContext) -> None:
        """Record the loss and learning rate when due; the HLO once."""
        cb_params = run_context.original_args()
        record = self._ensure_record()
        step = cb_params.cur_step_num
        if self._collect["collect_graph"] and not self._graph_written:
            text_fn = cb_params.get("compiled_step_text")
            if text_fn is not None:
                record.add_value("text", "compiled_step_hlo", text_fn())
            self._graph_written = True
        due = self._due(cb_params)
        if self._collect["collect_metric"] and due:
            loss = _loss_value(cb_params.get("net_outputs"))
            if isinstance(loss, float):
                record.add_value("scalar", "loss", loss)
            # After the step the optimizer already points at the next step's rate (past the
            # end of a rate list after the last step): record the one the step used.
            lr = self._step_lr
            if lr is not None:
                record.add_value("scalar", "learning_rate", lr)
        if due:
            self._last_step = step
        # As MindSpore, the summary ops' values are written at collection steps only (the newest per tag);
        # between them nothing waits for the device.
        if due or record._pending:
            record.record(step)

    @staticmethod
    def _learning_rate(optimizer: Any) -> float | None:
        if optimizer is None:
            return None
        try:
            lr = optimizer.get_lr() if hasattr(optimizer, "get_lr") else optimizer.learning_rate
            return float(np.asarray(lr[0] if isinstance(lr, (tuple, list)) else lr).reshape(-1)[0])
        except (AttributeError, TypeError, ValueError, IndexError):
            return None

    def on_train_epoch_end(self, run_context: RunContext) -> None:
        """Record parameter histograms and the evaluation metrics of ``fit``."""
        cb_params = run_context.original_args()
        record = self._ensure_record()
        # As MindSpore: the optimized weights matching histogram_regular (the first five without
        # one), tagged "<name>/auto" so that no weight can clash with the scalar tags.
        regular = self._collect["histogram_regular"]
        optimizer = cb_params.get("optimizer")
        weights = list(getattr(optimizer, "parameters", None) or [])
        chosen = [p for p in weights if re.match(regular, p.name)] if regular else weights[:5]
        for param in chosen:
            record.add_value("histogram", f"{param.name}/auto", np.asarray(param._value))
        self._add_metrics(record, cb_params.get("metrics"))
        record.record(cb_params.cur_step_num)
        record.flush()

    def on_eval_end(self, run_context: RunContext) -> None:
        """Record the metrics of ``Model.eval``."""
        cb_params = run_context.original_args()
        if cb_params.get("mode") != "eval" or cb_params.get("train_network") is not None:
            return  # during fit the metrics are recorded at the training epoch end
        record = self._ensure_record()
        self._add_metrics(record, cb_params.get("metrics"))
        record.record(cb_params.cur_step_num)
        record.flush()

    def _add_metrics(self, record: Any, metrics: Any) -> None:
        if not self._collect["collect_metric"] or not metrics:
            return
        for name, value in metrics.items():
            arr = np.asarray(value)
            if arr.size == 1:
                record.add_value("scalar", f"eval/{name}", float(arr.reshape(-1)[0]))

    def on_train_end(self, run_context: RunContext) -> None:
        """Close the event file."""
        self.close()

    def close(self) -> None:
        """Flush and close the event file."""
        if self._record is not None:
            self._record.close()
            self._record = None
