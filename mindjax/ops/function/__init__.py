"""MindSpore's ``mindspore.ops.function``: the functional ops, split by family as MindSpore splits them.

``math_func`` (elementwise math, reductions, matrices), ``array_func`` (shapes, indexing,
scatters), ``nn_func`` (convolution, pooling, activations, losses), ``random_func``,
``linalg_func``, ``clip_func``, ``fft_func``, ``spectral_func``, ``image_func``,
``parameter_func``, ``other_func``, ``debug_func``, ``sparse_func``, ``sparse_unary_func``
and ``grad``. Each module holds its family's ops: those defined there, and the older ones re-exported from
``mindjax.ops.functional*``, so ``from mindspore.ops.function.math_func import log1p``
works once it says ``mindjax``.
"""
from mindjax.ops.function import (array_func, clip_func, comm_func, debug_func, fft_func, image_func, linalg_func, math_func,
                                  nn_func, other_func, parameter_func, random_func, reshard_func, sparse_func,
                                  sparse_unary_func, spectral_func)
from mindjax.ops.function import grad as _grad_package
from mindjax.ops.function.array_func import *  # noqa: F401,F403
from mindjax.ops.function.clip_func import *  # noqa: F401,F403
from mindjax.ops.function.comm_func import *  # noqa: F401,F403
from mindjax.ops.function.debug_func import *  # noqa: F401,F403
from mindjax.ops.function.fft_func import *  # noqa: F401,F403
from mindjax.ops.function.image_func import *  # noqa: F401,F403
from mindjax.ops.function.linalg_func import *  # noqa: F401,F403
from mindjax.ops.function.math_func import *  # noqa: F401,F403
from mindjax.ops.function.nn_func import *  # noqa: F401,F403
from mindjax.ops.function.other_func import *  # noqa: F401,F403
from mindjax.ops.function.parameter_func import *  # noqa: F401,F403
from mindjax.ops.function.random_func import *  # noqa: F401,F403
from mindjax.ops.function.reshard_func import *  # noqa: F401,F403
from mindjax.ops.function.sparse_func import *  # noqa: F401,F403
from mindjax.ops.function.sparse_unary_func import *  # noqa: F401,F403
from mindjax.ops.function.spectral_func import *  # noqa: F401,F403
from mindjax.ops.function.grad import *  # noqa: F401,F403

_MODULES = (array_func, clip_func, comm_func, debug_func, fft_func, image_func, linalg_func, math_func, nn_func, other_func,
            parameter_func, random_func, reshard_func, sparse_func, sparse_unary_func, spectral_func, _grad_package)

#: The ops this package defines (the re-exported older ones are in ``mindjax.ops.functional*``).
NEW_OPS = sorted({name for module in _MODULES for name in module.__all__})

__all__ = list(NEW_OPS)
