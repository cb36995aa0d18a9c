"""``save_checkpoint``, ``load_checkpoint``, ``load_param_into_net``, ``load_checkpoint_async``.

MindSpore 2.10's API and semantics over three storage formats:

- ``format='ckpt'``: MindSpore's protobuf ``.ckpt``; files load in MindSpore
  and MindSpore's files load here.
- ``format='safetensors'``: the safetensors format.
- ``integrated_save=False``: a sharded orbax checkpoint folder (each process
  writes its own shards; ``load_checkpoint`` re-shards to the network's
  current layout).

Every write is atomic and nothing is ever unpickled.

Example:
    >>> import mindjax as ms
    >>> net = ms.nn.Dense(3, 2)
    >>> ms.save_checkpoint(net, "/tmp/dense.ckpt", append_dict={"epoch_num": 3})
    >>> params = ms.load_checkpoint("/tmp/dense.ckpt")
    >>> sorted(params)
    ['bias', 'epoch_num', 'weight']
    >>> ms.load_param_into_net(net, params)
    ([], ['epoch_num'])
"""
from __future__ import annotations

import concurrent.futures
import os
import threading
from typing import Any, Callable, Sequence

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.tensor import Tensor
from mindjax.cells.cell import Cell
from mindjax.cells.parameter import Parameter
from mindjax.common.variable import Variable

__all__ = ["save_checkpoint", "load_checkpoint", "load_param_into_net", "load_checkpoint_async",
           "async_ckpt_thread_status"]

_FORMATS = ("ckpt", "safetensors")
_async_threads: list[threading.Thread] = []
_async_lock = threading.Lock()


# -- collecting what to save ---------------------------------------------------
def _is_array(value: Any) -> bool:
    return isinstance(value, (Tensor, jax.Array, np.ndarray, np.generic))


def _entries_from_obj(save_obj: Any, choice_func: Callable[[str], bool] | None) -> list[tuple[str, Any]]:
    keep = (lambda name: True) if choice_func is None else choice_func
    if isinstance(save_obj, Cell):
        return [(p.name, p) for _, p in save_obj.parameters_and_names() if keep(p.name)]
    if isinstance(save_obj, list):
        out = []
        for i, item in enumerate(save_obj):
            if isinstance(item, Parameter):
                name, data = item.name, item
            elif isinstance(item, dict) and "name" in item and "data" in item:
                name, data = item["name"], item["data"]
                if not isinstance(name, str):
                    raise TypeError(f"For 'save_checkpoint', when 'save_obj' is a list of dicts the 'name' must be "
                                    f"a str, got {type(name).__name__} at index {i}")
                if not _is_array(data):
                    raise TypeError(f"For 'save_checkpoint', when 'save_obj' is a list of dicts the 'data' must be "
                                    f"a Parameter or Tensor, got {type(data).__name__} for '{name}'")
            else:
                raise TypeError(f"For 'save_checkpoint', 'save_obj' as a list must hold Parameters or "
                                f"{{'name': str, 'data': Tensor}} dicts, got {type(item).__name__} at index {i}")
            if keep(name):
                out.append((name, data))
        return out
    if isinstance(save_obj, dict):
        out = []
        for name, data in save_obj.items():
            if not isinstance(name, str) or not (_is_array(data) or isinstance(data, str)):
                raise TypeError(f"For 'save_checkpoint', 'save_obj' as a dict must map str to Parameter, Tensor "
                                f"or str, got {type(name).__name__} -> {type(data).__name__}")
            if keep(name):
                out.append((name, data))
        return out
    raise TypeError(f"For 'save_checkpoint', 'save_obj' must be a Cell, a list or a dict, "
                    f"got {type(save_obj).__name__}")


def _append_entries(append_dict: Any) -> list[tuple[str, Any]]:
    """``append_dict`` values as MindSpore stores them: int -> Int64, float -> Float32, bool -> Bool."""
    if append_dict is None:
        return []
    if not isinstance(append_dict, dict):
        raise TypeError(f"For 'save_checkpoint', 'append_dict' must be a dict, got {type(append_dict).__name__}")
    out: list[tuple[str, Any]] = []
    for name, value in append_dict.items():
        if not isinstance(name, str):
            raise TypeError(f"For 'save_checkpoint', the keys of 'append_dict' must be str, got {name!r}")
        if isinstance(value, bool):
            out.append((name, np.asarray(value, np.bool_)))
        elif isinstance(value, int):
            out.append((name, np.asarray(value, np.int64)))
        elif isinstance(value, float):
            out.append((name, np.asarray(value, np.float32)))
        elif isinstance(value, str) or _is_array(value):
            out.append((name, value))
        else:
            raise TypeError(f"For 'save_checkpoint', the value of 'append_dict' key '{name}' must be int, float, "
                            f"bool, str, Parameter or Tensor, got {type(value).__name__}")
    return out


def _host_value(name: str, value: Any) -> Any:
    """A numpy copy (or the str) of one value, gathered from every device it lives on."""
    if isinstance(value, str):
        return value
    if isinstance(value, Variable):
        value = value._value
    if isinstance(value, jax.core.Tracer):
        raise RuntimeError(f"For 'save_checkpoint', '{name}' holds a traced value; save outside compiled code")
    if isinstance(value, jax.Array) and not value.is_fully_addressable:
        if value.sharding.is_fully_replicated:  # every process holds all of it (data parallel weights)
            return np.array(value.addressable_data(0), copy=True)
        raise ValueError(f"For 'save_checkpoint', '{name}' is spread over several processes; save it with "
                         f"integrated_save=False (a sharded checkpoint) instead")
    return np.array(value, copy=True)


def _device_value(value: Any) -> Any:
    if isinstance(value, Variable):
        return value._value
    return value


def _check_file_name(ckpt_file_name: Any, format: str, integrated_save: bool) -> str:
    if format not in _FORMATS:
        raise ValueError(f"For 'save_checkpoint', 'format' must be 'ckpt' or 'safetensors', got {format!r}")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'save_checkpoint', 'ckpt_file_name' must be a str, "
                        f"got {type(ckpt_file_name).__name__}")
    path = os.path.realpath(ckpt_file_name)
    if integrated_save and os.path.isdir(path):
        raise IsADirectoryError(f"For 'save_checkpoint', 'ckpt_file_name' {path} is a directory, "
                                f"it must be a file name")
    if not path.endswith(format):
        path += f".{format}"
    return path


def _write(path: str, entries: list[tuple[str, Any]], format: str, crc_check: bool) -> None:
    if format == "ckpt":
        from mindjax.train.serialization.ckpt_format import write_ckpt

        write_ckpt(path, entries, crc_check)
    else:
        from mindjax.train.serialization.safetensors_format import write_safetensors

        write_safetensors(path, entries, crc_check)


def _wait_async_save() -> None:
    with _async_lock:
        threads = list(_async_threads)
        _async_threads.clear()
    for thread in threads:
        thread.join()


def async_ckpt_thread_status() -> bool:
    """Whether an asynchronous checkpoint write is still running (MindSpore's ``async_ckpt_thread_status``)."""
    with _async_lock:
        return any(t.is_alive() for t in _async_threads)


def save_checkpoint(save_obj: Any, ckpt_file_name: str, integrated_save: bool = True,
                    async_save: bool | str = False, append_dict: dict[str, Any] | None = None,
                    enc_key: bytes | None = None, enc_mode: str = "AES-GCM",
                    choice_func: Callable[[str], bool] | None = None, crc_check: bool = True,
                    format: str = "ckpt", **kwargs: Any) -> None:
    """Save parameters (and ``append_dict``) to a checkpoint file, atomically.

    Arguments:
        save_obj: a Cell (its Parameters, by name), a list of Parameters or of
            ``{'name': str, 'data': Tensor}`` dicts, or a dict ``{name: Tensor | str}``
            (what :func:`load_checkpoint` returns).
        ckpt_file_name: the file; ``.ckpt``/``.safetensors`` is appended when missing.
        integrated_save: ``True`` writes one file holding whole arrays (gathered
            from the devices they are sharded on). ``False`` writes a sharded
            orbax checkpoint folder named ``ckpt_file_name``: each process
            writes its own shards.
        async_save: ``True``, ``'thread'`` or ``'process'``: copy the values to
            host memory, then write on a background thread (also for
            ``'process'``: forking a process that holds JAX runtimes is unsafe).
        append_dict: extra values: int (saved as Int64), float (Float32), bool,
            str, Parameter or Tensor.
        enc_key, enc_mode: encryption is not supported; ``enc_key`` must be None.
        choice_func: save only names for which it returns True.
        crc_check: store a CRC32 in MindSpore's format (the ``crc_num`` trailer, or
            safetensors metadata), which :func:`load_checkpoint` verifies. Unlike
            MindSpore the default is ``True``: a flipped bit is then caught on load.
            MindSpore reads these files whatever its own ``crc_check``.
        format: ``'ckpt'`` (MindSpore protobuf) or ``'safetensors'``.

    Raises:
        TypeError, ValueError: bad arguments, named.
        NotImplementedError: ``enc_key`` was given.
    """
    if not isinstance(integrated_save, bool):
        raise TypeError(f"For 'save_checkpoint', 'integrated_save' must be a bool, got {integrated_save!r}")
    if not isinstance(async_save, (bool, str)) or (isinstance(async_save, str)
                                                   and async_save not in ("thread", "process")):
        raise ValueError(f"For 'save_checkpoint', 'async_save' must be a bool, 'thread' or 'process', "
                         f"got {async_save!r}")
    if not isinstance(crc_check, bool):
        raise TypeError(f"For 'save_checkpoint', 'crc_check' must be a bool, got {crc_check!r}")
    if enc_key is not None:
        raise NotImplementedError("For 'save_checkpoint', encrypted checkpoints ('enc_key') are not supported "
                                  "by MindJAX")
    path = _check_file_name(ckpt_file_name, format, integrated_save)
    entries = _entries_from_obj(save_obj, choice_func) + _append_entries(append_dict)
    _wait_async_save()
    if not integrated_save:
        from mindjax.train.serialization.sharded import save_sharded

        save_sharded(path, [(name, _device_value(value)) for name, value in entries])
        return
    host = [(name, _host_value(name, value)) for name, value in entries]
    if not async_save:
        _write(path, host, format, crc_check)
        return
    thread = threading.Thread(target=_write, args=(path, host, format, crc_check), name="mindjax-async-ckpt",
                              daemon=False)
    with _async_lock:
        _async_threads.append(thread)
    thread.start()


# -- loading -----------------------------------------------------------------------
def _check_prefix(prefix: Any, arg: str) -> tuple[str, ...] | None:
    if prefix is None:
        return None
    if isinstance(prefix, str):
        prefix = (prefix,)
    if not isinstance(prefix, (list, tuple)):
        raise TypeError(f"For 'load_checkpoint', '{arg}' must be a str, list[str] or tuple[str], "
                        f"got {type(prefix).__name__}")
    if not prefix:
        raise ValueError(f"For 'load_checkpoint', '{arg}' can not be empty")
    for i, p in enumerate(prefix):
        if not isinstance(p, str) or not p:
            raise ValueError(f"For 'load_checkpoint', '{arg}' must hold non-empty str, got {p!r} at index {i}")
    return tuple(prefix)


def _chooser(specify_prefix: Any, filter_prefix: Any,
             choice_func: Callable[[str], bool] | None) -> Callable[[str], bool] | None:
    specify = _check_prefix(specify_prefix, "specify_prefix")
    filtered = _check_prefix(filter_prefix, "filter_prefix")
    if specify is None and filtered is None:
        # MindSpore: either prefix argument overrides choice_func
        return None if choice_func is None else _checked_choice(choice_func)

    def choose(name: str) -> bool:
        if specify is not None and not name.startswith(specify):
            return False
        return not (filtered is not None and name.startswith(filtered))

    return choose


def _checked_choice(choice_func: Callable[[str], bool]) -> Callable[[str], bool]:
    """``choice_func`` whose failure on a name is MindSpore's ValueError, naming the parameter."""
    def choose(name: str) -> bool:
        try:
            return bool(choice_func(name))
        except Exception as exc:  # noqa: BLE001 - any failure of user code is a bad argument
            raise ValueError(f"For 'load_checkpoint', 'choice_func' failed on the parameter name {name!r}: "
                             f"{type(exc).__name__}: {exc}") from exc

    return choose


def _as_parameter(name: str, value: Any) -> Any:
    if isinstance(value, str):
        return value
    return Parameter(value if isinstance(value, jax.Array) else jnp.asarray(value), name=name)


def _net_shardings(net: Cell | None) -> dict[str, Any]:
    if net is None:
        return {}
    return {p.name: p._value.sharding for _, p in net.parameters_and_names()
            if isinstance(p._value, jax.Array)}


def load_checkpoint(ckpt_file_name: str, net: Cell | None = None, strict_load: bool = False,
                    filter_prefix: Any = None, dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                    specify_prefix: Any = None, choice_func: Callable[[str], bool] | None = None,
                    crc_check: bool | None = None, remove_redundancy: bool = False,
                    format: str = "ckpt") -> dict[str, Any]:
    """Load a checkpoint into ``{name: Parameter}`` (strings from ``append_dict`` stay ``str``).

    Arguments:
        ckpt_file_name: a ``.ckpt`` or ``.safetensors`` file, or a sharded
            checkpoint folder written with ``integrated_save=False``.
        net: when given, the values are also loaded into it
            (:func:`load_param_into_net`); a sharded checkpoint is then laid out
            with the shardings the net's Parameters have now.
        strict_load: passed to :func:`load_param_into_net`.
        filter_prefix: skip names starting with it (str or list of str).
        dec_key, dec_mode: decryption is not supported; ``dec_key`` must be None.
        specify_prefix: load only names starting with it; with ``filter_prefix``
            it overrides ``choice_func``, as in MindSpore.
        choice_func: load only names for which it returns True.
        crc_check: ``None`` (the default) verifies the CRC whenever the file has one
            (MindJAX writes one by default, MindSpore with ``crc_check=True``);
            ``True`` also requires one; ``False`` skips the check.
        remove_redundancy: accepted for compatibility.
        format: ``'ckpt'`` or ``'safetensors'``; the file name must end with it.

    Returns:
        ``{name: Parameter | str}`` in file order.

    Raises:
        ValueError: the file is missing, truncated, corrupted, not a checkpoint
            (a pickle is refused without being run), fails the CRC, or nothing
            is left after filtering. The message names the file.
    """
    if format not in _FORMATS:
        raise ValueError(f"For 'load_checkpoint', 'format' must be 'ckpt' or 'safetensors', got {format!r}")
    if dec_key is not None:
        raise NotImplementedError("For 'load_checkpoint', encrypted checkpoints ('dec_key') are not supported "
                                  "by MindJAX")
    if not isinstance(ckpt_file_name, str):
        raise TypeError(f"For 'load_checkpoint', 'ckpt_file_name' must be a str, "
                        f"got {type(ckpt_file_name).__name__}")
    if crc_check is not None and not isinstance(crc_check, bool):
        raise TypeError(f"For 'load_checkpoint', 'crc_check' must be a bool or None, got {crc_check!r}")
    choose = _chooser(specify_prefix, filter_prefix, choice_func)
    path = os.path.realpath(ckpt_file_name)
    _wait_async_save()
    from mindjax.train.serialization.sharded import is_sharded_checkpoint, load_sharded, recover_sharded

    if not os.path.isfile(path):
        recover_sharded(path)  # a sharded save killed mid-swap leaves its folders under other names
    if is_sharded_checkpoint(path):
        values = load_sharded(path, _net_shardings(net), choose)
    else:
        if not ckpt_file_name.endswith(format):
            raise ValueError(f"For 'load_checkpoint', the checkpoint file format must be the same as 'format', "
                             f"got file name '{ckpt_file_name}' and format '{format}'")
        _check_loadable_file(ckpt_file_name, path, format)
        if format == "ckpt":
            from mindjax.train.serialization.ckpt_format import read_ckpt

            values = read_ckpt(path, crc_check, choose, shown=_shown_path(ckpt_file_name, path))
        else:
            from mindjax.train.serialization.safetensors_format import read_safetensors

            values = read_safetensors(path, crc_check, choose, shown=_shown_path(ckpt_file_name, path))
    if not values:
        raise ValueError(f"For 'load_checkpoint', nothing was loaded from {path} after filtering; check "
                         f"'filter_prefix', 'specify_prefix' and 'choice_func'")
    parameter_dict = {name: _as_parameter(name, value) for name, value in values.items()}
    if net is not None:
        load_param_into_net(net, parameter_dict, strict_load)
    return parameter_dict


def _shown_path(given: str, resolved: str) -> str:
    """How errors name the file: a symbolic link is named with what it points to."""
    if os.path.islink(given):
        return f"{os.path.abspath(given)} (a symbolic link to {resolved})"
    return resolved


def _check_loadable_file(given: str, path: str, format: str) -> None:
    """Say what is really wrong with a name that is not a readable regular file (never opening a FIFO)."""
    import stat

    shown = _shown_path(given, path)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.islink(given):
            raise ValueError(f"For 'load_checkpoint', the checkpoint file {shown} is a broken symbolic link: "
                             f"its target does not exist") from None
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {path} does not exist, please check "
                         f"whether 'ckpt_file_name' is correct") from None
    except OSError as exc:
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {shown} cannot be accessed: {exc}") from exc
    if stat.S_ISDIR(mode):
        raise ValueError(f"For 'load_checkpoint', {shown} is a directory, not a .{format} file, and it is not a "
                         f"sharded checkpoint folder (it has no 'arrays' folder)")
    if not stat.S_ISREG(mode):
        kind = ("a FIFO (named pipe)" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a regular file")
        raise ValueError(f"For 'load_checkpoint', {shown} is {kind}, not a checkpoint file; MindJAX reads "
                         f"checkpoints only from regular files")
    if not os.access(path, os.R_OK):
        raise ValueError(f"For 'load_checkpoint', the checkpoint file {shown} is not readable (permission denied)")


class _ParamDictFuture:
    """What :func:`load_checkpoint_async` returns: call ``result()`` for the parameter dict."""

    def __init__(self, executor: concurrent.futures.ThreadPoolExecutor,
                 future: "concurrent.futures.Future[dict[str, Any]]") -> None:
        self._executor = executor
        self._future = future

    def result(self) -> dict[str, Any]:
        """Wait for the load and return :func:`load_checkpoint`'s result (or raise its error)."""
        try:
            return self._future.result()
        finally:
            self._executor.shutdown(wait=False)


def load_checkpoint_async(ckpt_file_name: str, net: Cell | None = None, strict_load: bool = False,
                          filter_prefix: Any = None, dec_key: bytes | None = None, dec_mode: str = "AES-GCM",
                          specify_prefix: Any = None,
                          choice_func: Callable[[str], bool] | None = None,
                          crc_check: bool | None = None) -> _ParamDictFuture:
    """Start :func:`load_checkpoint` on a background thread (overlap reading with building the model).

    The format follows the file name (``.safetensors`` or ``.ckpt``).

    Returns:
        An object whose ``result()`` returns the parameter dict.

    Example:
        >>> pending = ms.load_checkpoint_async("lenet.ckpt")     # doctest: +SKIP
        >>> ms.load_param_into_net(net, pending.result())        # doctest: +SKIP
    """
    format = "safetensors" if str(ckpt_file_name).endswith(".safetensors") else "ckpt"
    executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="mindjax-ckpt-load")
    future = executor.submit(load_checkpoint, ckpt_file_name, net, strict_load, filter_prefix, dec_key, dec_mode,
                             specify_prefix, choice_func, crc_check=crc_check, format=format)
    return _ParamDictFuture(executor, future)


# -- loading into a network ------------------------------------------------------------
def _is_float(dtype: Any) -> bool:
    return jnp.issubdtype(dtype, jnp.floating)


def _is_int(dtype: Any) -> bool:
    return jnp.issubdtype(dtype, jnp.signedinteger)


def _planned_value(param: Parameter, new: Any, strict_load: bool) -> Any:
    """The array ``param`` will take, or an error naming it and both shapes/dtypes."""
    value = new._value if isinstance(new, Variable) else new
    if not isinstance(value, jax.Array):
        value = jnp.asarray(value)
    old = param._value
    if tuple(old.shape) != tuple(value.shape):
        extra = value.shape[old.ndim:]
        # MindSpore accepts trailing 1s from GE's 4-D layouts: (12, 2048, 1, 1) -> (12, 2048).
        if not (value.ndim > old.ndim and tuple(value.shape[:old.ndim]) == tuple(old.shape)
                and all(d == 1 for d in extra)):
            raise RuntimeError(f"For 'load_param_into_net', {param.name} in the argument 'net' should have the "
                               f"same shape as {param.name} in the argument 'parameter_dict'. But got its shape "
                               f"{tuple(old.shape)} in the argument 'net' and shape {tuple(value.shape)} in the "
                               f"argument 'parameter_dict'. Nothing was loaded.")
        value = value.reshape(old.shape)
    if value.dtype != old.dtype:
        convertible = (_is_float(value.dtype) and _is_float(old.dtype)) or (_is_int(value.dtype)
                                                                             and _is_int(old.dtype))
        if strict_load or not convertible:
            raise RuntimeError(f"For 'load_param_into_net', {param.name} in the argument 'net' should have the "
                               f"same type as {param.name} in the argument 'parameter_dict', but got its type "
                               f"{old.dtype} in the argument 'net' and type {value.dtype} in the argument "
                               f"'parameter_dict'. Nothing was loaded.")
        value = value.astype(old.dtype)
    sharding = getattr(old, "sharding", None)
    if sharding is not None and getattr(value, "sharding", None) != sharding:
        value = jax.device_put(value, sharding)
    return value


def _check_load_args(net: Any, parameter_dict: Any, strict_load: Any) -> None:
    if not isinstance(net, Cell):
        raise TypeError(f"For 'load_param_into_net', the argument 'net' should be a Cell, "
                        f"but got {type(net).__name__}")
    if not isinstance(parameter_dict, dict):
        raise TypeError(f"For 'load_param_into_net', the argument 'parameter_dict' should be a dict, "
                        f"but got {type(parameter_dict).__name__}")
    for key, value in parameter_dict.items():
        if not isinstance(key, str) or not (isinstance(value, str) or _is_array(value)):
            raise TypeError(f"For 'load_param_into_net', 'parameter_dict' must map str to Parameter, "
                            f"got {type(key).__name__} -> {type(value).__name__}")
    if not isinstance(strict_load, bool):
        raise TypeError(f"For 'load_param_into_net', 'strict_load' must be a bool, got {strict_load!r}")


def _match_by_prefix(params: Sequence[Parameter], parameter_dict: dict[str, Any],
                     param_not_load: list[str]) -> dict[str, str]:
    """MindSpore's retry for names saved under a wrapper's prefix: ``{net name: dict name}``."""
    matched: dict[str, str] = {}
    prefix = ""
    longest = param_not_load[0]
    remaining = list(param_not_load)
    while prefix != longest and remaining:
        prefix = longest
        for net_name in remaining:
            for dict_name in parameter_dict:
                if dict_name.endswith(net_name):
                    prefix = dict_name[:-len(net_name)]
                    break
            if prefix != longest:
                break
        if prefix != longest:
            for param in params:
                candidate = prefix + param.name
                if param.name in remaining and candidate in parameter_dict:
                    matched[param.name] = candidate
                    remaining.remove(param.name)
    return matched


def load_param_into_net(net: Cell, parameter_dict: dict[str, Any], strict_load: bool = False,
                        remove_redundancy: bool = False) -> tuple[list[str], list[str]]:
    """Load ``parameter_dict`` into ``net``'s Parameters by name: all of them or none.

    Every shape and dtype is checked before any value is written, so a
    mismatch leaves the network exactly as it was.

    Arguments:
        net: the network.
        parameter_dict: ``{name: Parameter}`` (as :func:`load_checkpoint` returns);
            ``str`` values are skipped.
        strict_load: when ``False`` a float value loads into a Parameter of
            another float type (and int into int), and names that differ by a
            common prefix (``network.conv1.weight`` for ``conv1.weight``) still
            match, as in MindSpore.
        remove_redundancy: accepted for compatibility.

    Returns:
        ``(param_not_load, ckpt_not_load)``: the net's Parameter names not
        loaded, and the dict's names not used.

    Raises:
        RuntimeError: a shape or dtype mismatch, naming the Parameter and both
            shapes (or types); nothing was loaded.
    """
    _check_load_args(net, parameter_dict, strict_load)
    params = [p for _, p in net.parameters_and_names()]
    plan: list[tuple[Parameter, Any]] = []
    param_not_load: list[str] = []
    ckpt_not_load = list(parameter_dict)
    for param in params:
        if param.name in parameter_dict:
            new = parameter_dict[param.name]
            if isinstance(new, str):
                continue
            plan.append((param, _planned_value(param, new, strict_load)))
            ckpt_not_load.remove(param.name)
        elif not param.name.startswith("accu_grads"):
            param_not_load.append(param.name)
    if param_not_load and not strict_load:
        for net_name, dict_name in _match_by_prefix(params, parameter_dict, param_not_load).items():
            param = next(p for p in params if p.name == net_name)
            plan.append((param, _planned_value(param, parameter_dict[dict_name], strict_load)))
            param_not_load.remove(net_name)
    for param, value in plan:
        param.set_data(value)
    return param_not_load, ckpt_not_load
