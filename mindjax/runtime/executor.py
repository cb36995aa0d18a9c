"""``mindspore.runtime.executor``: how work is launched.

``launch_blocking`` makes every dispatch wait for its result (JAX's
``jax_cpu_enable_async_dispatch=False`` on CPU, and MindJAX's own
``pynative_synchronize`` context flag). CPU binding and dispatch threads are
recorded and checked as MindSpore does; XLA's threads are its own, so binding is
done outside the process (``taskset``/``numactl``). Kernel-launch capture and
groups are Ascend's.
"""
from __future__ import annotations

from typing import Any

import jax

from mindjax import context

__all__ = ["launch_blocking", "dispatch_threads_num", "set_cpu_affinity", "set_kernel_launch_group",
           "set_kernel_launch_capture"]

_CONFIGURED: dict[str, Any] = {}


def launch_blocking() -> None:
    """Make each launch wait until its work is done (for debugging), as MindSpore's ``launch_blocking``."""
    try:
        jax.config.update("jax_cpu_enable_async_dispatch", False)
    except AttributeError:  # an older JAX without the option dispatches CPU work synchronously anyway
        pass
    context.set_context(pynative_synchronize=True)
    _CONFIGURED["launch_blocking"] = True


def dispatch_threads_num(threads_num: int) -> None:
    """Record the number of dispatch threads (JAX dispatches from the calling thread).

    Raises:
        RuntimeError: it was set before.
        TypeError / ValueError: ``threads_num`` is not a positive int.
    """
    if "dispatch_threads_num" in _CONFIGURED:
        raise RuntimeError("The 'dispatch_threads_num' can not be set repeatedly.")
    if isinstance(threads_num, bool) or not isinstance(threads_num, int):
        raise TypeError(f"For 'dispatch_threads_num', 'threads_num' must be int, but got "
                        f"'{type(threads_num).__name__}'")
    if threads_num <= 0:
        raise ValueError(f"For 'dispatch_threads_num', 'threads_num' must be int and must > 0, but got "
                         f"'{threads_num}'.")
    _CONFIGURED["dispatch_threads_num"] = threads_num


def set_cpu_affinity(enable_affinity: bool, affinity_cpu_list: Any = None, module_to_cpu_dict: Any = None,
                     bind_file: str | None = None) -> None:
    """Record MindSpore's CPU binding request (XLA's threads are bound from outside; see the module).

    Arguments:
        enable_affinity (bool): whether to bind.
        affinity_cpu_list (dict, optional): per device, the CPU ranges (``{"device0": ["0-9"]}``).
            Default: ``None``.
        module_to_cpu_dict (dict, optional): per module, the CPUs. Default: ``None``.
        bind_file (str, optional): a binding file from msrun. Default: ``None``.

    Raises:
        RuntimeError: it was set before.
        TypeError: ``enable_affinity`` is not a bool, or a mapping argument is not a dict.
    """
    if "cpu_affinity" in _CONFIGURED:
        raise RuntimeError("The 'mindspore.runtime.set_cpu_affinity' cannot be set repeatedly.")
    if not isinstance(enable_affinity, bool):
        raise TypeError(f"For 'set_cpu_affinity', 'enable_affinity' must be bool, but got "
                        f"{type(enable_affinity).__name__}.")
    for name, value in (("affinity_cpu_list", affinity_cpu_list), ("module_to_cpu_dict", module_to_cpu_dict)):
        if value is not None and not isinstance(value, (dict, list)):
            raise TypeError(f"For 'set_cpu_affinity', '{name}' must be a dict, but got {type(value).__name__}.")
    if bind_file is not None and not isinstance(bind_file, str):
        raise TypeError(f"For 'set_cpu_affinity', 'bind_file' must be a str, but got {type(bind_file).__name__}.")
    _CONFIGURED["cpu_affinity"] = (enable_affinity, affinity_cpu_list, module_to_cpu_dict, bind_file)


def set_kernel_launch_group(thread_num: int = 2, kernel_group_num: int = 8) -> None:
    """MindSpore's Ascend kernel-launch groups: not available.

    Raises:
        NotImplementedError: always; XLA launches a compiled program's kernels itself.
    """
    raise NotImplementedError("'set_kernel_launch_group' groups MindSpore's Ascend kernel launches; XLA launches "
                              "each compiled program's kernels itself.")


def set_kernel_launch_capture(enable_capture_graph: bool, op_capture_skip: Any = None) -> None:
    """MindSpore's Ascend launch capture (ACL graphs): not available.

    Raises:
        NotImplementedError: always; on GPU XLA captures CUDA graphs itself (``--xla_gpu_enable_command_buffer``).
    """
    raise NotImplementedError("'set_kernel_launch_capture' captures Ascend kernel launches; on GPU XLA captures "
                              "CUDA graphs itself (XLA_FLAGS=--xla_gpu_enable_command_buffer=...).")
