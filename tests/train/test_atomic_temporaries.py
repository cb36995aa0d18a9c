"""Stale temporaries of killed atomic writes are removed at the next write of the same file."""
import subprocess
import sys

from mindjax.train.serialization import save_checkpoint
from mindjax.train.serialization.atomic import writer_tag
from tests.train.train_nets import make_model


def _dead_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def _host():
    return writer_tag().rsplit("-", 1)[0]


def test_save_checkpoint_removes_the_temporary_a_killed_save_of_that_file_left(tmp_path):
    net = make_model()[1]
    path = tmp_path / "net.ckpt"
    stale = tmp_path / f".net.ckpt.{_host()}-{_dead_pid()}.k1ll3d.tmp"
    stale.write_bytes(b"\0" * 64)
    save_checkpoint(net, str(path))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.ckpt"]

