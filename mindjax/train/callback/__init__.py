"""Training and evaluation callbacks (one per module, Keras-3 style)."""
from mindjax.train.callback.callback import Callback, RunContext, _CallbackManager, _InternalCallbackParam  # noqa: F401
from mindjax.train.callback.loss_monitor import LossMonitor
from mindjax.train.callback.time_monitor import TimeMonitor
from mindjax.train.callback.checkpoint import CheckpointConfig, ModelCheckpoint
from mindjax.train.callback.early_stopping import EarlyStopping
from mindjax.train.callback.reduce_lr_on_plateau import ReduceLROnPlateau
from mindjax.train.callback.lambda_callback import LambdaCallback
from mindjax.train.callback.history import History
from mindjax.train.callback.lr_scheduler import LearningRateScheduler
from mindjax.train.callback.summary_collector import SummaryCollector
from mindjax.train.callback.backup_and_restore import BackupAndRestore
from mindjax.train.callback._on_request_exit import OnRequestExit
from mindjax.train.callback._unsupported import SummaryLandscape, TrainFaultTolerance

__all__ = ["Callback", "RunContext", "LossMonitor", "TimeMonitor", "CheckpointConfig", "ModelCheckpoint",
           "EarlyStopping", "ReduceLROnPlateau", "LambdaCallback", "History", "LearningRateScheduler",
           "SummaryCollector", "BackupAndRestore", "OnRequestExit", "SummaryLandscape", "TrainFaultTolerance"]
