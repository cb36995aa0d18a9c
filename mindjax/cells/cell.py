"""``Cell``: MindSpore's module, holding Parameters and sub-Cells.

Parameter names follow MindSpore exactly: a Parameter assigned to a Cell takes
the attribute name unless the user named it; assigning a Cell into a parent
whose ``auto_prefix`` is true renames every Parameter below it to
``<attr>.<path inside the child>`` (``conv1.weight``, ``layers.0.bias``).
Each Cell also knows its own path (``_cell_path``), used in error messages and
as the ``jax.named_scope`` of its call so that HLO and profiles carry the
user's names.

In PYNATIVE mode ``cell(x)`` runs ``construct`` eagerly; in GRAPH mode it is
compiled once per input signature by :mod:`mindjax.transforms.jit`.

Example:
    >>> import mindjax as ms
    >>> from mindjax import nn, ops
    >>> class Net(nn.Cell):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc1 = nn.Dense(4, 8)
    ...         self.fc2 = nn.Dense(8, 2)
    ...     def construct(self, x):
    ...         return self.fc2(ops.relu(self.fc1(x)))
    >>> [p.name for p in Net().trainable_params()]
    ['fc1.weight', 'fc1.bias', 'fc2.weight', 'fc2.bias']
"""
from __future__ import annotations

import itertools
import warnings
from collections import OrderedDict
from typing import Any, Callable, Iterator

import jax
import jax.numpy as jnp

from mindjax import context
from mindjax.cells.buffers import BufferStateMixin
from mindjax.cells.parameter import Parameter, ParameterTuple
from mindjax.cells.state import bump_structure_version
from mindjax.common.dtype import to_jax_dtype
from mindjax.common.tensor import (Tensor, in_user_code, inside_framework, jax_inputs, tensor_op, unwrap,
                                   user_code, wrap)
from mindjax.common.precision import NO_CAST, PrecisionPolicy, policy_scope
from mindjax.common.upcalls import NOT_PER_DEVICE, NOT_PLANNED, UPCALLS

_HOOK_IDS = itertools.count()
# Hook ids (unique over the process, so a copied Cell keeps its hooks' flags) registered with
# ``with_kwargs=True`` (the hook also gets the construct's keyword arguments) and with
# ``always_call=True`` (a forward hook that runs even when construct raises).
_HOOKS_WITH_KWARGS: set[int] = set()
_HOOKS_ALWAYS_CALLED: set[int] = set()
_RECOMPUTE_SCOPE = "recompute_"


def set_precision_policy(cell: "Cell", policy: PrecisionPolicy | None) -> None:
    """Give ``cell`` its own operator-level mixed-precision policy (MindSpore's ``O1``).

    The Primitives its ``construct`` calls run under ``policy``
    (:mod:`mindjax.common.precision`), read at each call; ``None`` makes the Cell run
    under its caller's policy again. Programs compiled before are not reused.

    Arguments:
        cell: the Cell.
        policy: a :class:`~mindjax.common.precision.PrecisionPolicy`, ``NO_CAST``, or None.
    """
    if policy is not None and not isinstance(policy, PrecisionPolicy):
        raise TypeError(f"{cell._where()}: the precision policy must be a PrecisionPolicy or None, "
                        f"got {type(policy).__name__}")
    cell.__dict__["_amp_policy"] = policy
    bump_structure_version()


def cell_signature(cell: "Cell") -> tuple[Any, ...]:
    """What a compiled program of ``cell`` depends on besides its inputs (the key its programs
    are cached under): per Cell of the tree, its class, training flag, precision, recompute
    flag, hooks and Parameters.
    """
    sig = []
    for _, c in cell.cells_and_names():
        d = c.__dict__
        sig.append((id(c), type(c), d["_amp_policy"], d["training"], d["_mixed_dtype"], d["_recompute"],
                    tuple(d["_forward_pre_hooks"]), tuple(d["_forward_hooks"]),
                    tuple(d["_backward_hooks"]), tuple(d["_backward_pre_hooks"]),
                    tuple(id(p) for p in d["_params"].values())))
    return tuple(sig)


# How many Cell calls made eagerly under a parallel mode are running (the outermost one is told to
# the parallel layer, which warns when the mode cannot apply to it).
_EAGER_PARALLEL_DEPTH = [0]


class HookHandle:
    """Returned by the ``register_*_hook`` methods; ``remove()`` unregisters the hook."""

    def __init__(self, registry: "OrderedDict[int, Callable[..., Any]]", key: int) -> None:
        self._registry = registry
        self._key = key

    def remove(self) -> None:
        """Unregister the hook (a second call does nothing)."""
        if self._key in self._registry:
            del self._registry[self._key]
            _HOOKS_WITH_KWARGS.discard(self._key)
            _HOOKS_ALWAYS_CALLED.discard(self._key)
            bump_structure_version()


def _cast_floats(tree: Any, dtype: Any) -> Any:
    def cast(x: Any) -> Any:
        raw = x._value if isinstance(x, Tensor) else x
        if isinstance(raw, jax.Array) and jnp.issubdtype(raw.dtype, jnp.floating) and raw.dtype != dtype:
            return _rewrapped(x, raw.astype(dtype))
        return x
    return jax.tree_util.tree_map(cast, tree, is_leaf=_is_tensor)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, Tensor)


def _plain_arrays(tree: Any) -> Any:
    """Plain Tensors in ``tree`` as their arrays (Parameters stay: they are state, not values)."""
    if type(tree) is Tensor:
        return tree._value
    if not tree or isinstance(tree, (jax.Array, int, float, str)):
        return tree
    return jax.tree_util.tree_map(lambda x: x._value if type(x) is Tensor else x, tree, is_leaf=_is_tensor)


def _rewrapped(like: Any, raw: Any) -> Any:
    return Tensor._wrap(raw) if isinstance(like, Tensor) else raw


_BUILTIN_CONSTRUCT: dict[type, bool] = {}




def _is_builtin_construct(cls: type) -> bool:
    """True when ``cls.construct`` is MindJAX's own code (a layer, loss or wrapper), not the user's."""
    found = _BUILTIN_CONSTRUCT.get(cls)
    if found is None:
        module = getattr(getattr(cls, "construct", None), "__module__", "") or ""
        found = _BUILTIN_CONSTRUCT[cls] = module == "mindjax" or module.startswith("mindjax.")
    return found


def _runs_as_one_program(cell: "Cell") -> bool:
    """Whether a PYNATIVE call of ``cell`` may run as one compiled program.

    True when every Cell of its tree has MindJAX's own construct and none has a hook, a
    ``bprop``, recompute, mixed precision or set_inputs, outside the parallel modes and while no
    profiler records: nothing in the call is user code that PYNATIVE must run eagerly (a
    ``print``, ``asnumpy()``, Python control flow on values), so compiling it changes nothing
    but its speed.
    """
    d = cell.__dict__
    if not _is_builtin_construct(type(cell)) or d["_forward_pre_hooks"] or d["_forward_hooks"] \
            or d["_backward_hooks"] or d["_backward_pre_hooks"] or d["_recompute"] \
            or d["_mixed_dtype"] is not None or d["_amp_policy"] is not None or _has_bprop(type(cell)) \
            or d.get("_dynamic_inputs") or context._PARALLEL["parallel_mode"] != "stand_alone" \
            or UPCALLS.cell_scope is not None:  # a recording profiler times each eager Cell call
        return False
    return all(_runs_as_one_program(child) for child in d["_cells"].values() if child is not None)


class Cell(BufferStateMixin):
    """Base class of every network layer and model.

    Arguments:
        auto_prefix: prefix the names of Parameters of Cells assigned to this
            one with the attribute name (MindSpore's default). Wrappers such as
            ``WithLossCell`` pass ``False`` so names stay those of the backbone.
        flags: initial flags (see :meth:`add_flags`).

    Subclasses define ``construct(self, *inputs)``.
    """

    def __init__(self, auto_prefix: bool = True, flags: dict[str, Any] | None = None) -> None:
        d = self.__dict__
        d["_params"] = OrderedDict()
        d["_cells"] = OrderedDict()
        d["_auto_prefix"] = auto_prefix
        d["_cell_path"] = ""
        d["training"] = False
        d["_mixed_dtype"] = None
        d["_amp_policy"] = None  # MindSpore's O1: a PrecisionPolicy (mindjax.common.precision)
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_hooks"] = OrderedDict()
        d["_backward_hooks"] = OrderedDict()
        d["_backward_pre_hooks"] = OrderedDict()
        d["_recompute"] = False
        d["_flags"] = dict(flags or {})
        d["_compiled_cache"] = None
        d["_shard_plan"] = None
        d["requires_grad"] = False
        d["_buffers"] = OrderedDict()
        d["_non_persistent_buffers_set"] = set()
        d["_state_dict_pre_hooks"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        construct = cls.__dict__.get("construct")
        if construct is not None and _is_builtin_construct(cls) and not hasattr(construct, "__wrapped__"):
            # A built-in layer's construct called directly from user code (``relu.construct(x)``)
            # returns Tensors too; called through the Cell, the boundary is already crossed.
            cls.construct = tensor_op(construct)

    # -- registry ------------------------------------------------------------
    def _registries(self) -> tuple["OrderedDict[str, Parameter]", "OrderedDict[str, Cell]"]:
        d = self.__dict__
        if "_params" not in d:
            raise AttributeError(
                f"For '{type(self).__name__}', call super().__init__() in __init__ before "
                f"assigning Parameters or Cells")
        return d["_params"], d["_cells"]

    def _name_tuple_members(self, members: Any) -> None:
        """MindSpore's names for a ParameterTuple's members: unnamed ones become ``Parameter$N``.

        ``N`` counts from 1 per Cell.

        Raises:
            ValueError: two different members share a name.
        """
        seen_ids: set[int] = set()
        names: set[str] = set()
        for p in members:
            if id(p) in seen_ids:
                continue
            seen_ids.add(id(p))
            if not p._named_by_user:
                count = self.__dict__.get("_tuple_param_count", 1)
                p.name = f"Parameter${count}"
                p.__dict__["_named_by_user"] = True
                self.__dict__["_tuple_param_count"] = count + 1
            if p.name in names:
                raise ValueError(f"The value {members} , its name '{p.name}' already exists. "
                                 f"Please set a unique name for the parameter.")
            names.add(p.name)

    def _check_released(self, name: str, value: Any) -> None:
        """MindSpore keeps a Parameter or child name set to None: only its own kind may come back.

        Raises:
            KeyError: a Cell where a Parameter was, or a Parameter where a Cell was.
            TypeError: any other non-None value there.
        """
        kind = self.__dict__.get("_released_names", {}).get(name)
        if kind is None or value is None:
            return
        if kind == "parameter" and isinstance(value, Cell):
            raise KeyError(f"For 'insert_child_to_cell', the {name} child cell already exists in the network."
                           f"Cannot insert another child cell with the same name.")
        if kind == "cell" and isinstance(value, (Parameter, ParameterTuple)):
            raise KeyError(f"For 'insert_param_to_cell', the {name} parameter already exists in the network."
                           f"Cannot insert another parameter with the same name.")
        if kind == "parameter" and not isinstance(value, (Parameter, ParameterTuple)):
            raise TypeError(f"Parameter '{name}' already exists in network, "
                            f"can not assign this type: '{type(value)}' as a parameter.")
        if kind == "cell" and not isinstance(value, Cell):
            raise TypeError(f"Sub cell '{name}' already exists in network, "
                            f"can not assign this type: '{type(value)}' as a cell.")
        del self.__dict__["_released_names"][name]

    def __setattr__(self, name: str, value: Any) -> None:
        self._check_released(name, value)
        if self._set_buffer_attr(name, value):
            return
        if isinstance(value, Parameter):
            params, _ = self._registries()
            if not value._named_by_user:
                value.name = name
            params[name] = value
            self.__dict__[name] = value
            bump_structure_version()
        elif isinstance(value, ParameterTuple):
            params, _ = self._registries()
            self._name_tuple_members(value)
            for p in value:
                params[p.name] = p
            self.__dict__[name] = value
            bump_structure_version()
        elif isinstance(value, Cell):
            _, cells = self._registries()
            if self._auto_prefix:
                value.update_parameters_name(name + ".")
                value._update_cell_paths(name)
            cells[name] = value
            self.__dict__[name] = value
            bump_structure_version()
        elif "_params" in self.__dict__ and name in self._params and value is not None \
                and not isinstance(value, (list, tuple, dict, str)):
            # MindSpore's graph semantics: assigning a Tensor to a Parameter attribute
            # is an in-place update of that Parameter.
            self._params[name].set_data(value)
        else:
            if value is None:
                for kind, registry in (("parameter", "_params"), ("cell", "_cells")):
                    if name in self.__dict__.get(registry, {}):
                        del self.__dict__[registry][name]
                        self.__dict__.setdefault("_released_names", {})[name] = kind
                        bump_structure_version()
            object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        d = self.__dict__
        d.get("_released_names", {}).pop(name, None)
        if name in d.get("_params", {}):
            del d["_params"][name]
            bump_structure_version()
        if name in d.get("_cells", {}):
            del d["_cells"][name]
            bump_structure_version()
        if name in d.get("_buffers", {}):
            del d["_buffers"][name]
            return
        object.__delattr__(self, name)

    def __getattr__(self, name: str) -> Any:
        # Only reached when normal lookup fails.
        buffers = self.__dict__.get("_buffers")
        if buffers is not None and name in buffers:
            return buffers[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    @property
    def cls_name(self) -> str:
        """The class name (MindSpore's ``cls_name``)."""
        return type(self).__name__

    def _where(self) -> str:
        """The prefix of error messages: "For 'Dense' at 'fc1'"."""
        path = self.__dict__.get("_cell_path", "")
        return f"For '{type(self).__name__}' at '{path}'" if path else f"For '{type(self).__name__}'"

    def _update_cell_paths(self, prefix: str) -> None:
        for sub_name, cell in self.cells_and_names():
            cell.__dict__["_cell_path"] = f"{prefix}.{sub_name}" if sub_name else prefix

    def update_parameters_name(self, prefix: str = "", recurse: bool = True) -> None:
        """Name every Parameter ``prefix + <its path in this Cell>``."""
        if not isinstance(prefix, str):
            raise TypeError(f"For 'update_parameters_name', 'prefix' must be a str, got {prefix!r}")
        for name, param in self.parameters_and_names(expand=recurse):
            param.name = prefix + name
        bump_structure_version()

    def insert_child_to_cell(self, child_name: str, child_cell: "Cell") -> None:
        """Add ``child_cell`` as ``child_name`` without renaming its Parameters."""
        if not isinstance(child_name, str) or not child_name or "." in child_name:
            raise KeyError(f"For 'insert_child_to_cell', 'child_name' must be a non-empty str "
                           f"without '.', got {child_name!r}")
        if child_cell is not None and not isinstance(child_cell, Cell):
            raise TypeError(f"For 'insert_child_to_cell', 'child_cell' must be a Cell, "
                            f"got {type(child_cell).__name__}")
        _, cells = self._registries()
        cells[child_name] = child_cell
        self.__dict__[child_name] = child_cell
        bump_structure_version()

    def insert_param_to_cell(self, param_name: str, param: Parameter,
                             check_name_contain_dot: bool = True) -> None:
        """Add ``param`` under ``param_name``."""
        if not isinstance(param_name, str) or not param_name:
            raise KeyError(f"For 'insert_param_to_cell', 'param_name' must be a non-empty str, got {param_name!r}")
        if check_name_contain_dot and "." in param_name:
            raise KeyError(f"For 'insert_param_to_cell', 'param_name' must not contain '.', got {param_name!r}")
        if not isinstance(param, Parameter):
            raise TypeError(f"For 'insert_param_to_cell', 'param' must be a Parameter, got {type(param).__name__}")
        params, _ = self._registries()
        if not param._named_by_user:
            param.name = param_name
        params[param_name] = param
        if "." not in param_name:
            self.__dict__[param_name] = param
        bump_structure_version()

    # -- traversal -----------------------------------------------------------
    def cells_and_names(self, cells: set[int] | None = None,
                        name_prefix: str = "") -> Iterator[tuple[str, "Cell"]]:
        """Every Cell in the tree (self first) with its path, each once."""
        seen = cells if cells is not None else set()
        if id(self) in seen:
            return
        seen.add(id(self))
        yield name_prefix, self
        for name, cell in self._cells.items():
            if cell is not None:
                sub = f"{name_prefix}.{name}" if name_prefix else name
                yield from cell.cells_and_names(seen, sub)

    def name_cells(self) -> "OrderedDict[str, Cell]":
        """The direct children, by attribute name."""
        return OrderedDict((k, v) for k, v in self._cells.items() if v is not None)

    def cells(self) -> list["Cell"]:
        """The direct children."""
        return list(self.name_cells().values())

    def parameters_and_names(self, name_prefix: str = "",
                             expand: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Every Parameter (each once) with its structural path."""
        cells = self.cells_and_names(name_prefix=name_prefix) if expand else [(name_prefix, self)]
        seen: set[int] = set()
        for cell_name, cell in cells:
            for par_name, par in cell._params.items():
                if par is not None and id(par) not in seen:
                    seen.add(id(par))
                    yield (f"{cell_name}.{par_name}" if cell_name else par_name), par

    def get_parameters(self, expand: bool = True) -> Iterator[Parameter]:
        """Every Parameter of the tree (or of this Cell only when ``expand`` is false)."""
        for _, p in self.parameters_and_names(expand=expand):
            yield p

    def trainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The Parameters with ``requires_grad=True``."""
        return [p for p in self.get_parameters(expand=recurse) if p.requires_grad]

    def untrainable_params(self, recurse: bool = True) -> list[Parameter]:
        """The Parameters with ``requires_grad=False`` (BatchNorm statistics ...)."""
        return [p for p in self.get_parameters(expand=recurse) if not p.requires_grad]

    def parameters_dict(self, recurse: bool = True) -> "OrderedDict[str, Parameter]":
        """``{param.name: param}`` for the whole tree."""
        return OrderedDict((p.name, p) for p in self.get_parameters(expand=recurse))

    def init_parameters_data(self, auto_parallel_mode: bool = False) -> "OrderedDict[str, Parameter]":
        """MindSpore's ``init_parameters_data``: values are always materialised here."""
        return self.parameters_dict()

    # -- flags and modes -----------------------------------------------------
    def set_train(self, mode: bool = True) -> "Cell":
        """Put the whole tree in training (``True``) or inference mode."""
        for _, cell in self.cells_and_names():
            cell.__dict__["training"] = bool(mode)
        bump_structure_version()
        return self

    def set_grad(self, requires_grad: bool = True) -> "Cell":
        """Accepted for MindSpore compatibility: gradients need no switch in MindJAX."""
        self.__dict__["requires_grad"] = requires_grad
        return self

    def add_flags(self, **flags: Any) -> "Cell":
        """Attach flags to this Cell."""
        self._flags.update(flags)
        bump_structure_version()
        return self

    def add_flags_recursive(self, **flags: Any) -> "Cell":
        """Attach flags to every Cell in the tree."""
        for _, cell in self.cells_and_names():
            cell.add_flags(**flags)
        return self

    def get_flags(self) -> dict[str, Any]:
        """This Cell's flags."""
        return self._flags

    def to_float(self, dst_type: Any) -> "Cell":
        """Run this tree in ``dst_type`` (float16, bfloat16 or float32).

        Floating inputs of every Cell below are cast to ``dst_type``, and so are
        its floating Parameters for the duration of the call (the stored
        Parameters keep their dtype: they are the float32 master weights). A
        later ``to_float(float32)`` on a sub-Cell, such as a BatchNorm, keeps it
        in float32.
        """
        dtype = to_jax_dtype(dst_type)
        if dtype not in (jnp.dtype(jnp.float16), jnp.dtype(jnp.float32), jnp.dtype(jnp.bfloat16)):
            raise ValueError(f"{self._where()}, 'dst_type' of to_float must be float16, bfloat16 or "
                             f"float32, got {dtype}")
        for _, cell in self.cells_and_names():
            cell.__dict__["_mixed_dtype"] = dtype
        bump_structure_version()
        return self

    def apply(self, fn: Callable[["Cell"], Any]) -> "Cell":
        """Call ``fn`` on every Cell of the tree (children first), return self."""
        for cell in self.cells():
            cell.apply(fn)
        fn(self)
        return self

    def set_inputs(self, *inputs: Any) -> None:
        """Declare the inputs of GRAPH-mode calls, with dynamic dimensions as ``None`` (or -1).

        ``net.set_inputs(Tensor(shape=[None, 3], dtype=ms.float32))``: calls are
        checked against it, and one trace serves every size of a dynamic
        dimension (see :mod:`mindjax.transforms.dynamic_shape`).
        """
        self.__dict__["_dynamic_inputs"] = inputs

    # -- hooks -----------------------------------------------------------------
    def _add_hook(self, registry: "OrderedDict[int, Callable[..., Any]]", fn: Callable[..., Any],
                  kind: str, prepend: bool = False, with_kwargs: bool = False,
                  always_call: bool = False) -> HookHandle:
        if not callable(fn):
            raise TypeError(f"{self._where()}, the hook passed to {kind} must be callable, "
                            f"got {type(fn).__name__}")
        if getattr(fn, "_is_jit_function", False):
            raise TypeError(f"{self._where()}, {kind} does not take a hook decorated with '@jit' "
                            f"({getattr(fn, '__name__', type(fn).__name__)})")
        key = next(_HOOK_IDS)
        registry[key] = fn
        if prepend:
            registry.move_to_end(key, last=False)
        if with_kwargs:
            _HOOKS_WITH_KWARGS.add(key)
        if always_call:
            _HOOKS_ALWAYS_CALLED.add(key)
        bump_structure_version()
        return HookHandle(registry, key)

    def register_forward_pre_hook(self, hook_fn: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> HookHandle:
        """``hook_fn(cell, inputs) -> None | new inputs`` runs before ``construct``.

        With ``with_kwargs=True`` it is ``hook_fn(cell, inputs, kwargs) -> None | (new inputs,
        new kwargs)``; ``prepend=True`` runs it before the hooks already registered.
        """
        return self._add_hook(self._forward_pre_hooks, hook_fn, "register_forward_pre_hook", prepend, with_kwargs)

    def register_forward_hook(self, hook_fn: Callable[..., Any], *, prepend: bool = False,
                              with_kwargs: bool = False, always_call: bool = False) -> HookHandle:
        """``hook_fn(cell, inputs, output) -> None | new output`` runs after ``construct``.

        With ``with_kwargs=True`` it is ``hook_fn(cell, inputs, kwargs, output)``; ``prepend=True``
        runs it before the hooks already registered; ``always_call=True`` runs it (with the output
        so far, None if there is none) also when construct raises, before the error goes on.
        """
        return self._add_hook(self._forward_hooks, hook_fn, "register_forward_hook", prepend, with_kwargs,
                              always_call)

    def register_backward_hook(self, hook_fn: Callable[..., Any]) -> HookHandle:
        """``hook_fn(cell, grad_input, grad_output) -> None | new grad_input`` runs in backward."""
        return self._add_hook(self._backward_hooks, hook_fn, "register_backward_hook")

    def register_backward_pre_hook(self, hook_fn: Callable[..., Any]) -> HookHandle:
        """``hook_fn(cell, grad_output) -> None | new grad_output`` runs before the backward."""
        return self._add_hook(self._backward_pre_hooks, hook_fn, "register_backward_pre_hook")

    def recompute(self, **_: Any) -> "Cell":
        """Recompute this Cell's activations in the backward pass (``jax.checkpoint``)."""
        self.__dict__["_recompute"] = True
        scope = self.__dict__.get("_scope")
        if scope is None or not scope.startswith(_RECOMPUTE_SCOPE):
            self.__dict__["_scope"] = _RECOMPUTE_SCOPE + (scope or "")
        bump_structure_version()
        return self

    def get_scope(self) -> str | None:
        """This Cell's scope name in its network (set by ``generate_scope``; ``recompute`` prefixes
        ``'recompute_'``), or None before either."""
        return self.__dict__.get("_scope")

    def generate_scope(self) -> None:
        """Name the scope of every Cell below this one ``'Default/name-ClassName/...'`` (the class
        part only while ``reserve_class_name_in_scope`` is not False), as MindSpore does."""
        with_class = context.get_context("reserve_class_name_in_scope") is not False

        def walk(cell: "Cell", prefix: str) -> None:
            for name, child in cell.name_cells().items():
                path = prefix + "/" + name + (("-" + type(child).__name__) if with_class else "")
                scope = child.__dict__.get("_scope")
                if scope is None:
                    child.__dict__["_scope"] = path
                elif scope == _RECOMPUTE_SCOPE:
                    child.__dict__["_scope"] = scope + path
                walk(child, path)
        walk(self, "Default")

    def shard(self, in_strategy: Any, out_strategy: Any = None, parameter_plan: Any = None,
              device: str = "Ascend", level: int = 0) -> None:
        """Lay out this Cell's inputs, outputs and Parameters (semi-auto and auto parallel).

        Arguments:
            in_strategy: per input, a tuple of split counts, a Layout, or None
                (data parallel), e.g. ``((2, 1),)``.
            out_strategy: the same per output, or None.
            parameter_plan: ``{parameter name: strategy}`` (``"self.fc1.weight"`` works).
            device, level: accepted for MindSpore compatibility.
        """
        UPCALLS.require("shard_cell")(self, in_strategy, out_strategy, parameter_plan)

    # -- calling ---------------------------------------------------------------
    def construct(self, *inputs: Any, **kwargs: Any) -> Any:
        """The forward computation; every subclass defines it."""
        raise AttributeError(f"{self._where()}, the method 'construct' is not defined: the Cell defines no "
                             f"construct(self, *inputs)")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if "_params" not in self.__dict__:
            raise AttributeError(f"The '{type(self).__name__}' object does not inherit attribute from 'cell'. "
                                 f"Please use 'super().__init__()'.")
        if not context.in_compiled():
            if context._MODE[0] == context.GRAPH_MODE:
                return UPCALLS.compiled_cell_call(self, args, kwargs)  # transforms sit above cells
            if _runs_as_one_program(self):
                out = UPCALLS.builtin_cell_call(self, args, kwargs)
                return wrap(out) if in_user_code() and not jax_inputs(args, kwargs) else unwrap(out)
            if context._PARALLEL["parallel_mode"] != "stand_alone":
                return self._eager_parallel_call(args, kwargs)
        return self._call_impl(args, kwargs)

    def _eager_parallel_call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """An eager call under a parallel mode: the outermost one is told to the parallel layer."""
        depth = _EAGER_PARALLEL_DEPTH
        if depth[0] == 0:
            check = UPCALLS.eager_parallel_call
            if check is not None:
                check(self, args, kwargs)
        depth[0] += 1
        try:
            return self._call_impl(args, kwargs)
        finally:
            depth[0] -= 1

    def _call_impl(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        planned = UPCALLS.planned_cell_call  # filled only while a planned compiled program traces
        if planned is not None:
            out = planned(self, args, kwargs)
            if out is not NOT_PLANNED:
                return out
        per_device = UPCALLS.per_device_call  # collectives in DATA_PARALLEL run per device
        if per_device is not None:
            out = per_device(self, args, kwargs)
            if out is not NOT_PER_DEVICE:
                return out
        # The Tensor boundary (see mindjax.common.tensor): a user-written construct and the hooks
        # see Tensors; a built-in layer's construct runs as framework code and sees arrays. The
        # caller gets Tensors back when it is user code, arrays when it is framework or JAX code.
        d = self.__dict__
        # A JAX caller (jax.Array inputs, no Tensor) gets arrays back.
        caller_is_user = in_user_code() and not jax_inputs(args, kwargs)
        user_construct = not _is_builtin_construct(type(self))
        if user_construct or d["_forward_pre_hooks"] or d["_forward_hooks"]:
            args, kwargs = wrap(args), wrap(kwargs)
        if d["_forward_pre_hooks"]:
            with user_code():
                for key, hook in list(d["_forward_pre_hooks"].items()):
                    if key in _HOOKS_WITH_KWARGS:
                        new = hook(self, args, kwargs)
                        if new is not None:
                            if not (isinstance(new, tuple) and len(new) == 2):
                                raise RuntimeError(f"{self._where()}, a forward pre hook with kwargs must return "
                                                   f"None or a tuple of (new_args, new_kwargs), but got {new!r}")
                            args, kwargs = new
                            args = args if isinstance(args, tuple) else (args,)
                    else:
                        new = hook(self, args)
                        if new is not None:
                            args = new if isinstance(new, tuple) else (new,)
        if not user_construct:
            args, kwargs = _plain_arrays(args), _plain_arrays(kwargs)
        mixed = d["_mixed_dtype"]
        if mixed is not None:
            args, kwargs = _cast_floats((args, kwargs), mixed)
        path = d["_cell_path"] or type(self).__name__
        profiler_scope = UPCALLS.cell_scope  # filled by mindjax.profiler while it records
        scope = jax.named_scope(path) if profiler_scope is None else profiler_scope(self, path)
        try:
            with scope, (user_code() if user_construct else inside_framework()):
                if mixed is not None:
                    out = self._run_construct_with_cast_params(mixed, args, kwargs)
                else:
                    out = self._run_construct(args, kwargs)
        except Exception:
            if d["_forward_hooks"]:
                self._run_always_called_hooks(args, kwargs)
            raise
        if d["_forward_hooks"]:
            out = wrap(out)
            with user_code():
                for key, hook in list(d["_forward_hooks"].items()):
                    new = hook(self, args, kwargs, out) if key in _HOOKS_WITH_KWARGS else hook(self, args, out)
                    if new is not None:
                        out = new
        return wrap(out) if caller_is_user else unwrap(out)

    def _run_always_called_hooks(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Construct raised: the ``always_call`` forward hooks run with no output; their errors only warn."""
        out = None
        with user_code():
            for key, hook in list(self.__dict__["_forward_hooks"].items()):
                if key not in _HOOKS_ALWAYS_CALLED:
                    continue
                try:
                    new = hook(self, args, kwargs, out) if key in _HOOKS_WITH_KWARGS else hook(self, args, out)
                except Exception as e:  # noqa: BLE001  (the construct's error is the one raised)
                    warnings.warn(f"{self._where()}, a forward hook with always_call=True raised an error that "
                                  f"was silenced because construct had already raised: {e}")
                    continue
                if new is not None:
                    out = new

    def _run_construct(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        d = self.__dict__
        policy = d["_amp_policy"]
        if policy is None and d["_mixed_dtype"] is not None:
            policy = NO_CAST  # to_float's precision comes first (MindSpore's 'auto' level documents it)
        if policy is not None:  # mixed precision: the Primitives called in construct run under the policy
            with policy_scope(policy):
                return self._run_construct_as_written(args, kwargs)
        return self._run_construct_as_written(args, kwargs)

    def _run_construct_as_written(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        d = self.__dict__
        if d["_backward_hooks"] or d["_backward_pre_hooks"] or d["_recompute"] \
                or _has_bprop(type(self)):
            return UPCALLS.require("backward_rules")(self, args, kwargs)
        hook = UPCALLS.converted_construct  # GRAPH mode runs construct with its control flow converted
        return hook(self, args, kwargs) if hook is not None else self.construct(*args, **kwargs)

    def _run_construct_with_cast_params(self, dtype: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        own = [p for p in self._params.values()
               if p is not None and jnp.issubdtype(p._raw.dtype, jnp.floating) and p._raw.dtype != dtype]
        saved = [p._raw for p in own]
        for p, v in zip(own, saved):
            object.__setattr__(p, "_raw", v.astype(dtype))
        casted = [p._raw for p in own]
        try:
            return self._run_construct(args, kwargs)
        finally:
            for p, v, c in zip(own, saved, casted):
                written = p._raw
                object.__setattr__(p, "_raw", v if written is c else written.astype(v.dtype))

    # -- printing ----------------------------------------------------------------
    def extend_repr(self) -> str:
        """Extra text inside this Cell's repr (layers describe their arguments)."""
        return ""

    def __repr__(self) -> str:
        extra = self.extend_repr()
        children = self.name_cells()
        if not children:
            return f"{type(self).__name__}({extra})"
        lines = [f"{type(self).__name__}("]
        if extra:
            lines.append("  " + extra.replace("\n", "\n  "))
        for name, cell in children.items():
            sub = repr(cell).replace("\n", "\n  ")
            lines.append(f"  ({name}): {sub}")
        lines.append(")")
        return "\n".join(lines)


_BPROP_BY_CLASS: dict[type, bool] = {}


def _has_bprop(cls: type) -> bool:
    found = _BPROP_BY_CLASS.get(cls)
    if found is None:
        found = _BPROP_BY_CLASS[cls] = any("bprop" in klass.__dict__ for klass in cls.__mro__)
    return found
