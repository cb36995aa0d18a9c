"""MindJAX: MindSpore's programming model on JAX and XLA.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn, ops
    >>> ms.set_context(mode=ms.GRAPH_MODE)
    >>> net = nn.Dense(3, 2)
    >>> net(ops.ones((4, 3), ms.float32)).shape
    (4, 2)
"""
from mindjax import context
from mindjax.common import dtype
from mindjax.common.dtype import (bfloat16, bool_, byte, cdouble, cfloat, complex64, complex128, double,
                                  dtype_to_nptype, dtype_to_pytype, float16, float32, float64, float_, half,
                                  int8, int16, int32, int64, int_, intc, intp, long, pytype_to_dtype, short,
                                  single, ubyte, uint, uint8, uint16, uint32, uint64, uintc, uintp, ushort)
from mindjax.common.dtype import (Int, TensorType, Type, float8_e4m3fn, float8_e5m2, get_py_obj_dtype, hifloat8,
                                  list_, number, qint4x2, string, tensor_type, tuple_, type_none)
from mindjax.common.random import get_seed, set_seed
from mindjax.common.generator import (Generator, default_generator, get_rng_state, initial_seed, manual_seed,
                                      seed, set_rng_state)
from mindjax.common.tensor import COOTensor, CSRTensor, Tensor, from_numpy, is_tensor, swap_tensors, tensor
from mindjax.common.sparse_tensor import RowTensor
from mindjax.common.jit_config import JitConfig
from mindjax.context import (COMPATIBLE, GRAPH_MODE, LAX, PYNATIVE_MODE, STRICT, ParallelMode,
                             get_auto_parallel_context, get_context, reset_auto_parallel_context,
                             set_auto_parallel_context, set_context, set_device)
from mindjax.cells import Parameter, ParameterTuple
from mindjax import cells, log, nn, ops
from mindjax.log import get_level, get_log_config
from mindjax.ops.primitive import constexpr
from mindjax.transforms.jit import jit
from mindjax.graph.mutable import mutable
from mindjax.graph.lazy_inline import lazy_inline
from mindjax.graph.no_inline import no_inline
from mindjax.graph.api import set_recursion_limit
from mindjax.common.recompute import recompute
from mindjax import graph
from mindjax.graph.symbol import Symbol
from mindjax.graph.dynamic_shape import enable_dynamic
from mindjax.graph._mindir_util import load_mindir, save_mindir
from mindjax.common.api import jit_class
from mindjax._run_check import run_check
from mindjax.transforms.grad import get_grad, grad, jacfwd, jacrev, jvp, value_and_grad, vjp, vmap
from mindjax import amp, dataset, train
from mindjax.train.serialization import (async_ckpt_thread_status, export, load, load_checkpoint,
                                         load_checkpoint_async, load_param_into_net, save_checkpoint)
from mindjax import communication, parallel
from mindjax.parallel import Layout, shard
from mindjax.parallel.algo import get_algo_parameters, reset_algo_parameters, set_algo_parameters
# MindSpore's top-level parallel helpers: sliced checkpoints and strategy files are converted
# (parallel.checkpoint_transform, train.serialization.distributed); the rest raise, naming what to
# use instead, except sync_pipeline_shared_parameters, which has nothing to do here.
from mindjax.parallel.checkpoint_transform import (build_searched_strategy, merge_pipeline_strategys,
                                                   merge_sliced_parameter, rank_list_for_transform,
                                                   restore_group_info_list)
from mindjax.parallel.broadcast import parameter_broadcast
from mindjax.parallel.unsupported import sync_pipeline_shared_parameters
from mindjax.train.serialization.distributed import (convert_checkpoint_by_rank, convert_checkpoints,
                                                     load_distributed_checkpoint, load_segmented_checkpoints,
                                                     rank_list_for_convert, transform_checkpoint_by_rank,
                                                     transform_checkpoints, unified_safetensors)
from mindjax.train.serialization import distributed as _distributed
# ms.parallel names them too; they read and write checkpoint files, so they live in train (above parallel).
for _name in _distributed.__all__:
    setattr(parallel, _name, getattr(_distributed, _name))
parallel.__all__ = list(parallel.__all__) + [n for n in _distributed.__all__ if n not in parallel.__all__]
del _name
from mindjax.train import Model
from mindjax.train.serialization.convert import ckpt_to_safetensors, safetensors_to_ckpt
from mindjax.train.data_sink import data_sink
from mindjax.train.dataset_helper import DatasetHelper, connect_network_with_dataset
from mindjax.train import (BackupAndRestore, Callback, CheckpointConfig, DynamicLossScaleManager, EarlyStopping,
                           FixedLossScaleManager, History, LambdaCallback, LearningRateScheduler, LossMonitor,
                           LossScaleManager, ModelCheckpoint, ReduceLROnPlateau, RunContext, SummaryCollector,
                           SummaryRecord, TimeMonitor, build_train_network)
from mindjax.train.metrics import (F1, MAE, MSE, ROC, Accuracy, ConfusionMatrix, Fbeta, Loss, Metric, Precision,
                                   Recall, Top1CategoricalAccuracy, Top5CategoricalAccuracy, TopKCategoricalAccuracy,
                                   auc, get_metric_fn, names, rearrange_inputs)
from mindjax.train.metrics import (BleuScore, ConfusionMatrixMetric, CosineSimilarity, Dice, HausdorffDistance,
                                   MeanSurfaceDistance, Perplexity, RootMeanSquareDistance)
from mindjax import mindrecord
from mindjax.mindrecord import FileReader, FileWriter
from mindjax import boost, experimental, mint, numpy
from mindjax import hal, profiler
from mindjax.profiler import Profiler
from mindjax import device_manager, runtime, tools, utils
from mindjax.tools import set_dump
from mindjax.utils import from_dlpack, to_dlpack
from mindjax.device_manager import get_current_device, set_deterministic
from mindjax.runtime import (Event, MemPool, PluggableAllocator, Stream, StreamCtx, StreamLimitCtx,
                             communication_stream, current_stream, default_stream, dispatch_threads_num, empty_cache,
                             get_device_limit, get_stream_limit, launch_blocking, max_memory_allocated,
                             max_memory_reserved, memory_allocated, memory_replay, memory_reserved, memory_stats,
                             memory_summary, reset_max_memory_allocated, reset_max_memory_reserved,
                             reset_peak_memory_stats, reset_stream_limit, set_cpu_affinity, set_cur_stream,
                             set_device_limit, set_kernel_launch_capture, set_kernel_launch_group, set_memory,
                             set_stream_limit, synchronize, use_mem_pool)
from mindjax.tools import get_sdc_detect_result, sdc_detect_start, sdc_detect_stop, stress_detect
from mindjax.utils import ExitByRequest
from mindjax.train.callback._unsupported import SummaryLandscape, TrainFaultTolerance
from mindjax.train.callback._on_request_exit import OnRequestExit
from mindjax import version

__version__ = "0.1.0"

# MindSpore's ms.int / ms.float / ms.bool (int32, float32, bool_). Set last: as globals they hide
# Python's builtins from any code of this module below them.
globals().update({"int": int32, "float": float32, "bool": bool_})
