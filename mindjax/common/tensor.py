"""``ms.Tensor``: MindSpore's mutable Tensor, holding one ``jax.Array``.

A Tensor is a light Python object around a ``jax.Array`` (a tracer inside
compiled code). It carries MindSpore's semantics that a ``jax.Array`` cannot:
in-place writes (``x[0] = 1``, ``assign_value``, ``set_dtype``) that every alias
sees, MindSpore's method set and signatures (``sort`` returns values and
indices, ``mean(axis, keep_dims)``), MindSpore's printing and dtype objects,
and MindSpore's dtype inference (``Tensor([1, 2])`` is Int64).

The boundary between Tensors and arrays is one place, :func:`tensor_op`:
public ops unwrap their inputs with :func:`as_array`, compute on arrays, and
the outermost op call wraps what it returns. Code inside an op or a built-in
Cell therefore only ever sees ``jax.Array``s; user code only ever sees Tensors.
Tensors are registered pytrees, so they pass through ``jax.jit``, ``jax.grad``
and ``jax.vmap``; ``jnp.asarray(t)`` or ``t.value()`` is the ``jax.Array``, and
``ms.Tensor(array)`` wraps one without a copy. JAX's own classes are untouched.

Example:
    >>> import numpy as np, mindjax as ms
    >>> t = ms.Tensor(np.array([3., 1., 2.], np.float32))
    >>> values, indices = t.sort()
    >>> t[0] = 5.0
    >>> t
    Tensor(shape=[3], dtype=Float32, value= [ 5.00000000e+00,  1.00000000e+00,  2.00000000e+00])
"""
from __future__ import annotations

import functools
import math
import threading
import warnings
from typing import Any, Callable, Iterator

import jax
import jax.numpy as jnp
import numpy as np

from mindjax.common import dtype as mstype
from mindjax.common.dtype import Type, to_jax_dtype, to_ms_dtype
from mindjax.common.precision import run_as

# --- the boundary --------------------------------------------------------------------

_LOCAL = threading.local()


def _depth() -> int:
    return getattr(_LOCAL, "depth", 0)


class _Depth:
    """Context manager setting this thread's boundary depth (0: user code, 1: inside MindJAX)."""

    __slots__ = ("_new", "_old")

    def __init__(self, new: int) -> None:
        self._new = new

    def __enter__(self) -> None:
        self._old = getattr(_LOCAL, "depth", 0)
        _LOCAL.depth = self._new

    def __exit__(self, *exc: Any) -> None:
        _LOCAL.depth = self._old


def inside_framework() -> _Depth:
    """Run the block as MindJAX code: ops called in it return ``jax.Array``s.

    Example:
        >>> with inside_framework():            # doctest: +SKIP
        ...     y = ops.relu(x)                 # a jax.Array
    """
    return _Depth(1)


def user_code() -> _Depth:
    """Run the block as user code: ops called in it return Tensors (callbacks, hooks, bprops)."""
    return _Depth(0)


def in_user_code() -> bool:
    """True when the caller runs as user code (results should be Tensors)."""
    return getattr(_LOCAL, "depth", 0) == 0


def _is_array_leaf(x: Any) -> bool:
    return isinstance(x, Tensor)


def wrap(tree: Any) -> Any:
    """Every ``jax.Array`` leaf of ``tree`` as a Tensor (Tensors and other leaves unchanged)."""
    if isinstance(tree, jax.Array):
        return Tensor._wrap(tree)
    if isinstance(tree, Tensor) or tree is None or isinstance(tree, (int, float, str, bool, np.ndarray)):
        return tree
    return jax.tree_util.tree_map(lambda x: Tensor._wrap(x) if isinstance(x, jax.Array) else x,
                                  tree, is_leaf=_is_array_leaf)


def unwrap(tree: Any) -> Any:
    """Every Tensor leaf of ``tree`` as its ``jax.Array`` (the inverse of :func:`wrap`)."""
    if isinstance(tree, Tensor):
        return tree._value
    if tree is None or isinstance(tree, (int, float, str, bool, jax.Array, np.ndarray)):
        return tree
    return jax.tree_util.tree_map(lambda x: x._value if isinstance(x, Tensor) else x,
                                  tree, is_leaf=_is_array_leaf)


def _out(x: Any) -> Any:
    """``x`` (a jax.Array) as its caller should see it: a Tensor for user code."""
    return Tensor._wrap(x) if getattr(_LOCAL, "depth", 0) == 0 else x


def jax_inputs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """True when the arguments hold ``jax.Array``s and no Tensor: a JAX caller, who gets arrays back.

    Looks at the arguments and one level into lists, tuples and dicts.
    """
    found = False
    for group in (args, kwargs.values()):
        for a in group:
            items = a if isinstance(a, (list, tuple)) else a.values() if isinstance(a, dict) else (a,)
            for x in items:
                if isinstance(x, Tensor):
                    return False
                if isinstance(x, jax.Array):
                    found = True
    return found


def tensor_op(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Make ``fn`` a public op: the boundary where results become Tensors.

    ``fn`` itself works on arrays (it converts its inputs with :func:`as_array`).
    Called from user code, its results are wrapped into Tensors, unless the
    caller passed ``jax.Array``s and no Tensor: JAX code gets ``jax.Array``s
    back. Called from inside another op or a built-in Cell, it returns arrays,
    so implementation code never sees a Tensor it did not ask for.

    Example:
        >>> @tensor_op
        ... def double(x):
        ...     return as_array(x) * 2
        >>> double(Tensor([1.0]))
        Tensor(shape=[1], dtype=Float32, value= [ 2.00000000e+00])
    """
    @functools.wraps(fn)
    def boundary(*args: Any, **kwargs: Any) -> Any:
        if getattr(_LOCAL, "depth", 0):
            return fn(*args, **kwargs)
        _LOCAL.depth = 1
        try:
            out = fn(*args, **kwargs)
        finally:
            _LOCAL.depth = 0
        return out if jax_inputs(args, kwargs) else wrap(out)

    # The raw implementation (under any naming decorator), for callers that name errors themselves.
    boundary.__wrapped__ = getattr(fn, "__wrapped__", fn)  # type: ignore[attr-defined]
    return boundary


# --- construction ----------------------------------------------------------------------

def _x64() -> bool:
    return bool(jax.config.jax_enable_x64)


def _narrowed(np_dtype: np.dtype) -> np.dtype:
    """``np_dtype``, or its 32-bit counterpart when 64-bit types are switched off."""
    if _x64() or np_dtype.itemsize < 8 or np_dtype.kind not in "iuf":
        return np_dtype
    narrow = {"i": np.dtype(np.int32), "u": np.dtype(np.uint32), "f": np.dtype(np.float32)}[np_dtype.kind]
    warnings.warn(f"{np_dtype} data becomes {narrow}: 64-bit types are off "
                  f"(ms.set_context(enable_x64=True) turns them on)", stacklevel=4)
    return narrow


def _infer_dtype(data: Any) -> np.dtype | None:
    """MindSpore's dtype for Python data: bool -> Bool, int -> Int64, float -> Float32."""
    if isinstance(data, (bool, np.bool_)):
        return np.dtype(np.bool_)
    if isinstance(data, int):
        return np.dtype(np.int64)
    if isinstance(data, float):
        return np.dtype(np.float32)
    if isinstance(data, complex):
        return np.dtype(np.complex64)
    if isinstance(data, (list, tuple)):
        arr = np.asarray(_plain(data))
        if arr.dtype == np.float64:
            return np.dtype(np.float32)
        if arr.dtype == np.complex128:
            return np.dtype(np.complex64)
        return arr.dtype
    return None


def _plain(data: Any) -> Any:
    """Nested lists/tuples with their Tensors as numpy arrays (for ``np.asarray``)."""
    if isinstance(data, Tensor):
        return np.asarray(data._value)
    if isinstance(data, jax.Array):
        return np.asarray(data)
    if isinstance(data, (list, tuple)):
        return [_plain(d) for d in data]
    return data


def _to_array(data: Any, dtype: np.dtype | None) -> jax.Array:
    if isinstance(data, Tensor):
        data = data._value
    if isinstance(data, jax.Array):
        return data if dtype is None or data.dtype == dtype else data.astype(dtype)
    # ``Tensor(arr)`` copies, as in MindSpore; ``jnp.asarray`` would not always: XLA:CPU aliases a
    # 64-byte-aligned host buffer zero-copy (and reads others asynchronously), so later writes
    # to the caller's ``arr`` would show in the Tensor. Its data is copied into a private array.
    callers = isinstance(data, np.ndarray)
    if dtype is None:
        dtype = _infer_dtype(data)
    if isinstance(data, (list, tuple)):
        data = np.asarray(_plain(data), dtype=dtype)
    elif not isinstance(data, (np.ndarray, np.generic)):
        data = np.asarray(data, dtype=dtype)
    np_dtype = np.dtype(dtype if dtype is not None else data.dtype)
    if np_dtype.kind in "USO":
        raise TypeError(f"For 'Tensor', 'input_data' must be numeric or bool data, got {np_dtype} "
                        f"({type(data).__name__})")
    target = _narrowed(np_dtype)
    # Python/numpy data is a constant: built at trace time too, so that inside a compiled program
    # its value stays known (``lst[Tensor([1])]``, ``int(Tensor(2))``), as MindSpore folds it.
    with jax.ensure_compile_time_eval():
        if callers:
            return jnp.asarray(np.array(data, dtype=target, copy=True))
        return jnp.asarray(data, dtype=target)


def _dynamic_dim(d: Any) -> bool:
    """A dimension of any size in ``Tensor(shape=...)``: ``None``, or an ``ms.Symbol`` (it says so)."""
    return d is None or getattr(d, "_dynamic_dim", False) is True


class ShapeOnly:
    """The value of a shape-only Tensor such as ``Tensor(shape=[None, 3], dtype=ms.float32)``.

    It holds no data: it describes the inputs of a compiled program
    (``Cell.set_inputs``, ``ms.jit(input_signature=...)``), with ``-1`` for
    each dynamic dimension, as MindSpore shows them.
    """

    __slots__ = ("shape", "dtype", "symbols")

    def __init__(self, shape: tuple[int, ...], dtype: Any, symbols: tuple[Any, ...] | None = None) -> None:
        self.shape = shape
        self.dtype = np.dtype(dtype)
        # The dimensions as given (ints, None, ``ms.Symbol``s) when one is a Symbol; else None.
        self.symbols = symbols

    @property
    def ndim(self) -> int:
        return len(self.shape)


class LazyInit:
    """The value of a Tensor built from an initializer and not read yet:
    ``Tensor(shape=(2, 2), dtype=ms.float32, init=One())``.

    As MindSpore keeps the initializer until ``init_data()`` (or ``asnumpy()``), MindJAX
    keeps it here; the first read of the value (an op, ``asnumpy``, ``init_data``) builds
    the array in its place. Printing such a Tensor shows ``<uninitialized>``.
    """

    __slots__ = ("shape", "dtype", "init")

    def __init__(self, shape: tuple[int, ...], dtype: Any, init: Any) -> None:
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self.init = init

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def build(self) -> jax.Array:
        """The array the initializer gives (random ones draw from the global seed now)."""
        return self.init(self.shape, self.dtype)  # an Initializer, checked when the Tensor was built


def _aligned_empty(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """An uninitialised C-contiguous array whose data starts on a 64-byte boundary."""
    nbytes = math.prod(shape) * dtype.itemsize
    buf = np.empty(nbytes + 64, np.uint8)
    start = -buf.ctypes.data % 64
    return buf[start:start + nbytes].view(dtype).reshape(shape)


class NumpyStorage:
    """The value of a Tensor made by :func:`from_numpy`: the numpy array is its storage.

    MindSpore's ``from_numpy`` shares memory with the array: a later write to the
    array (``arr[0] = 1``, ``np.add(arr, 1, out=arr)``) shows in the Tensor, an
    in-place write to the Tensor (``t[0] = 1``, ``t.add_(1)``) shows in the array,
    and ``t.asnumpy()`` is the array itself. So the Tensor keeps the array, and
    each read of its value (an op, printing, a compiled call's argument) makes
    the ``jax.Array`` from the array's current contents.

    A read copies the array into a private buffer first. XLA:CPU would alias a
    64-byte-aligned numpy buffer zero-copy and reads a host buffer
    asynchronously, so an op still running (or a transfer still in flight)
    could see a write the user made to the array after the op was called; the
    private copy makes each op see the array as it was when the op was called.
    Ordinary Tensors never hold one of these and pay nothing for it.
    """

    __slots__ = ("array", "dtype")

    def __init__(self, array: np.ndarray, dtype: np.dtype) -> None:
        self.array = array
        self.dtype = np.dtype(dtype)  # the Tensor's dtype (narrowed to 32 bits when x64 is off)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.array.shape

    @property
    def ndim(self) -> int:
        return self.array.ndim

    def read(self) -> jax.Array:
        """The array's current contents as a new ``jax.Array``."""
        array = self.array
        private = _aligned_empty(array.shape, self.dtype)
        np.copyto(private, array, casting="unsafe")
        return jax.device_put(private)  # 64-byte aligned: XLA:CPU takes it without a second copy

    def write(self, new: Any) -> bool:
        """Write ``new`` into the array; False when it cannot hold it (a traced value, another
        shape or dtype, a read-only array), and the Tensor then takes ``new`` as its own value."""
        if (isinstance(new, jax.core.Tracer) or not hasattr(new, "shape")
                or tuple(new.shape) != self.array.shape or np.dtype(new.dtype) != self.dtype
                or not self.array.flags.writeable):
            return False
        np.copyto(self.array, np.asarray(new), casting="unsafe")
        return True

    def shared(self) -> np.ndarray | None:
        """The array, when it is what ``asnumpy`` should give (its dtype is the Tensor's)."""
        return self.array if self.array.dtype == self.dtype else None


class Tensor:
    """MindSpore's ``Tensor``: a mutable holder of one ``jax.Array``.

    Arguments:
        input_data: numpy array, list/tuple, Python or numpy scalar, Tensor or
            ``jax.Array`` (wrapped without a copy).
        dtype: the target dtype (``ms.float32``, a numpy/JAX dtype or its name).
            By default MindSpore's rules: Python ``int`` data is Int64,
            ``float`` Float32, ``bool`` Bool; numpy arrays keep their dtype.
        shape, init: build from an initializer instead of data, as in
            ``Tensor(shape=(2, 3), dtype=ms.float32, init=Normal())``.
        const_arg, device: accepted for MindSpore compatibility.

    Example:
        >>> Tensor([1, 2]).dtype
        mindspore.int64
    """

    __slots__ = ("_raw", "__weakref__")
    # Checked by as_array and the state code; Parameters and other Variables say True.
    _is_mindjax_variable = False
    # ``numpy_array + tensor`` defers to the Tensor's reflected operator (a Tensor, as MindSpore).
    __array_priority__ = 1000

    def __init__(self, input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
                 const_arg: bool = False, device: Any = None, **_: Any) -> None:
        np_dtype = to_jax_dtype(dtype) if dtype is not None else None
        if input_data is None:
            if shape is None:
                raise ValueError("For 'Tensor', give 'input_data', or 'shape' and 'init'; got neither")
            from mindjax.common.initializer import initializer  # lazy: initializer imports tensor

            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            if init is None and any(_dynamic_dim(d) or d == -1 for d in shape):
                # A dynamic dimension: a description of inputs, holding no data (MindSpore shows -1).
                symbols = shape if any(d is not None and _dynamic_dim(d) for d in shape) else None
                object.__setattr__(self, "_raw", ShapeOnly(tuple(-1 if _dynamic_dim(d) else int(d) for d in shape),
                                                           np_dtype if np_dtype is not None else np.float32,
                                                           symbols))
                return
            dt = np_dtype if np_dtype is not None else np.float32
            if init is not None:  # MindSpore keeps the initializer until the data is asked for
                from mindjax.common.initializer import _resolved  # lazy: initializer imports tensor

                init, shape, dt = _resolved(init, shape, dt)  # checked now, built on first read
                if not isinstance(init, jax.Array):
                    object.__setattr__(self, "_raw", LazyInit(shape, dt, init))
                    return
                raw = init
            else:
                raw = as_array(initializer("zeros", shape, dt))
        else:
            if init is not None:
                raise ValueError("For 'Tensor', 'init' is used with 'shape' only, not with 'input_data'")
            raw = _to_array(input_data, np_dtype)
            if shape is not None:
                want = (shape,) if isinstance(shape, int) else tuple(shape)
                if tuple(raw.shape) != want:
                    raise ValueError(f"For 'Tensor', 'shape' {want} does not match the data's "
                                     f"shape {tuple(raw.shape)}")
        object.__setattr__(self, "_raw", raw)

    @classmethod
    def _wrap(cls, raw: Any) -> "Tensor":
        t = object.__new__(Tensor)
        object.__setattr__(t, "_raw", raw)
        return t

    @staticmethod
    def from_numpy(array: np.ndarray) -> "Tensor":
        """A Tensor sharing ``array``'s memory, as MindSpore's ``Tensor.from_numpy``.

        Writes to ``array`` after the call show in the Tensor, in-place writes to the
        Tensor (``t[0] = 1``, ``t.add_(1)``, an in-place write inside a compiled Cell)
        go into ``array``, and ``t.asnumpy()`` returns ``array`` itself (see
        :class:`NumpyStorage`). ``assign_value`` and ``set_dtype`` give the Tensor data
        of its own, as in MindSpore. A non-contiguous array is copied
        (MindSpore does the same): then nothing is shared.

        Example:
            >>> arr = np.ones(3, np.float32)
            >>> t = Tensor.from_numpy(arr)
            >>> arr[0] = 5
            >>> t
            Tensor(shape=[3], dtype=Float32, value= [ 5.00000000e+00,  1.00000000e+00,  1.00000000e+00])
        """
        if not isinstance(array, np.ndarray):
            raise TypeError(f"For 'Tensor.from_numpy', 'array' must be a numpy.ndarray, got "
                            f"{type(array).__name__}")
        if array.dtype.kind in "USOV":
            raise TypeError(f"For 'Tensor.from_numpy', 'array' must hold numeric or bool data, got "
                            f"{array.dtype}")
        dtype = _narrowed(array.dtype)
        if not array.flags.c_contiguous:
            return Tensor._wrap(jnp.asarray(np.ascontiguousarray(array), dtype=dtype))
        return Tensor._wrap(NumpyStorage(array, dtype))

    # -- the value ------------------------------------------------------------------
    @property
    def _value(self) -> Any:
        raw = self._raw
        cls = raw.__class__
        if cls is LazyInit:  # first read of an initializer-built Tensor: build it
            raw = raw.build()
            object.__setattr__(self, "_raw", raw)
        elif cls is NumpyStorage:  # made by from_numpy: the array's contents now
            return raw.read()
        return raw

    @_value.setter
    def _value(self, new: Any) -> None:
        object.__setattr__(self, "_raw", new)

    def _meta(self) -> Any:
        """What shape and dtype are read from: the value, or the description of a value not built."""
        raw = self._raw
        cls = raw.__class__
        return raw if cls is LazyInit or cls is NumpyStorage else self._value

    def value(self) -> jax.Array:
        """The ``jax.Array`` this Tensor holds (a tracer inside compiled code)."""
        return self._value

    def __jax_array__(self) -> jax.Array:
        return self._value

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        raw = self._raw
        shared = raw.shared() if raw.__class__ is NumpyStorage else None
        out = shared if shared is not None else np.asarray(self._value)
        return out.astype(dtype) if dtype is not None else out

    def _write(self, new: Any) -> None:
        """Replace the value in place; every alias of this Tensor sees it (and, for a Tensor made
        by ``from_numpy``, the numpy array it shares, when ``new`` fits it)."""
        raw = self._raw
        if raw.__class__ is NumpyStorage and raw.write(new):
            return
        self._value = new

    # -- attributes -------------------------------------------------------------------
    @property
    def shape(self) -> tuple[int, ...]:
        """The shape, a tuple of ints."""
        return tuple(self._meta().shape)

    @property
    def dtype(self) -> Type:
        """The MindSpore dtype (``ms.float32`` ...)."""
        return to_ms_dtype(self._meta().dtype)

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self._meta().ndim

    @property
    def size(self) -> int:
        """The number of elements."""
        return int(math.prod(self._meta().shape))

    @property
    def itemsize(self) -> int:
        """Bytes per element."""
        return np.dtype(self._meta().dtype).itemsize

    @property
    def nbytes(self) -> int:
        """Bytes of the whole Tensor."""
        return self.size * self.itemsize

    @property
    def strides(self) -> tuple[int, ...]:
        """Byte strides of the (contiguous, row-major) layout."""
        return tuple(s * self.itemsize for s in _contiguous_strides(self.shape))

    def stride(self, dim: int | None = None) -> Any:
        """Element strides of the contiguous layout; one of them with ``dim``."""
        strides = _contiguous_strides(self.shape)
        return strides if dim is None else strides[dim]

    @property
    def T(self) -> "Tensor":
        """The transpose (all axes reversed)."""
        return _out(jnp.transpose(self._value))

    @property
    def mT(self) -> "Tensor":
        """The last two axes swapped."""
        return _out(jnp.swapaxes(self._value, -1, -2))

    @property
    def H(self) -> "Tensor":
        """The conjugate transpose of a 2-D Tensor."""
        return _out(jnp.conj(jnp.transpose(self._value)))

    @property
    def real(self) -> "Tensor":
        """The real part."""
        return _out(jnp.real(self._value))

    @property
    def imag(self) -> "Tensor":
        """The imaginary part."""
        return _out(jnp.imag(self._value))

    @property
    def has_init(self) -> bool:
        """Whether the Tensor still holds an initializer instead of data (see :class:`LazyInit`)."""
        return self._raw.__class__ is LazyInit

    @property
    def init(self) -> Any:
        """The initializer not yet applied, or None once the Tensor holds data."""
        raw = self._raw
        return raw.init if raw.__class__ is LazyInit else None

    @property
    def device(self) -> str:
        """Where the data lives (``'CPU'``, ``'GPU'`` ...)."""
        try:
            return next(iter(self._value.devices())).platform.upper()
        except Exception:  # a tracer has no device
            return "CPU"

    # -- conversion -------------------------------------------------------------------
    def asnumpy(self) -> np.ndarray:
        """The data as a numpy array: a copy, or for a Tensor made by ``from_numpy`` the numpy
        array it shares (writes to it show in the Tensor, as in MindSpore).

        In PYNATIVE mode this also works under ``ms.grad``, where the value is being
        differentiated but known; inside GRAPH mode or ``ms.jit`` it is not known and raises.
        """
        raw = self._raw
        if raw.__class__ is NumpyStorage:
            shared = raw.shared()
            if shared is not None:
                return shared
        raw = _known_value(self._value)
        if isinstance(raw, jax.core.Tracer):
            raise TypeError(
                "Tensor.asnumpy() reads a concrete value, but this Tensor is traced inside "
                "GRAPH_MODE / ms.jit; return it from the compiled function, or use "
                "jax.debug.print / jax.debug.callback to look at it inside")
        return np.array(raw)

    numpy = asnumpy

    def item(self, index: Any = None) -> Any:
        """The element as a Python number (the only one, or the one at ``index``)."""
        arr = self.asnumpy()
        if index is None:
            if arr.size != 1:
                raise ValueError(f"For 'Tensor.item', the Tensor must have exactly one element, got shape "
                                 f"{arr.shape}")
            return arr.reshape(()).item()
        return arr.item(index)

    def tolist(self) -> Any:
        """The data as (nested) Python lists."""
        return self.asnumpy().tolist()

    def _scalar_value(self) -> Any:
        # MindSpore converts any one-element Tensor (``float(Tensor([[2.5]]))``), not only 0-d ones.
        raw = self._value
        if isinstance(raw, jax.Array) and not isinstance(raw, jax.core.Tracer):
            raw = np.asarray(raw)   # a known value, read on the host (also while tracing a program)
        return raw.reshape(()) if getattr(raw, "size", 0) == 1 and raw.ndim else raw

    def __bool__(self) -> bool:
        return bool(self._scalar_value())

    def __int__(self) -> int:
        return int(self._scalar_value())

    def __float__(self) -> float:
        return float(self._scalar_value())

    def __complex__(self) -> complex:
        return complex(self._scalar_value())

    def __index__(self) -> int:
        """The Python int of a one-element integer or bool Tensor of any rank (``[10, 20][Tensor([1])]``),
        as in MindSpore; anything else raises MindSpore's ValueError."""
        raw = self._value
        if raw.size != 1 or not (jnp.issubdtype(raw.dtype, jnp.integer) or raw.dtype == jnp.bool_):
            raise ValueError(f"Only integer tensors of a single element can be converted to an index, "
                             f"got a Tensor of shape {tuple(raw.shape)} and dtype {self.dtype}")
        return int(self._scalar_value())

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d Tensor")
        return self.shape[0]

    def __iter__(self) -> Iterator["Tensor"]:
        raw = self._value
        if raw.ndim == 0:
            raise TypeError("iteration over a 0-d Tensor")
        for i in range(raw.shape[0]):
            yield _out(raw[i])

    def __hash__(self) -> int:
        return id(self)

    def __format__(self, spec: str) -> str:
        if spec and self.ndim == 0:
            return format(self.item(), spec)
        return format(str(self), spec)

    def __repr__(self) -> str:
        raw = self._raw
        if raw.__class__ is LazyInit:  # MindSpore's text; the data is built on first read
            sep = "\n" if raw.ndim > 1 else ""
            return f"Tensor(shape={list(raw.shape)}, dtype={to_ms_dtype(raw.dtype)}, value={sep}<uninitialized>)"
        raw = _known_value(self._value)
        if isinstance(raw, ShapeOnly):
            return f"Tensor(shape={list(raw.shape)}, dtype={to_ms_dtype(raw.dtype)}, value=<dynamic shape>)"
        if isinstance(raw, jax.core.Tracer):
            return f"Tensor(shape={list(raw.shape)}, dtype={to_ms_dtype(raw.dtype)}, value=<traced>)"
        return format_tensor(np.asarray(raw), str(to_ms_dtype(raw.dtype)))

    def __str__(self) -> str:
        raw = self._raw
        if raw.__class__ is LazyInit:
            return repr(self)
        raw = _known_value(self._value)
        if isinstance(raw, (jax.core.Tracer, ShapeOnly)):
            return repr(self)
        return str(np.asarray(raw))

    # -- indexing -----------------------------------------------------------------------
    def __getitem__(self, index: Any) -> "Tensor":
        raw = self._value
        idx = _index(index, raw)
        _check_bounds("Tensor.__getitem__", idx, raw.shape)
        return _out(raw[idx])

    def __setitem__(self, index: Any, value: Any) -> None:
        raw = self._value
        idx = _index(index, raw)
        _check_bounds("Tensor.__setitem__", idx, raw.shape)
        self._write(_set_item(raw, idx, value))

    # -- in-place -----------------------------------------------------------------------
    def assign_value(self, value: Any) -> "Tensor":
        """Replace the data in place with ``value`` (cast to this Tensor's dtype).

        Every alias of this Tensor sees the new data; a Tensor made by ``from_numpy``
        stops sharing its numpy array (the array keeps the old data), as in MindSpore.
        """
        new = as_array(value)
        raw = self._value
        if new.dtype != raw.dtype:
            new = new.astype(raw.dtype)
        self._value = new
        return self

    def set_dtype(self, dtype: Any) -> "Tensor":
        """Change the dtype in place."""
        self._write(self._value.astype(to_jax_dtype(dtype)))
        return self

    def copy(self) -> "Tensor":
        """A new Tensor with the same data."""
        return _out(jnp.array(self._value, copy=True))

    def copy_(self, src: Any, non_blocking: bool = False) -> "Tensor":
        """Copy ``src`` into this Tensor in place (broadcast, cast to its dtype)."""
        raw = self._value
        self._write(jnp.broadcast_to(as_array(src).astype(raw.dtype), raw.shape))
        return self

    def fill_(self, value: Any) -> "Tensor":
        """Fill in place with ``value``."""
        raw = self._value
        self._write(jnp.full(raw.shape, as_array(value), raw.dtype))
        return self

    def zero_(self) -> "Tensor":
        """Fill in place with zeros."""
        raw = self._value
        self._write(jnp.zeros(raw.shape, raw.dtype))
        return self

    def register_hook(self, hook: Callable[[Any], Any]) -> Any:
        """Call ``hook(grad)`` with this Tensor's gradient when it is differentiated.

        ``hook`` may return a replacement gradient. Returns a handle whose
        ``remove()`` unregisters the hook. A Parameter with ``requires_grad=False``
        takes no hook (RuntimeError, as in MindSpore).
        """
        from mindjax.common import tensor_hooks  # lazy: tensor_hooks imports this module

        return tensor_hooks.register(self, hook)

    def hooks(self) -> list[Callable[[Any], Any]]:
        """The backward hooks registered on this Tensor and not removed, in registration order."""
        from mindjax.common import tensor_hooks  # lazy: tensor_hooks imports this module

        return tensor_hooks.hooks_of(self)

    def init_data(self, slice_index: Any = None, shape: Any = None, opt_shard_group: Any = None) -> "Tensor":
        """Apply the initializer this Tensor was built with (``Tensor(shape=..., dtype=..., init=...)``)
        and return the Tensor, which holds data from now on.

        Raises:
            TypeError: the Tensor holds data already (no initializer: built from data, or
                ``init_data`` called before), as in MindSpore.
        """
        if self._raw.__class__ is not LazyInit:
            raise TypeError("For 'Tensor.init_data', init_data must be set Tensor.init, init can't be None "
                            "(the Tensor already holds its data)")
        self._value  # noqa: B018 - builds the data
        return self

    def is_contiguous(self) -> bool:
        """True: data is always contiguous."""
        return True

    def contiguous(self) -> "Tensor":
        """This Tensor (data is always contiguous)."""
        return self

    def is_persistent_data(self) -> bool:
        """False: MindJAX does not offload Tensor data."""
        return False

    @property
    def is_meta(self) -> bool:
        """Whether the Tensor is on MindSpore's ``meta`` device (shape and dtype, no data): always
        False in MindJAX, which has no meta device (``Tensor(..., device='meta')`` holds its data)."""
        return False

    @property
    def symbolic_shape(self) -> list[Any] | None:
        """The symbolic shape of a shape-only Tensor built with ``ms.Symbol`` dimensions, as MindSpore
        shows it (each Symbol as a dict of the constraints it sets, ``None`` and ints as given);
        None for every other Tensor.

        Example:
            >>> Tensor(shape=[ms.Symbol(max=10), 3], dtype=ms.float32).symbolic_shape  # doctest: +SKIP
            [{'max': 10}, 3]
        """
        raw = self._raw
        symbols = raw.symbols if raw.__class__ is ShapeOnly else None
        if symbols is None:
            return None
        return [d if d is None or not _dynamic_dim(d) else _symbol_constraints(d) for d in symbols]

    def get_bytes(self) -> bytes:
        """The raw data as bytes (row-major, native byte order)."""
        return np.ascontiguousarray(self.asnumpy()).tobytes()

    @staticmethod
    def convert_bytes_to_tensor(bytes_data: bytes, shape: Any, dtype: Any) -> "Tensor":
        """A Tensor of ``shape`` and ``dtype`` from raw bytes (the inverse of :meth:`get_bytes`).

        Raises:
            TypeError: ``bytes_data`` is not bytes.
            ValueError: the number of bytes does not fit ``shape`` and ``dtype``.
        """
        if not isinstance(bytes_data, (bytes, bytearray, memoryview)):
            raise TypeError(f"For 'Tensor.convert_bytes_to_tensor', 'bytes_data' must be bytes, got "
                            f"{type(bytes_data).__name__}")
        np_dtype = np.dtype(to_jax_dtype(dtype))
        shape = (shape,) if isinstance(shape, int) else tuple(int(d) for d in shape)
        want = math.prod(shape) * np_dtype.itemsize
        if len(bytes_data) != want:
            raise ValueError(f"For 'Tensor.convert_bytes_to_tensor', shape {shape} of {to_ms_dtype(np_dtype)} "
                             f"needs {want} bytes, got {len(bytes_data)}")
        return Tensor(np.frombuffer(bytes(bytes_data), np_dtype).reshape(shape))

    # -- storage (shared numpy memory, see NumpyStorage) ---------------------------------
    def _shared_storage(self, where: str) -> NumpyStorage:
        """The numpy array this Tensor shares; an ordinary Tensor moves onto one (a copy, once)."""
        raw = self._raw
        if raw.__class__ is NumpyStorage:
            return raw
        if self._is_mindjax_variable:
            raise TypeError(f"For '{where}', a {type(self).__name__} is state of compiled programs and has "
                            f"no shared host storage in MindJAX; use a Tensor (Tensor(param) copies it)")
        value = _known_value(self._value)
        if isinstance(value, jax.core.Tracer) or not hasattr(value, "dtype"):
            raise TypeError(f"For '{where}', the Tensor must hold concrete data (not traced inside "
                            f"GRAPH_MODE / ms.jit, not shape-only), got {self!r}")
        holder = NumpyStorage(np.array(value, copy=True, order="C"), value.dtype)
        self._value = holder
        return holder

    def untyped_storage(self) -> Any:
        """The Tensor's storage, its dtype-agnostic bytes (a ``mindspore.common.storage.UntypedStorage``).

        The storage shares memory with the Tensor: ``storage.copy_(other)`` changes the
        Tensor, and ``set_(storage)`` makes another Tensor share it.
        """
        from mindjax.common.storage import UntypedStorage  # lazy: storage is a leaf module

        holder = self._shared_storage("Tensor.untyped_storage")
        if not holder.array.flags.c_contiguous:
            raise RuntimeError("For 'Tensor.untyped_storage', the Tensor is a strided view (set_ with a "
                               "stride); take the storage of the Tensor it views")
        return UntypedStorage(holder)

    storage = untyped_storage

    def set_(self, source: Any = None, storage_offset: int = 0, size: Any = None,
             stride: Any = None) -> "Tensor":
        """Make this Tensor share ``source``'s storage (MindSpore's ``set_``), in place.

        ``set_()`` empties the Tensor (shape ``(0,)``, same dtype); ``set_(tensor)`` and
        ``set_(storage)`` give it the source's data, shared both ways (writes to one show
        in the other); with ``storage_offset``, ``size`` and ``stride`` (elements) it
        becomes a view of that part of the storage.

        Raises:
            TypeError: ``source`` is neither a Tensor nor a storage, or a size/stride is not
                a tuple or list of ints.
            RuntimeError: the dtypes differ, or the view reaches past the storage, or a
                negative offset, size or stride.
        """
        from mindjax.common.storage import UntypedStorage  # lazy: storage is a leaf module

        if self._is_mindjax_variable:
            raise TypeError(f"For 'Tensor.set_', a {type(self).__name__} is state of compiled programs and "
                            f"can not share another Tensor's storage in MindJAX; use set_data")
        dtype = np.dtype(self._meta().dtype)
        if source is None:
            self._value = NumpyStorage(np.empty((0,), dtype), dtype)
            return self
        if isinstance(source, UntypedStorage):
            base = source._holder
        elif isinstance(source, Tensor):
            base = source._shared_storage("Tensor.set_")
        else:
            raise TypeError(f'Failed calling set_ with "set_({type(source).__name__})". The valid calling '
                            f'should be: "set_()", "set_(source=<Tensor, Storage>)" or "set_(source=<Tensor, '
                            f'Storage>, storage_offset=<int>, size=<tuple, list>, stride=<tuple, list>)"')
        if base.dtype != dtype:
            raise RuntimeError(f"For 'Tensor.set_', could not set tensor of type {to_ms_dtype(base.dtype)} to a "
                               f"tensor of type {to_ms_dtype(dtype)}")
        if size is None and storage_offset == 0 and stride is None:
            if isinstance(source, UntypedStorage):
                self._value = NumpyStorage(base.array.reshape(-1), dtype)
            else:
                self._value = base
            return self
        self._value = NumpyStorage(_strided_view(base.array, storage_offset, size, stride), dtype)
        return self

    def index(self, indices: Any) -> "Tensor":
        """Advanced indexing by a tuple of index Tensors: ``x.index((i, j))`` is ``x[i, j]``.

        (MindSpore 2.10 runs it on Ascend only; the semantics are its Ascend ones.)

        Raises:
            TypeError: ``indices`` is not a tuple or list of Tensors.
        """
        if not isinstance(indices, (tuple, list)):
            raise TypeError(f"For 'Tensor.index', 'indices' must be a tuple of Tensor, got "
                            f"{type(indices).__name__}")
        for k, item in enumerate(indices):
            if not isinstance(item, (Tensor, jax.Array)):
                raise TypeError(f"For 'Tensor.index', 'indices' must be a tuple of Tensor, got "
                                f"{type(item).__name__} at position {k}")
        return self[tuple(indices)]

    @staticmethod
    def remove_hook(handle_id: int) -> None:
        """Remove the backward hook whose handle has id ``handle_id`` (``handle.id``), from
        whichever Tensor holds it; an unknown id does nothing, as in MindSpore."""
        from mindjax.common import tensor_hooks  # lazy: tensor_hooks imports this module

        tensor_hooks.remove_by_id(handle_id)

    # -- MindSpore's elementwise arithmetic, with its dtype rules -------------------------
    def __neg__(self) -> "Tensor":
        return _out(jnp.negative(self._value))

    def __pos__(self) -> "Tensor":
        return _out(self._value)

    def __abs__(self) -> "Tensor":
        return _out(jnp.abs(self._value))

    def __invert__(self) -> "Tensor":
        raw = self._value
        return _out(jnp.logical_not(raw) if raw.dtype == jnp.bool_ else jnp.invert(raw))


def _symbol_constraints(symbol: Any) -> dict[str, Any]:
    """The constraints an ``ms.Symbol`` sets, as MindSpore's ``symbolic_shape`` shows them."""
    out: dict[str, Any] = {}
    if symbol.max > 0:
        out["max"] = symbol.max
    if symbol.min != 1 and not (symbol.remainder and symbol.min <= symbol.remainder):
        out["min"] = symbol.min  # a min the remainder already implies is not shown
    if symbol.divisor != 1:
        out["divisor"] = symbol.divisor
    if symbol.remainder:
        out["remainder"] = symbol.remainder
    if symbol.unique:
        out["id"] = symbol.id
    return out


def _strided_view(base: np.ndarray, offset: Any, size: Any, stride: Any) -> np.ndarray:
    """The ``size``/``stride`` (elements) view of ``base``'s data from ``offset`` (``Tensor.set_``)."""
    if not base.flags.c_contiguous:
        raise RuntimeError("For 'Tensor.set_', the source must be contiguous when 'size' or 'stride' is given")
    if not isinstance(offset, int) or isinstance(offset, bool) or offset < 0:
        raise RuntimeError(f"For 'Tensor.set_', 'storage_offset' must be an int >= 0, got {offset!r}")
    if not isinstance(size, (tuple, list)) or not all(isinstance(d, int) for d in size):
        raise TypeError(f"For 'Tensor.set_', 'size' must be a tuple or list of ints, got {size!r}")
    size = tuple(size)
    if stride is None:
        stride = _contiguous_strides(size)
    if not isinstance(stride, (tuple, list)) or not all(isinstance(d, int) for d in stride):
        raise TypeError(f"For 'Tensor.set_', 'stride' must be a tuple or list of ints, got {stride!r}")
    stride = tuple(stride)
    if len(stride) != len(size):
        raise RuntimeError(f"For 'Tensor.set_', 'size' {size} and 'stride' {stride} must have as many "
                           f"elements")
    if any(d < 0 for d in size) or any(d < 0 for d in stride):
        raise RuntimeError(f"For 'Tensor.set_', 'size' {size} and 'stride' {stride} must be >= 0")
    flat = base.reshape(-1)
    last = offset + sum((d - 1) * st for d, st in zip(size, stride)) if all(size) else offset - 1
    if last >= flat.size:
        raise RuntimeError(f"For 'Tensor.set_', the view (offset {offset}, size {size}, stride {stride}) "
                           f"reaches element {last}, past the storage's {flat.size} elements")
    return np.lib.stride_tricks.as_strided(flat[offset:], size, tuple(st * flat.itemsize for st in stride),
                                           writeable=flat.flags.writeable)


def _contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for dim in reversed(shape):
        strides.append(acc)
        acc *= max(dim, 1)
    return tuple(reversed(strides))


# --- conversion helpers ------------------------------------------------------------------

def as_array(x: Any) -> jax.Array:
    """``x`` as a ``jax.Array``: a Tensor or Parameter gives its value, an array stays as it is.

    Ops, layers and losses convert their inputs with this first. Python
    numbers and nested lists become arrays by MindSpore's dtype rules.

    Arguments:
        x: a Tensor (Parameters included), a ``jax.Array`` (tracers included),
            or anything ``jnp.asarray`` takes.

    Returns:
        the array.
    """
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, jax.Array):
        return x
    if isinstance(x, (list, tuple)):
        leaves = jax.tree_util.tree_leaves(x)
        if any(isinstance(leaf, jax.core.Tracer) for leaf in leaves):
            return jnp.asarray(unwrap(list(x)))  # traced elements: stacked by JAX
        return jnp.asarray(np.asarray(_plain(x), dtype=_infer_dtype(x)))
    return jnp.asarray(x)


def _operand(x: Any) -> Any:
    """An operand of Tensor arithmetic: Tensors unwrapped, lists/tuples as arrays, scalars kept."""
    if isinstance(x, Tensor):
        return x._value
    if isinstance(x, (list, tuple)):
        return as_array(x)
    return x


def _float_default(x: Any) -> Any:
    return x.astype(jnp.float32) if not jnp.issubdtype(x.dtype, jnp.inexact) else x


def _promote(a: Any, b: Any) -> tuple[Any, Any]:
    """MindSpore's promotion against Python scalars: int Tensor with a float gives Float32."""
    if isinstance(b, float) and not isinstance(a, float) and hasattr(a, "dtype") \
            and not jnp.issubdtype(a.dtype, jnp.inexact):
        return a.astype(jnp.float32), b
    if isinstance(a, float) and hasattr(b, "dtype") and not jnp.issubdtype(b.dtype, jnp.inexact):
        return a, b.astype(jnp.float32)
    return a, b


def _true_divide(a: Any, b: Any) -> Any:
    a, b = _promote(a, b)
    if hasattr(a, "dtype") and not jnp.issubdtype(a.dtype, jnp.inexact) and \
            (not hasattr(b, "dtype") or not jnp.issubdtype(b.dtype, jnp.inexact)):
        a = a.astype(jnp.float32)
    elif not hasattr(a, "dtype") and hasattr(b, "dtype") and not jnp.issubdtype(b.dtype, jnp.inexact):
        b = b.astype(jnp.float32)
    return jnp.true_divide(a, b)


_OPERANDS = (Tensor, jax.Array, np.ndarray, np.generic, int, float, complex, bool, list, tuple)


# Built-in types that are never operands: MindSpore fails at once with its signature error
# (other objects get NotImplemented, so that their own reflected methods can answer).
_NON_OPERANDS = (str, bytes, dict, set, frozenset, type(None))
_PRIMITIVE_NAMES = {"add": "Add", "sub": "Sub", "mul": "Mul", "truediv": "Div", "floordiv": "FloorDiv",
                    "mod": "FloorMod", "pow": "Pow", "matmul": "MatMul", "and": "BitwiseAnd",
                    "or": "BitwiseOr", "xor": "BitwiseXor", "lshift": "LeftShift", "rshift": "RightShift"}


# Operators that MindSpore's 'auto' mixed precision lists (mindjax.common.precision).
_AMP_NAMES = {"matmul": "MatMulExt", "pow": "Pow"}


def _operand_type_error(op: str, other: Any, reflected: bool) -> TypeError:
    """MindSpore's "Failed calling Add with ..." error for a Tensor and a non-number operand."""
    prim = _PRIMITIVE_NAMES[op]
    kind = "string" if isinstance(other, str) else str(type(other))
    inputs = f"input={kind}, other=Tensor" if reflected else f"input=Tensor, other={kind}"
    return TypeError(f'Failed calling {prim} with "{prim}()({inputs})".\nThe valid calling should be: \n'
                     f'"{prim}()(input=<Number, Tensor>, other=<Number, Tensor>)".')


def _binary(fn: Callable[[Any, Any], Any], reflected: bool = False, compare: bool = False,
            op: str = "") -> Any:
    amp = _AMP_NAMES.get(op)
    def method(self: Tensor, other: Any) -> Any:
        if compare and other is None:
            return fn is jnp.not_equal
        if compare and isinstance(other, (list, tuple)) and fn in (jnp.equal, jnp.not_equal):
            # MindSpore 2.10: a Tensor never equals a Python sequence (``t == (1, 2)`` is False);
            # the ordering comparisons and arithmetic convert the sequence.
            return fn is jnp.not_equal
        if not isinstance(other, _OPERANDS):
            if op and isinstance(other, _NON_OPERANDS):
                raise _operand_type_error(op, other, reflected)
            return NotImplemented  # let the other operand's reflected method answer
        a, b = self._value, _operand(other)
        if reflected:
            a, b = b, a
        a, b = _promote(a, b)
        if amp is not None:  # the Primitive MindSpore's mixed precision sees (``@`` is MatMulExt)
            return _out(run_as(amp, fn, a, b))
        return _out(fn(a, b))
    return method


def _inplace(fn: Callable[[Any, Any], Any], op: str) -> Any:
    # MindSpore's ``a += b`` rebinds ``a`` to a new Tensor; aliases keep the old value.
    def method(self: Tensor, other: Any) -> Any:
        if not isinstance(other, _OPERANDS):
            if isinstance(other, _NON_OPERANDS):
                raise _operand_type_error(op, other, False)
            return NotImplemented
        a, b = _promote(self._value, _operand(other))
        return _out(fn(a, b))
    return method


for _name, _fn in (("add", jnp.add), ("sub", jnp.subtract), ("mul", jnp.multiply),
                   ("floordiv", jnp.floor_divide), ("mod", jnp.mod), ("pow", jnp.power),
                   ("matmul", jnp.matmul), ("and", jnp.bitwise_and), ("or", jnp.bitwise_or),
                   ("xor", jnp.bitwise_xor), ("lshift", jnp.left_shift), ("rshift", jnp.right_shift),
                   ("truediv", _true_divide)):
    setattr(Tensor, f"__{_name}__", _binary(_fn, op=_name))
    setattr(Tensor, f"__r{_name}__", _binary(_fn, reflected=True, op=_name))
    setattr(Tensor, f"__i{_name}__", _inplace(_fn, _name))
for _name, _fn in (("lt", jnp.less), ("le", jnp.less_equal), ("gt", jnp.greater),
                   ("ge", jnp.greater_equal), ("eq", jnp.equal), ("ne", jnp.not_equal)):
    setattr(Tensor, f"__{_name}__", _binary(_fn, compare=True))
del _name, _fn


# --- indexing ------------------------------------------------------------------------------

def _index(index: Any, raw: Any) -> Any:
    """An index with its Tensors as arrays and its lists as integer/bool arrays."""
    if isinstance(index, Tensor):
        return _concrete_mask(index._value, raw)
    if isinstance(index, tuple):
        return tuple(_index(i, raw) for i in index)
    if isinstance(index, list):
        return _concrete_mask(as_array(index), raw)
    if isinstance(index, np.ndarray):
        return index
    return index


def _check_bounds(where: str, idx: Any, shape: tuple[int, ...]) -> None:
    """Integers and integer arrays in ``idx`` must lie in ``[-N, N)`` of the axis they index.

    JAX clamps an out-of-bounds integer (``x[4]`` of 4 rows is the last row)
    and an integer array; MindSpore raises, as numpy does. Python integers are
    checked here; integer arrays go through :func:`check_index_range` (eager,
    or a recorded check in compiled code).
    """
    from mindjax.common.checks import check_index_range

    items = idx if isinstance(idx, tuple) else (idx,)
    axis = 0
    for k, item in enumerate(items):
        if item is None:
            continue
        if item is Ellipsis:
            axis = len(shape) - sum(i.ndim if _is_bool_mask(i) else 1 for i in items[k + 1:]
                                    if i is not None and i is not Ellipsis)
            continue
        if axis >= len(shape):
            return  # too many indices: JAX's own IndexError says so
        size = shape[axis]
        if isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            if not -size <= int(item) < size:
                raise IndexError(f"For '{where}', index {int(item)} is out of bounds for dimension {axis} "
                                 f"with size {size}")
        elif _is_bool_mask(item):
            axis += item.ndim
            continue
        elif (hasattr(item, "dtype") and jnp.issubdtype(item.dtype, jnp.integer) and getattr(item, "size", 0)
              and not (isinstance(item, jax.core.Tracer) and item.ndim == 0)):
            # A traced scalar is most often a loop counter, in range by construction: not checked.
            check_index_range(where, "index", item, -size, size)
        axis += 1


def _known_value(raw: Any) -> Any:
    """``raw``, or for a tracer whose value is known (an eager ``jax.vjp``/``jvp`` in PYNATIVE
    mode differentiates concrete values) that value; other tracers are returned as they are."""
    if isinstance(raw, jax.core.Tracer):
        try:
            known = raw.to_concrete_value()
        except Exception:  # noqa: BLE001 - a tracer kind without a known value
            return raw
        return raw if known is None else known
    return raw


def _concrete_mask(idx: Any, raw: Any) -> Any:
    """A bool mask index becomes numpy when it is concrete (JAX needs a static count)."""
    if getattr(idx, "dtype", None) == jnp.bool_ and not isinstance(idx, jax.core.Tracer):
        return np.asarray(idx)
    return idx


def _is_bool_mask(idx: Any) -> bool:
    return getattr(idx, "dtype", None) == np.bool_ and getattr(idx, "ndim", 0) > 0


def _set_item(raw: Any, idx: Any, value: Any) -> Any:
    val = as_array(value) if not isinstance(value, (int, float, bool)) else value
    if hasattr(val, "dtype") and val.dtype != raw.dtype:
        val = val.astype(raw.dtype)
    if _is_bool_mask(idx):
        if not hasattr(val, "shape") or val.size == 1:
            # ``x[mask] = v`` with a single v is a select: it needs no static count, so it also
            # works on traced masks (GRAPH mode).
            mask = jnp.asarray(idx)
            if mask.ndim > raw.ndim or tuple(raw.shape[:mask.ndim]) != tuple(mask.shape):
                raise IndexError(f"For 'Tensor.__setitem__', a bool mask of shape {tuple(mask.shape)} does "
                                 f"not match the Tensor's leading dimensions {tuple(raw.shape)}")
            mask = mask.reshape(mask.shape + (1,) * (raw.ndim - mask.ndim))
            v = jnp.reshape(val, ()) if hasattr(val, "shape") else val
            return jnp.where(mask, jnp.asarray(v, raw.dtype), raw)
        if isinstance(idx, jax.core.Tracer):
            raise IndexError("For 'Tensor.__setitem__', a traced bool mask can only assign a single value "
                             "(x[mask] = 0); assigning a Tensor needs a static count: use ops.where")
    return raw.at[idx].set(val)


# --- printing --------------------------------------------------------------------------------

_SUMMARY_THRESHOLD = 1000
_EDGE_ITEMS = 3


def _element_formatter(arr: np.ndarray) -> Callable[[Any], str]:
    kind = arr.dtype.kind
    if arr.dtype == jnp.bfloat16:
        return lambda v: f"{float(v):g}"
    if kind == "f":
        precision = 4 if arr.dtype == np.float16 else 8
        width = precision + 7

        def fmt(v: Any) -> str:
            v = float(v)
            text = f"{v:.{precision}e}" if math.isfinite(v) else ("nan" if math.isnan(v) else
                                                                    ("inf" if v > 0 else "-inf"))
            return text.rjust(width)
        return fmt
    if kind == "b":
        return lambda v: ("True" if v else "False").rjust(5)
    if kind == "c":
        return lambda v: str(complex(v)).strip("()")
    return lambda v: str(v)


def _shown(arr: np.ndarray, summarize: bool) -> np.ndarray:
    """The elements that are printed (all, or the edges of each long axis)."""
    if not summarize:
        return arr.reshape(-1)
    parts = [arr]
    for axis in range(arr.ndim):
        if arr.shape[axis] > 2 * _EDGE_ITEMS:
            parts = [np.concatenate([np.take(p, range(_EDGE_ITEMS), axis),
                                     np.take(p, range(p.shape[axis] - _EDGE_ITEMS, p.shape[axis]), axis)],
                                    axis) for p in parts]
    return parts[0].reshape(-1)


def format_tensor(arr: np.ndarray, dtype_name: str) -> str:
    """MindSpore's ``repr`` of a Tensor with data ``arr`` and dtype name ``dtype_name``."""
    head = f"Tensor(shape={list(arr.shape)}, dtype={dtype_name}, value="
    if arr.ndim == 0:
        v = arr.item()
        if isinstance(v, float):
            text = f"{v:g}" if math.isfinite(v) else str(v)
        elif isinstance(v, complex):
            text = str(v).strip("()")
        else:
            text = str(v)
        return f"{head} {text})"
    summarize = arr.size > _SUMMARY_THRESHOLD
    fmt = _element_formatter(arr)
    shown = [fmt(v) for v in _shown(arr, summarize)]
    # MindSpore aligns real elements to the widest; complex ones are printed unpadded.
    width = 0 if arr.dtype.kind == "c" else max((len(s) for s in shown), default=0)

    def block(a: np.ndarray, indent: int) -> str:
        n = a.shape[0]
        cut = summarize and n > 2 * _EDGE_ITEMS
        if a.ndim == 1:
            items = [fmt(v).rjust(width) for v in (list(a[:_EDGE_ITEMS]) + list(a[-_EDGE_ITEMS:]) if cut else a)]
            if cut:
                return "[" + ", ".join(items[:_EDGE_ITEMS]) + " ... " + ", ".join(items[_EDGE_ITEMS:]) + "]"
            return "[" + ", ".join(items) + "]"
        rows_at = list(range(_EDGE_ITEMS)) + list(range(n - _EDGE_ITEMS, n)) if cut else list(range(n))
        rows = [block(a[i], indent + 1) for i in rows_at]
        sep = ",\n" + " " * (indent + 1)
        if cut:
            text = sep.join(rows[:_EDGE_ITEMS]) + ",\n" + " " * (indent + 1) + "...\n" + " " * (indent + 1) \
                + sep.join(rows[_EDGE_ITEMS:])
        else:
            text = sep.join(rows)
        return "[" + text + "]"

    if arr.size == 0:
        body = ""
    else:
        body = block(arr, 0)
    return f"{head} {body})" if arr.ndim == 1 else f"{head}\n{body})"


# --- pytree ------------------------------------------------------------------------------------

def _flatten_tensor(t: Tensor) -> tuple[tuple[Any], None]:
    return (t._value,), None  # plain Tensors only (Variables register their own): builds a LazyInit


def _unflatten_tensor(_: None, children: Any) -> Tensor:
    return Tensor._wrap(children[0])


jax.tree_util.register_pytree_node(Tensor, _flatten_tensor, _unflatten_tensor)


# --- module-level constructors -------------------------------------------------------------------

def tensor(input_data: Any = None, dtype: Any = None, shape: Any = None, init: Any = None,
           const_arg: bool = False, device: Any = None) -> Tensor:
    """MindSpore's ``ms.tensor(...)``: the same as ``Tensor(...)``."""
    return Tensor(input_data, dtype, shape, init, const_arg, device)


def from_numpy(array: np.ndarray) -> Tensor:
    """MindSpore's ``ms.from_numpy``: a Tensor with ``array``'s data and dtype."""
    return Tensor.from_numpy(array)


def is_tensor(obj: Any) -> bool:
    """MindSpore's ``ms.is_tensor``: True for Tensors and Parameters."""
    return isinstance(obj, Tensor)


from mindjax.common.sparse_tensor import COOTensor, CSRTensor  # noqa: E402,F401  (they need as_array from here)
from mindjax.common import _tensor_methods  # noqa: E402,F401  (adds MindSpore's method set to Tensor)


def _slot_names(t: Any) -> list[str]:
    return [name for cls in type(t).__mro__ for name in getattr(cls, "__slots__", ())
            if name not in ("__weakref__", "__dict__")]


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """Swap the contents of two Tensors in place (MindSpore's ``mindspore.swap_tensors``).

    After the call ``t1`` holds what ``t2`` held (its class, attributes and data) and the other way
    round; ``id(t1)`` and ``id(t2)`` stay.

    Arguments:
        t1 (Tensor): first tensor.
        t2 (Tensor): second tensor.

    Raises:
        TypeError: either is not a Tensor.
        RuntimeError: either has weak references, or their classes lay out different slots.

    Example:
        >>> import mindjax as ms
        >>> a, b = ms.Tensor([1.0]), ms.Tensor([2, 3])
        >>> ms.swap_tensors(a, b)
        >>> a.tolist(), b.tolist()
        ([2, 3], [1.0])
    """
    import weakref

    for name, t in (("t1", t1), ("t2", t2)):
        if not isinstance(t, Tensor):
            raise TypeError(f"For 'swap_tensors', '{name}' must be a Tensor, but got {type(t).__name__}.")
        if weakref.getweakrefcount(t):
            raise RuntimeError(f"For 'swap_tensors', '{name}' has weak references; it can not be swapped.")
    slots = _slot_names(t1)
    if sorted(slots) != sorted(_slot_names(t2)):
        raise RuntimeError(f"For 'swap_tensors', the two Tensors' classes ({type(t1).__name__}, "
                           f"{type(t2).__name__}) lay out different slots; they can not be swapped.")
    saved = {name: getattr(t1, name, _MISSING) for name in slots}
    for name in slots:
        _set_or_clear(t1, name, getattr(t2, name, _MISSING))
        _set_or_clear(t2, name, saved[name])
    if type(t1) is not type(t2):
        t1.__class__, t2.__class__ = type(t2), type(t1)
    d1, d2 = getattr(t1, "__dict__", None), getattr(t2, "__dict__", None)
    if d1 is not None and d2 is not None:
        items = dict(d1)
        d1.clear()
        d1.update(d2)
        d2.clear()
        d2.update(items)


_MISSING = object()


def _set_or_clear(t: Any, name: str, value: Any) -> None:
    if value is _MISSING:
        try:
            object.__delattr__(t, name)
        except AttributeError:
            pass
    else:
        object.__setattr__(t, name, value)
