"""benchmarks/gpt_resnet.py: the matmul peak it divides by (no training here: the examples' tests cover that)."""
import types

import pytest

from benchmarks.gpt_resnet import PEAK_BF16_TFLOPS, parse_args, peak_tflops


def _device(platform, kind):
    return types.SimpleNamespace(platform=platform, device_kind=kind)


def test_peak_comes_from_the_flag_first_then_the_device_kind_and_never_for_cpu():
    assert peak_tflops(_device("gpu", "NVIDIA H200"), 500.0) == 500.0
    assert peak_tflops(_device("gpu", "NVIDIA H200"), None) == PEAK_BF16_TFLOPS["H200"]
    assert peak_tflops(_device("gpu", "NVIDIA GH200 480GB"), None) == PEAK_BF16_TFLOPS["GH200"]
    assert peak_tflops(_device("gpu", "NVIDIA A100-SXM4-80GB"), None) == 312.0
    assert peak_tflops(_device("gpu", "Some Future Chip"), None) is None
    assert peak_tflops(_device("cpu", "cpu"), None) is None


def test_benchmark_flags_choose_size_and_workload():
    args = parse_args(["--size", "small", "--only", "gpt", "--peak-tflops", "100"])
    assert (args.size, args.only, args.peak_tflops) == ("small", "gpt", 100.0)
    with pytest.raises(SystemExit):
        parse_args(["--size", "huge"])
