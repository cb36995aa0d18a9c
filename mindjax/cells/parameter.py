"""``Parameter`` and ``ParameterTuple``.

A Parameter is a named :class:`~mindjax.common.variable.Variable`, so a
:class:`~mindjax.Tensor`: it has the whole Tensor method set, and compiled
calls treat it as state. It is registered as a pytree with its value as the
single leaf, so JAX transforms accept it.

Example:
    >>> import numpy as np, mindjax as ms
    >>> w = ms.Parameter(ms.Tensor(np.ones((2, 2)), ms.float32), name="w")
    >>> w.set_data(w * 3)
    >>> float(w.sum()), w.name
    (12.0, 'w')
"""
from __future__ import annotations

import contextlib
import itertools
from typing import Any, Iterable, Iterator

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common.dtype import to_ms_dtype
from mindjax.common.tensor import Tensor, in_user_code
from mindjax.common.variable import Variable

_UNNAMED = itertools.count(1)
_DEFAULT_NAME = "Parameter"


def _as_array(data: Any) -> Any:
    if isinstance(data, Tensor):
        data = data._value
    if isinstance(data, jax.Array):
        return data.astype(data.dtype) if getattr(data, "weak_type", False) else data
    from mindjax.common.initializer import Initializer  # lazy: initializer imports tensors

    if isinstance(data, Initializer):
        raise TypeError("Parameter(Initializer) needs a shape: use initializer(init, shape, dtype)")
    return Tensor(data)._value


class Parameter(Variable):
    """A trainable (or frozen) named array owned by Cells.

    Arguments:
        default_input: the initial value: a Tensor, numpy array or number.
        name: the parameter's name. Unnamed parameters take the attribute path
            they are assigned to (``conv1.weight``), as in MindSpore.
        requires_grad: whether optimizers and ``trainable_params`` see it.
        layerwise_parallel, parallel_optimizer: accepted for MindSpore
            compatibility; sharding is set with ``Cell.shard``.
    """

    #: MindSpore's flag that :func:`no_init_parameters` turns off while Parameters are built.
    init_param: bool = True

    def __init__(self, default_input: Any, name: str | None = None, requires_grad: bool = True,
                 layerwise_parallel: bool = False, parallel_optimizer: bool = True,
                 storage_format: str = "") -> None:
        super().__init__(_as_array(default_input))
        if name is not None and not isinstance(name, str):
            raise ValueError(f"For 'Parameter', 'name' must be a str, got {type(name).__name__}")
        self.__dict__["_name"] = name if name else f"{_DEFAULT_NAME}#{next(_UNNAMED)}"
        self.__dict__["_named_by_user"] = bool(name)
        self.__dict__["requires_grad"] = bool(requires_grad)
        self.__dict__["layerwise_parallel"] = layerwise_parallel
        self.__dict__["parallel_optimizer"] = parallel_optimizer
        self.__dict__["sharding"] = None

    # -- identity ---------------------------------------------------------
    @property
    def name(self) -> str:
        """The parameter's (hierarchical) name."""
        return self.__dict__["_name"]

    @name.setter
    def name(self, value: str) -> None:
        if not isinstance(value, str):
            raise ValueError(f"For 'Parameter', 'name' must be a str, got {type(value).__name__}")
        self.__dict__["_name"] = value

    def __setattr__(self, key: str, value: Any) -> None:
        if key == "requires_grad":
            value = bool(value)
        if key in ("name", "_value", "_raw"):
            object.__setattr__(self, key, value)
        else:
            self.__dict__[key] = value

    __hash__ = object.__hash__

    # -- value ------------------------------------------------------------
    @property
    def data(self) -> "Parameter":
        """MindSpore's ``Parameter.data``: the Parameter itself."""
        return self

    def value(self) -> Any:
        """The Parameter's current value: a Tensor for MindSpore code (``p.value().asnumpy()``), as
        in MindSpore; the ``jax.Array`` itself for framework code and JAX callers inside it."""
        raw = self._value
        return Tensor._wrap(raw) if in_user_code() else raw

    def set_data(self, data: Any, slice_shape: bool = False) -> "Parameter":
        """Replace the value; the new data is cast to this Parameter's dtype.

        As in MindSpore, the shape may change. Inside a compiled call the
        write becomes part of the program's state output.
        """
        new = _as_array(data)
        old = self._raw
        if old is not None and hasattr(old, "dtype") and new.dtype != old.dtype:
            new = new.astype(old.dtype)
        elif getattr(new, "weak_type", False):
            # A weakly typed value would change the compiled programs' signature.
            new = new.astype(new.dtype)
        self._value = new
        return self

    def assign_value(self, value: Any) -> "Parameter":
        """Alias of :meth:`set_data` (MindSpore's ``assign_value``)."""
        return self.set_data(value)

    def init_data(self, *_: Any, **__: Any) -> "Parameter":
        """Materialise the value (MindJAX values are always materialised)."""
        return self

    def clone(self, init: Any = "same") -> "Parameter":
        """A new Parameter with the same name, flags and layout, a copy of the value or ``init``."""
        if isinstance(init, str) and init == "same":
            value = jnp.array(self._value, copy=True)
        else:
            from mindjax.common.initializer import initializer

            value = initializer(init, self.shape, self.dtype)
        twin = Parameter(value, name=self.name, requires_grad=self.requires_grad,
                         layerwise_parallel=self.layerwise_parallel,
                         parallel_optimizer=self.parallel_optimizer)
        twin.__dict__["_named_by_user"] = self._named_by_user
        # Optimizer states are clones of their Parameters: they share its layout, also one set on
        # the Parameter after cloning (see ``_followed_layout``).
        twin.__dict__["sharding"] = self.__dict__.get("sharding")
        twin.__dict__["_layout_source"] = (self, twin.__dict__["sharding"])
        return twin

    def _followed_layout(self) -> "Parameter | None":
        """The Parameter whose layout this one follows: the original of a clone (an optimizer state).

        A clone follows its original's current ``sharding`` until a layout is set
        on the clone itself.
        """
        source = self.__dict__.get("_layout_source")
        if source is None or self.__dict__.get("sharding") is not source[1]:
            return None
        return source[0] if tuple(source[0].shape) == self.shape else None

    def __repr__(self) -> str:
        raw = self._raw
        if raw is None:
            return f"Parameter (name={self.name}, uninitialised)"
        dtype = to_ms_dtype(raw.dtype)
        return (f"Parameter (name={self.name}, shape={tuple(raw.shape)}, dtype={dtype}, "
                f"requires_grad={self.requires_grad})")

    __str__ = __repr__


def _flatten_parameter(p: Parameter) -> tuple[tuple[Any], tuple[str, bool]]:
    return (p._raw,), (p.name, p.requires_grad)


def _unflatten_parameter(aux: tuple[str, bool], children: Any) -> Parameter:
    twin = Parameter.__new__(Parameter)
    Variable.__init__(twin, children[0])
    twin.__dict__.update(_name=aux[0], _named_by_user=True, requires_grad=aux[1],
                         layerwise_parallel=False, parallel_optimizer=True, sharding=None,
                         _transient=True)
    return twin


jax.tree_util.register_pytree_node(Parameter, _flatten_parameter, _unflatten_parameter)


class ParameterTuple(tuple):
    """A tuple of Parameters, as MindSpore's ``ParameterTuple``.

    Example:
        >>> params = ParameterTuple(net.trainable_params())   # doctest: +SKIP
        >>> moments = params.clone(prefix="moments", init="zeros")   # doctest: +SKIP
    """

    def __new__(cls, iterable: Iterable[Parameter]) -> "ParameterTuple":
        items = tuple(iterable)
        for i, item in enumerate(items):
            if not isinstance(item, Parameter):
                raise TypeError(f"For 'ParameterTuple', element {i} must be a Parameter, "
                                f"got {type(item).__name__}")
        return super().__new__(cls, items)

    def clone(self, prefix: str, init: Any = "same") -> "ParameterTuple":
        """Clone every Parameter, naming each ``prefix.<name>``."""
        if not isinstance(prefix, str) or not prefix:
            raise ValueError(f"For 'ParameterTuple.clone', 'prefix' must be a non-empty str, got {prefix!r}")
        out = []
        for p in self:
            twin = p.clone(init)
            twin.name = f"{prefix}.{p.name}"
            out.append(twin)
        return ParameterTuple(out)


@contextlib.contextmanager
def no_init_parameters() -> Iterator[None]:
    """MindSpore's ``nn.utils.no_init_parameters``: Parameters built inside the block may skip their
    initialisation until ``init_data``/``Cell.init_parameters_data`` (or a checkpoint load).

    MindJAX's values are always materialised (``init_data`` returns the Parameter as it is), so the
    Parameters built here hold their initial values as usual; the block only sets
    ``Parameter.init_param`` to False while it runs, as MindSpore does, and restores it on exit.

    Example:
        >>> with no_init_parameters():
        ...     p = Parameter(np.ones(2, np.float32), name="w")
        >>> p.init_data().asnumpy().tolist()
        [1.0, 1.0]
    """
    before = Parameter.init_param
    Parameter.init_param = False
    try:
        yield
    finally:
        Parameter.init_param = before
