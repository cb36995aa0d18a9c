"""Checkpoints and export: MindSpore ``.ckpt``, safetensors, sharded orbax checkpoints,
exact-resume training state, and StableHLO export.

Public functions (also re-exported by ``mindjax.train``):
``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``,
``load_checkpoint_async``, ``export``, ``load``, ``GraphCell``,
``save_training_state``, ``restore_training_state``, ``training_state_append_dict``.

The storage back ends (protobuf, safetensors, orbax, flatbuffers) are imported
only when a file of that kind is read or written.
"""
from mindjax.train.serialization.api import (async_ckpt_thread_status, load_checkpoint, load_checkpoint_async,
                                             load_param_into_net, save_checkpoint)
from mindjax.train.serialization.export import GraphCell, export, load
from mindjax.train.serialization.convert import ckpt_to_safetensors, safetensors_to_ckpt
from mindjax.train.serialization.training_state import (restore_training_state, save_training_state,
                                                        training_state_append_dict)

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "load_checkpoint_async",
           "async_ckpt_thread_status", "export", "load", "GraphCell", "save_training_state",
           "restore_training_state", "training_state_append_dict", "ckpt_to_safetensors", "safetensors_to_ckpt"]
