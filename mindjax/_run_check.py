"""``ms.run_check()``: check that MindJAX computes correctly on the context's device."""
from __future__ import annotations

import numpy as np


def run_check() -> None:
    """Print MindJAX's version and whether a multiplication on the current device is right.

    As MindSpore's, it prints the outcome and never raises: a failure is printed as
    ``MindJAX running check failed.`` followed by the reason.

    Example:
        >>> import mindjax as ms
        >>> ms.run_check()  # doctest: +ELLIPSIS
        MindJAX version: ...
    """
    try:
        import jax
        import jax.numpy as jnp

        import mindjax
        from mindjax import context

        print(f"MindJAX version: {mindjax.__version__} (JAX {jax.__version__})")
        a = np.array([1.0, 2.0, 3.0], np.float32)
        b = np.array([4.0, 5.0, 6.0], np.float32)
        out = np.asarray(jax.jit(jnp.multiply)(a, b))
        if not np.allclose(out, a * b):
            raise ValueError(f"the result of multiplication is wrong: expected {a * b}, got {out}")
        platform = jax.devices()[0].platform.upper()
        print(f"The result of multiplication calculation is correct, MindJAX has been installed on platform "
              f"[{context.get_context('device_target')}] ({platform} device) successfully!")
    except Exception as exc:  # noqa: BLE001 - MindSpore's run_check reports, it does not raise
        print("MindJAX running check failed.")
        print(str(exc))
