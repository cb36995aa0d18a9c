"""The global random key: the same key as jax.random.PRNGKey(seed), built without compiling."""
import jax
import numpy as np
import pytest

import mindjax as ms
from mindjax.common import random as mj_random


@pytest.mark.parametrize("seed", [0, 1, 42, 2 ** 31 - 1, 2 ** 31, 2 ** 32 + 5, 2 ** 40 + 123, 2 ** 63 - 1])
def test_seeded_key_equals_jax_prngkey(seed):
    ms.set_seed(seed)
    key = mj_random._make_key()
    expected = jax.random.PRNGKey(seed)
    assert key.dtype == expected.dtype and key.shape == expected.shape
    np.testing.assert_array_equal(np.asarray(key), np.asarray(expected))


def test_building_the_key_compiles_no_xla_program():
    compiled = []

    def listen(name, _duration, **kwargs):
        if listen.active and name == "/jax/core/compile/backend_compile_duration":
            compiled.append(kwargs.get("fun_name"))
    listen.active = False
    jax.monitoring.register_event_duration_secs_listener(listen)
    jax.clear_caches()  # jax.random.PRNGKey's programs, if an earlier test built them, would compile again
    listen.active = True
    try:
        ms.set_seed(987654321)
        key = mj_random._make_key()
    finally:
        listen.active = False
    assert compiled == []
    np.testing.assert_array_equal(np.asarray(key), [0, 987654321])
