"""Checkpoint safety: atomic writes under SIGKILL, corrupted and truncated files, pickle payloads."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import mindjax as ms
from mindjax import nn
from mindjax.train.serialization import load_checkpoint, save_checkpoint

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Unpickling this creates the file named after 'V' (builtins.open(path, 'w')).
_PICKLE_TEMPLATE = b"\x80\x02cbuiltins\nopen\n(V%s\nVw\ntR."


def _save_net(path, value):
    net = nn.Dense(8, 8)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(np.full(p.shape, value, np.float32)))
    save_checkpoint(net, path)


def test_truncated_file_raises_naming_the_file(tmp_path):
    path = tmp_path / "net.ckpt"
    _save_net(str(path), 1.0)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])
    with pytest.raises(ValueError, match=f"{path}.*truncated"):
        load_checkpoint(str(path))


def test_empty_and_garbage_files_raise_naming_the_file(tmp_path):
    path = tmp_path / "net.ckpt"
    path.write_bytes(b"")
    with pytest.raises(ValueError, match=f"{path}: the file is empty"):
        load_checkpoint(str(path))
    path.write_bytes(b"\x00\x01garbage" * 10)
    with pytest.raises(ValueError, match=f"{path}: it does not start with a checkpoint record"):
        load_checkpoint(str(path))


def test_flipped_byte_fails_the_crc_check(tmp_path):
    path = tmp_path / "net.ckpt"
    net = nn.Dense(8, 8)
    save_checkpoint(net, str(path), crc_check=True)
    data = bytearray(path.read_bytes())
    data[60] ^= 0xFF  # inside the weight's content: the protobuf still parses
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=f"{path}: the CRC check failed"):
        load_checkpoint(str(path), crc_check=True)
    with pytest.raises(ValueError, match="holds no CRC"):
        save_checkpoint(net, str(tmp_path / "plain.ckpt"), crc_check=False)
        load_checkpoint(str(tmp_path / "plain.ckpt"), crc_check=True)


def test_corrupted_safetensors_raise_naming_the_file(tmp_path):
    path = tmp_path / "net.safetensors"
    save_checkpoint(nn.Dense(2, 2), str(path), format="safetensors")
    path.write_bytes(path.read_bytes()[:30])
    with pytest.raises(ValueError, match=f"{path}: the header length 176 is beyond the file.s 30 bytes; the file is truncated"):
        load_checkpoint(str(path), format="safetensors")


@pytest.mark.parametrize("suffix", ["ckpt", "safetensors"])
def test_pickle_payload_is_rejected_without_running(tmp_path, suffix):
    marker = tmp_path / "pwned"
    path = tmp_path / f"evil.{suffix}"
    path.write_bytes(_PICKLE_TEMPLATE % str(marker).encode())
    with pytest.raises(ValueError, match=str(path)) as info:
        load_checkpoint(str(path), format=suffix)
    if suffix == "ckpt":
        assert "Python pickle, which MindJAX never loads" in str(info.value)
    assert not marker.exists()


_WRITER = textwrap.dedent("""
    import sys, time
    import numpy as np
    import mindjax as ms
    from mindjax import nn
    from mindjax.train.serialization import ckpt_format, save_checkpoint

    path, marker = sys.argv[1], sys.argv[2]
    net = nn.Dense(64, 64)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(np.full(p.shape, 2.0, np.float32)))
    ckpt_format._SLICE_BYTES = 1024
    original = ckpt_format._entry_messages

    def slow(tag, value, slice_bytes):
        for i, piece in enumerate(original(tag, value, slice_bytes)):
            yield piece
            if i == 3:  # part of the new file is written: wait here to be killed
                open(marker, "w").close()
                time.sleep(120)

    ckpt_format._entry_messages = slow
    save_checkpoint(net, path)
""")


def test_process_killed_during_write_leaves_previous_file_intact(tmp_path):
    path, marker = tmp_path / "net.ckpt", tmp_path / "writing"
    net = nn.Dense(64, 64)
    for p in net.get_parameters():
        p.set_data(ms.Tensor(np.full(p.shape, 1.0, np.float32)))
    save_checkpoint(net, str(path))
    before = path.read_bytes()
    env = dict(os.environ, PYTHONPATH=REPO, JAX_PLATFORMS="cpu")
    child = subprocess.Popen([sys.executable, "-c", _WRITER, str(path), str(marker)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists():
            assert child.poll() is None, child.stdout.read().decode()
            assert time.monotonic() < deadline, "the writer never reached the middle of its write"
            time.sleep(0.05)
        child.send_signal(signal.SIGKILL)
        child.wait(30)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert len(leftovers) == 1 and leftovers[0].startswith(".net.ckpt.")  # the interrupted write
    assert path.read_bytes() == before
    loaded = load_checkpoint(str(path))
    np.testing.assert_array_equal(loaded["weight"].asnumpy(), np.ones((64, 64), np.float32))
