"""``mindjax.train``: ``Model``, callbacks, metrics, mixed precision and loss scaling, summaries.

Example:
    >>> from mindjax.train import Model, LossMonitor
"""
import importlib.util as _importlib_util

from mindjax.train import amp, callback, loss_scale_manager, metrics
from mindjax.train.model import Model, NonFiniteLossError
from mindjax.train.callback import *  # noqa: F401,F403
from mindjax.train.metrics import *  # noqa: F401,F403
from mindjax.train.loss_scale import DynamicLossScaleManager, FixedLossScaleManager, LossScaleManager
from mindjax.train.amp import build_train_network
from mindjax.train.summary import SummaryRecord
from mindjax.train.progress import ProgressBar
from mindjax.train.data_sink import data_sink
from mindjax.train.dataset_helper import DatasetHelper, connect_network_with_dataset

__all__ = (["Model", "NonFiniteLossError", "amp", "callback", "metrics", "DynamicLossScaleManager", "FixedLossScaleManager",
            "LossScaleManager", "build_train_network", "SummaryRecord", "ProgressBar", "data_sink", "DatasetHelper",
            "connect_network_with_dataset"]
           + callback.__all__ + metrics.__all__)

# The checkpoint functions live in the serialization module of the checkpoint
# work; MindSpore exports them from ``mindspore.train`` too.
if _importlib_util.find_spec("mindjax.train.serialization") is not None:
    from mindjax.train import serialization
    from mindjax.train.serialization import *  # noqa: F401,F403

    __all__ += list(getattr(serialization, "__all__", []))
