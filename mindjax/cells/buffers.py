"""Buffers and ``state_dict``: a Cell's non-Parameter state, as MindSpore 2.10 has it.

A buffer is a Tensor that belongs to a Cell without being a Parameter (no
gradient, no optimizer): ``register_buffer(name, tensor)``, or assigning a
:class:`Buffer` as an attribute. Buffers are reached as attributes, listed by
``buffers()``/``named_buffers()``, and, unless registered with
``persistent=False``, saved by ``state_dict()`` beside the Parameters.
``load_state_dict`` copies a ``{name: Tensor}`` mapping (what ``state_dict``
or ``load_checkpoint`` returns) back into Parameters and buffers, strictly by
default, and reports missing and unexpected keys.

The Cell methods live in :class:`BufferStateMixin`, which :class:`~mindjax.nn.Cell`
inherits.

Example:
    >>> import numpy as np, mindjax as ms
    >>> from mindjax import nn
    >>> net = nn.Dense(2, 1)
    >>> net.register_buffer("steps", ms.Tensor(np.zeros(1, np.float32)))
    >>> list(net.state_dict())
    ['weight', 'bias', 'steps']
"""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from typing import Any, Callable, Iterator, Mapping

import jax

from mindjax.common.tensor import Tensor

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


class Buffer(Tensor):
    """A Tensor that, assigned to a Cell attribute, becomes one of its buffers.

    Arguments:
        data: the buffer's value (a Tensor); the buffer holds it without gradient.
        persistent: whether ``state_dict`` includes it.

    Raises:
        ValueError: ``data`` is None.
        TypeError: ``data`` is not a Tensor.

    Example:
        >>> import mindjax as ms
        >>> from mindjax.common.parameter import _Buffer
        >>> b = _Buffer(ms.Tensor([1.0, 2.0]), persistent=False)
        >>> b.persistent
        False
    """

    __slots__ = ("persistent",)

    def __init__(self, data: Tensor, *, persistent: bool = True) -> None:  # noqa: D107 - documented above
        if data is None:
            raise ValueError("For create Buffer, input data should not be None")
        if not isinstance(data, Tensor):
            raise TypeError("For create Buffer, type of input data should be Tensor")
        object.__setattr__(self, "_raw", jax.lax.stop_gradient(data._value))
        object.__setattr__(self, "persistent", bool(persistent))


jax.tree_util.register_pytree_node(Buffer, lambda b: ((b._value,), None), lambda _, c: Tensor._wrap(c[0]))


class IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What ``load_state_dict`` returns: the keys it missed and the keys it did not expect."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _new_handle(registry: "OrderedDict[int, Callable[..., Any]]", hook: Callable[..., Any]) -> Any:
    from mindjax.cells.cell import HookHandle  # the Cell module imports this one

    key = max(registry, default=0) + 1
    registry[key] = hook
    return HookHandle(registry, key)


class BufferStateMixin:
    """The buffer and ``state_dict`` methods of :class:`~mindjax.nn.Cell` (MindSpore 2.10's)."""

    def _buffer_registry(self) -> "OrderedDict[str, Tensor | None]":
        d = self.__dict__
        if "_buffers" not in d:
            raise AttributeError("cannot assign buffer before Cell.__init__() call")
        return d["_buffers"]

    def _set_buffer_attr(self, name: str, value: Any) -> bool:
        """``__setattr__``'s part for buffers: True when ``name``/``value`` was a buffer and is handled."""
        buffers = self.__dict__.get("_buffers")
        if buffers is None:
            return False
        if isinstance(value, Buffer):
            self.register_buffer(name, value, persistent=value.persistent)
            return True
        if name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"Buffer '{name}' already exists in network, "
                                f"can not assign this type: '{type(value)}' as a buffer.")
            buffers[name] = value
            return True
        return False

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a buffer named ``name`` (reached as ``self.name``); ``persistent=False`` keeps it out of ``state_dict``.

        Raises:
            TypeError: ``name`` is not a string, or ``tensor`` is neither a Tensor nor None.
            KeyError: ``name`` is empty, holds a ".", or is already another attribute.
            AttributeError: called before ``Cell.__init__``.
        """
        buffers = self._buffer_registry()
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string.But got this type: {type(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if name not in buffers and (name in self.__dict__ or name in self._params or name in self._cells
                                    or hasattr(type(self), name)):
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{type(tensor)}' object to buffer '{name}' "
                            "(mindspore Tensor or None required)")
        buffers[name] = tensor
        skipped = self.__dict__["_non_persistent_buffers_set"]
        if persistent:
            skipped.discard(name)
        else:
            skipped.add(name)

    def get_sub_cell(self, target: str) -> Any:
        """The sub-Cell at the dotted path ``target`` (``""`` is this Cell).

        Raises:
            AttributeError: a step of the path is not an attribute, or not a Cell.
        """
        if target == "":
            return self
        cell = self
        for item in target.split("."):
            if not hasattr(cell, item):
                raise AttributeError(cell.cls_name + " has no attribute `" + item + "`")
            cell = getattr(cell, item)
            if not isinstance(cell, BufferStateMixin):
                raise AttributeError("`" + item + "` is not an nn.Cell")
        return cell

    def get_buffer(self, target: str) -> Tensor:
        """The buffer at the dotted path ``target`` (``"sub.buf"``).

        Raises:
            AttributeError: there is no such attribute, or it is not a buffer.
        """
        cell_path, _, buffer_name = target.rpartition(".")
        cell = self.get_sub_cell(cell_path)
        if not hasattr(cell, buffer_name):
            raise AttributeError(cell.cls_name + " has no attribute `" + buffer_name + "`")
        if buffer_name not in cell.__dict__.get("_buffers", {}):
            raise AttributeError("`" + buffer_name + "` is not a buffer")
        return getattr(cell, buffer_name)

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        """Every buffer with its dotted path, this Cell's first, then its children's."""
        cells = self.cells_and_names(name_prefix=prefix) if recurse else [(prefix, self)]
        seen: set[int] = set()
        for cell_prefix, cell in cells:
            for key, value in cell.__dict__.get("_buffers", {}).items():
                if value is None or id(value) in seen:
                    continue
                if remove_duplicate:
                    seen.add(id(value))
                yield (f"{cell_prefix}.{key}" if cell_prefix else key), value

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        """Every buffer (see :meth:`named_buffers`)."""
        for _, value in self.named_buffers(recurse=recurse):
            yield value

    # -- state_dict -----------------------------------------------------------------------------
    def get_extra_state(self) -> Any:
        """Extra state for ``state_dict``: subclasses that have some override this and ``set_extra_state``."""
        raise RuntimeError("Reached a code path in Cell.get_extra_state() that should never be called.")

    def set_extra_state(self, state: Any) -> None:
        """Restore what :meth:`get_extra_state` returned (overridden together with it)."""
        raise RuntimeError("Reached a code path in Cell.set_extra_state() that should never be called.")

    def _has_extra_state(self, method: str) -> bool:
        return getattr(type(self), method) is not getattr(BufferStateMixin, method)

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> Any:
        """Call ``hook(cell, prefix, keep_vars)`` before :meth:`state_dict` collects this Cell."""
        return _new_handle(self.__dict__["_state_dict_pre_hooks"], hook)

    def register_state_dict_post_hook(self, hook: Callable[..., Any]) -> Any:
        """Call ``hook(cell, state_dict, prefix, local_metadata)`` after; it may edit ``state_dict`` in place."""
        return _new_handle(self.__dict__["_state_dict_hooks"], hook)

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> Any:
        """Call ``hook(cell, state_dict, prefix, local_metadata, strict, missing, unexpected, errors)`` first."""
        return _new_handle(self.__dict__["_load_state_dict_pre_hooks"], hook)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> Any:
        """Call ``hook(cell, incompatible_keys)`` after :meth:`load_state_dict` loaded this Cell."""
        return _new_handle(self.__dict__["_load_state_dict_post_hooks"], hook)

    def _local_state(self) -> dict[str, Tensor]:
        skipped = self.__dict__.get("_non_persistent_buffers_set", set())
        state = {k: v for k, v in self._params.items() if v is not None}
        state.update((k, v) for k, v in self.__dict__.get("_buffers", {}).items()
                     if v is not None and k not in skipped)
        return state

    def _save_to_state_dict(self, destination: dict[str, Any], prefix: str, keep_vars: bool) -> None:
        for name, value in self._local_state().items():
            destination[prefix + name] = value
        if self._has_extra_state("get_extra_state"):
            destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()

    def state_dict(self, *args: Any, destination: dict[str, Any] | None = None, prefix: str = "",
                   keep_vars: bool = False) -> "OrderedDict[str, Any]":
        """``{path: Parameter or buffer}`` for the whole tree (persistent buffers only); references, not copies.

        ``ms.save_checkpoint(net.state_dict(), path)`` saves it, and
        :meth:`load_state_dict` reads it back.

        Raises:
            TypeError: ``destination`` is not a dict, ``prefix`` not a str, or ``keep_vars`` not a bool.
        """
        if args:
            destination = args[0] if destination is None else destination
            prefix = args[1] if len(args) > 1 and prefix == "" else prefix
            keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
        if destination is not None and not isinstance(destination, dict):
            raise TypeError(f"The type of destination must be OrderedDict, but got {type(destination)}")
        if not isinstance(prefix, str):
            raise TypeError(f"The type of prefix must be string, but got {type(prefix)}")
        if not isinstance(keep_vars, bool):
            raise TypeError(f"The type of keep_vars must be bool, but got {type(keep_vars)}")
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()  # type: ignore[attr-defined]
        local_metadata: dict[str, Any] = {}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in list(self.__dict__["_state_dict_pre_hooks"].values()):
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, cell in self._cells.items():
            if cell is not None:
                cell.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in list(self.__dict__["_state_dict_hooks"].values()):
            if hook(self, destination, prefix, local_metadata) is not None:
                raise RuntimeError("state_dict post-hook must return None")
        return destination

    def _load_from_state_dict(self, state_dict: dict[str, Any], prefix: str, local_metadata: dict[str, Any],
                              strict: bool, missing_keys: list[str], unexpected_keys: list[str],
                              error_msgs: list[str]) -> None:
        for hook in list(self.__dict__["_load_state_dict_pre_hooks"].values()):
            hook(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        local_state = self._local_state()
        for name, target in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            value = state_dict[key]
            if not isinstance(value, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected Tensor or Tensor-like '
                                  f"object from checkpoint but received {type(value)}")
                continue
            if tuple(value.shape) != tuple(target.shape):
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} from "
                                  f"checkpoint, the shape in current model is {target.shape}.")
                continue
            target.assign_value(value.astype(target.dtype))
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        if self._has_extra_state("set_extra_state"):
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        elif strict and extra_key in state_dict:
            unexpected_keys.append(extra_key)
        if strict:
            for key in state_dict:
                if key.startswith(prefix) and key != extra_key:
                    head = key[len(prefix):].split(".", 1)
                    known = self._cells if len(head) > 1 else local_state
                    if head[0] not in known:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True) -> IncompatibleKeys:
        """Copy ``{path: Tensor}`` into this tree's Parameters and persistent buffers.

        Nothing is half-loaded: on any error every Parameter and buffer keeps the
        value it had before the call.

        Returns:
            ``IncompatibleKeys(missing_keys, unexpected_keys)``.

        Raises:
            TypeError: ``state_dict`` is not a mapping.
            RuntimeError: under ``strict``, keys are missing or unexpected; or a value's type or
                shape does not fit (the message lists every problem).
        """
        if not isinstance(state_dict, Mapping):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        metadata = getattr(state_dict, "_metadata", None)
        missing: list[str] = []
        unexpected: list[str] = []
        errors: list[str] = []
        result = IncompatibleKeys(missing, unexpected)
        before = [(target, target._value) for _, target in self._all_state()]

        def load(cell: Any, local: dict[str, Any], prefix: str) -> None:
            meta = {} if metadata is None else metadata.get(prefix[:-1], {})
            cell._load_from_state_dict(local, prefix, meta, strict, missing, unexpected, errors)
            for name, child in cell._cells.items():
                if child is not None:
                    child_prefix = prefix + name + "."
                    load(child, {k: v for k, v in local.items() if k.startswith(child_prefix)}, child_prefix)
            for hook in list(cell.__dict__["_load_state_dict_post_hooks"].values()):
                if hook(cell, result) is not None:
                    raise RuntimeError("Hooks registered with ``register_load_state_dict_post_hook`` are not "
                                       "expected to return new values, if incompatible_keys need to be modified, "
                                       "it should be done inplace.")

        try:
            load(self, dict(state_dict), "")
            if strict:
                if unexpected:
                    errors.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in unexpected)))
                if missing:
                    errors.insert(0, "Missing key(s) in state_dict: {}. ".format(
                        ", ".join(f'"{k}"' for k in missing)))
            if errors:
                raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                    type(self).__name__, "\n\t".join(errors)))
        except BaseException:
            for target, value in before:  # a failed load changes no Parameter or buffer
                object.__setattr__(target, "_raw", value)
            raise
        return result

    def _all_state(self) -> Iterator[tuple[str, Tensor]]:
        for prefix, cell in self.cells_and_names():
            for name, value in cell._local_state().items():
                yield (f"{prefix}.{name}" if prefix else name), value
