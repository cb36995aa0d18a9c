"""The main job, examples/lenet/train.py, end to end with 2 epochs: results, checkpoint, summaries, curves."""
from pathlib import Path

import numpy as np
import pytest

from examples.lenet.train import main


def _check_outputs(result, out_dir):
    assert set(result) >= {"accuracy", "loss", "seconds", "checkpoints", "summary_dir", "curves",
                           "epoch_accuracy", "epoch_loss"}
    assert 0.0 <= result["accuracy"] <= 1.0 and np.isfinite(result["loss"])
    assert len(result["epoch_accuracy"]) == len(result["epoch_loss"]) == 2
    ckpts = [Path(p) for p in result["checkpoints"]]
    assert ckpts and all(p.is_file() and p.suffix == ".ckpt" and p.stat().st_size > 0 for p in ckpts)
    assert ckpts[-1].name == "lenet-2_44.ckpt"       # epoch 2, 44 steps of 32 per epoch
    summary = Path(result["summary_dir"])
    assert any(f.name.startswith("events.out.tfevents") for f in summary.iterdir())
    curves = Path(result["curves"])
    assert curves.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    for path in (ckpts[-1], summary, curves):
        assert Path(out_dir) in path.parents


@pytest.mark.parametrize("extra", [[], ["--sink"]], ids=["steps", "sink"])
def test_lenet_main_writes_checkpoint_summaries_and_curves(tmp_path, capsys, extra):
    result = main(["--epochs", "2", "--no-progress", "--out", str(tmp_path)] + extra)
    _check_outputs(result, tmp_path)
    printed = capsys.readouterr().out
    assert "held-out accuracy" in printed and "tensorboard --logdir" in printed
    assert ("sink" in printed.splitlines()[0]) and (("no sink" in printed) == (not extra))


def test_lenet_main_under_mindjax_run_splits_the_data_and_writes_per_rank(tmp_path):
    """Two processes: each reads half the training set (22 steps of 32, not 44) and saves into its own
    checkpoint folder; rank 0 alone writes the summaries and the curves and prints."""
    import os
    import re
    import socket
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = dict(os.environ, PYTHONPATH=str(root), JAX_PLATFORMS="cpu")
    env.pop("XLA_FLAGS", None)
    done = subprocess.run([sys.executable, "-m", "mindjax.parallel.launcher", "--worker_num", "2",
                           "--master_port", str(port), "--log_dir", str(tmp_path / "logs"),
                           "examples/lenet/train.py", "--epochs", "1", "--no-progress", "--out", str(tmp_path)],
                          cwd=root, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    [run] = list(tmp_path.glob("lenet-*"))
    for rank in (0, 1):
        assert [p.name for p in (run / "checkpoint" / f"rank_{rank}").iterdir()] == ["lenet-1_22.ckpt"]
    assert len(list((run / "summary").iterdir())) == 1 and (run / "curves.png").is_file()
    assert re.findall(r"\[rank (\d)\] held-out accuracy", done.stdout) == ["0"]
