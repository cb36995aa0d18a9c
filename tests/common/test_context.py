"""set_context / get_context and the auto-parallel context."""
import pytest

import mindjax as ms


def test_default_mode_is_pynative_like_mindspore_2():
    assert ms.get_context("mode") == ms.PYNATIVE_MODE


def test_set_and_get_mode_and_device_target():
    ms.set_context(mode=ms.GRAPH_MODE, device_target="CPU", device_id=0, save_graphs=False)
    assert ms.get_context("mode") == ms.GRAPH_MODE
    assert ms.get_context("device_target") == "CPU"
    assert ms.get_context("device_id") == 0


def test_bad_context_values_are_rejected_with_the_key():
    with pytest.raises(ValueError, match="'mode' must be GRAPH_MODE"):
        ms.set_context(mode=5)
    with pytest.raises(ValueError, match="'device_target' must be one of"):
        ms.set_context(device_target="FPGA")
    with pytest.raises(ValueError, match="'no_such_key' is not recognized"):
        ms.set_context(no_such_key=1)
    with pytest.raises(ValueError, match="'nope' is not recognized"):
        ms.get_context("nope")


def test_auto_parallel_context_round_trip_and_reset():
    ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.SEMI_AUTO_PARALLEL, device_num=8,
                                 gradients_mean=True, search_mode="recursive_programming")
    assert ms.get_auto_parallel_context("parallel_mode") == "semi_auto_parallel"
    assert ms.get_auto_parallel_context("device_num") == 8
    ms.reset_auto_parallel_context()
    assert ms.get_auto_parallel_context("parallel_mode") == "stand_alone"
    assert ms.get_auto_parallel_context("gradients_mean") is False


def test_bad_auto_parallel_values_are_rejected():
    with pytest.raises(ValueError, match="'parallel_mode' must be one of"):
        ms.set_auto_parallel_context(parallel_mode="sideways")
    with pytest.raises(ValueError, match="'device_num' must be a positive int"):
        ms.set_auto_parallel_context(device_num=0)
    with pytest.raises(ValueError, match="'search_mode' must be one of"):
        ms.set_auto_parallel_context(search_mode="guess")


def test_set_seed_rejects_negative():
    with pytest.raises(ValueError, match="'seed' must be a non-negative int"):
        ms.set_seed(-1)


def test_default_xla_flags_add_the_classic_cpu_emitters_and_keep_the_users_flags():
    from mindjax.context import _with_default_xla_flags

    assert _with_default_xla_flags("") == "--xla_cpu_use_fusion_emitters=false"
    assert _with_default_xla_flags("--xla_force_host_platform_device_count=8") == \
        "--xla_force_host_platform_device_count=8 --xla_cpu_use_fusion_emitters=false"
    # a flag the user names keeps the user's value, whatever it is
    assert _with_default_xla_flags(" --xla_cpu_use_fusion_emitters=true ") == "--xla_cpu_use_fusion_emitters=true"


def test_importing_mindjax_put_the_default_xla_flags_in_the_environment():
    import os

    flags = os.environ["XLA_FLAGS"].split()
    assert "--xla_cpu_use_fusion_emitters=false" in flags
    assert "--xla_force_host_platform_device_count=8" in flags  # conftest's flag is kept
