"""examples/resnet: model-zoo names and sizes, the synthetic smoke run and the CIFAR-10 binary pipeline."""
from pathlib import Path

import numpy as np

from mindjax.train import _step

from examples.resnet.resnet import resnet18, resnet50
from examples.resnet.train import main

TINY = ["--width", "0.125", "--batch-size", "16", "--steps", "4"]


def _trainable(net):
    return sum(int(np.prod(p.shape)) for p in net.trainable_params())


def test_resnet_parameter_names_and_counts_follow_the_model_zoo():
    r18, r50 = resnet18(10), resnet50(10)
    names18 = {p.name for p in r18.get_parameters()}
    names50 = {p.name for p in r50.get_parameters()}
    assert {"conv1.weight", "bn1.gamma", "bn1.moving_mean", "layer1.0.conv1.weight", "layer1.0.bn1d.gamma",
            "layer2.0.down_sample_layer.0.weight", "layer2.0.down_sample_layer.1.beta", "end_point.weight",
            "end_point.bias"} <= names18
    assert {"layer1.0.conv3.weight", "layer1.0.bn3.gamma", "layer1.0.down_sample_layer.0.weight",
            "layer4.2.conv2.weight", "end_point.weight"} <= names50
    # The classic sizes with a 10-class head (BatchNorm moving statistics are not trainable).
    assert _trainable(r18) == 11_181_642
    assert _trainable(r50) == 23_528_522


def test_resnet18_synthetic_smoke_run_is_labelled_and_its_loss_falls(capsys):
    result = main(TINY + ["--epochs", "3"])
    printed = capsys.readouterr().out
    assert result["synthetic"] and "SYNTHETIC" in printed
    # Sink mode: one loss per epoch; on XLA:CPU, as on MindSpore's CPU backend, one per step.
    assert len(result["losses"]) == 3 * (1 if _step.sink_runs_on_device() else result["steps"])
    assert result["losses"][-1] < result["losses"][0]
    assert np.isfinite(result["eval_loss"]) and result["steps_per_second"] > 0


def _write_cifar(folder: Path, name: str, count: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    records = np.zeros((count, 1 + 3 * 32 * 32), np.uint8)
    records[:, 0] = rng.integers(0, 10, count)
    records[:, 1:] = rng.integers(0, 256, (count, 3 * 32 * 32))
    (folder / name).write_bytes(records.tobytes())


def test_resnet_reads_cifar10_binary_batches_with_the_zoo_transforms(tmp_path, capsys):
    _write_cifar(tmp_path, "data_batch_1.bin", 64, 0)
    _write_cifar(tmp_path, "test_batch.bin", 32, 1)
    result = main(TINY + ["--data-dir", str(tmp_path), "--epochs", "1", "--no-sink"])
    printed = capsys.readouterr().out
    assert not result["synthetic"] and "SYNTHETIC" not in printed and "CIFAR-10" in printed
    assert len(result["losses"]) == 4 and all(np.isfinite(result["losses"]))
    assert 0.0 <= result["accuracy"] <= 1.0
