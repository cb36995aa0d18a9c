"""ModelCheckpoint formats, CRC and sharded folders; BackupAndRestore resumes bit for bit, data position included."""
import os

import numpy as np
import pytest

import mindjax as ms
import mindjax.dataset as ds
from mindjax import nn
from mindjax.train import BackupAndRestore, CheckpointConfig, LambdaCallback, Model, ModelCheckpoint
from mindjax.train.serialization import load_checkpoint
from tests.train.train_nets import BNNet, classification_batches, make_model, weights


def test_model_checkpoint_safetensors_format_names_and_writes_safetensors(tmp_path):
    model, net, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=2, keep_checkpoint_max=2, format="safetensors",
                              append_info=["epoch_num"])
    model.train(2, classification_batches(n_batches=2), callbacks=ModelCheckpoint("mlp", str(tmp_path), config))
    assert sorted(os.listdir(tmp_path)) == ["mlp-1_2.safetensors", "mlp-2_2.safetensors"]
    with open(tmp_path / "mlp-2_2.safetensors", "rb") as f:
        header_len = int.from_bytes(f.read(8), "little")
        assert f.read(1) == b"{" and header_len > 0  # safetensors: a JSON header after its length
    loaded = load_checkpoint(str(tmp_path / "mlp-2_2.safetensors"), format="safetensors")
    np.testing.assert_array_equal(loaded["fc1.weight"].asnumpy(), weights(net)["fc1.weight"])
    assert int(np.asarray(loaded["epoch_num"])) == 2


def test_model_checkpoint_crc_check_stores_a_crc_the_loader_verifies(tmp_path):
    model, _, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=2, crc_check=True)
    model.train(1, classification_batches(n_batches=2), callbacks=ModelCheckpoint("mlp", str(tmp_path), config))
    path = str(tmp_path / "mlp-1_2.ckpt")
    assert "fc1.weight" in load_checkpoint(path, crc_check=True)
    with open(path, "r+b") as f:  # flip one byte of the payload
        f.seek(40)
        byte = f.read(1)
        f.seek(40)
        f.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(Exception, match="mlp-1_2.ckpt"):
        load_checkpoint(path, crc_check=True)


def test_checkpoint_config_refuses_crc_with_safetensors_as_mindspore_does():
    with pytest.raises(ValueError, match="when 'format' is 'safetensors', .*'crc_check'.* must keep their defaults"):
        CheckpointConfig(format="safetensors", crc_check=True)


def test_model_checkpoint_prunes_sharded_checkpoint_folders(tmp_path):
    model, net, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=2, integrated_save=False)
    model.train(1, classification_batches(n_batches=3), callbacks=ModelCheckpoint("mlp", str(tmp_path), config))
    assert sorted(os.listdir(tmp_path)) == ["mlp-1_2.ckpt", "mlp-1_3.ckpt"]
    assert os.path.isdir(tmp_path / "mlp-1_3.ckpt")
    loaded = load_checkpoint(str(tmp_path / "mlp-1_3.ckpt"))
    np.testing.assert_array_equal(np.asarray(loaded["fc2.bias"]), weights(net)["fc2.bias"])


def test_callable_prefix_names_the_whole_file_as_mindspore(tmp_path):
    model, _, _ = make_model()
    config = CheckpointConfig(save_checkpoint_steps=1, keep_checkpoint_max=2)
    ckpt = ModelCheckpoint(lambda cb: f"net_e{cb.cur_epoch_num}", str(tmp_path), config)
    model.train(2, classification_batches(n_batches=2), callbacks=ckpt)
    assert sorted(os.listdir(tmp_path)) == ["net_e1.ckpt", "net_e2.ckpt"]


class _Crash(Exception):
    pass


def _crash_after_epoch(epoch):
    def crash(run_context):
        if run_context.original_args().cur_epoch_num == epoch:
            raise _Crash()
    return LambdaCallback(on_train_epoch_end=crash)


def _shuffled_pipeline():
    rng = np.random.default_rng(1)
    x = rng.normal(size=(32, 4)).astype(np.float32)
    y = ((x[:, 0] > 0).astype(np.int32) + (x[:, 1] > 0)).astype(np.int32)
    return ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=True).batch(8)  # 4 batches per epoch


def _run(tmp_path, data, sink, sink_size, callbacks=()):
    ms.set_seed(7)
    ds.config.set_seed(21)
    net = BNNet()
    model = Model(net, nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"),
                  nn.Adam(net.trainable_params(), 0.01))
    model.train(4, data(), callbacks=list(callbacks), dataset_sink_mode=sink, sink_size=sink_size)
    return model


@pytest.mark.parametrize("data, sink, sink_size", [
    (lambda: classification_batches(n_batches=3), False, -1),
    (_shuffled_pipeline, False, -1),
    (_shuffled_pipeline, True, 3),  # sinks of 3 steps (lax.scan, as on GPU) straddle the 4-batch epochs
], ids=["arrays", "shuffled-pipeline", "shuffled-pipeline-sink-3"])
def test_backup_and_restore_resumes_bit_for_bit_with_the_data_position(tmp_path, data, sink, sink_size, scan_sink):
    straight = _run(tmp_path, data, sink, sink_size)
    want = {n: np.asarray(p._value) for n, p in straight.train_network.parameters_and_names()}
    backup = str(tmp_path / "backup")
    with pytest.raises(_Crash):
        _run(tmp_path, data, sink, sink_size, [BackupAndRestore(backup), _crash_after_epoch(2)])
    assert os.listdir(backup) == ["backup.ckpt"]
    epochs, steps = [], []
    resumed = _run(tmp_path, data, sink, sink_size, [BackupAndRestore(backup), LambdaCallback(
        on_train_epoch_begin=lambda rc: epochs.append(rc.original_args().cur_epoch_num),
        on_train_epoch_end=lambda rc: steps.append(rc.original_args().cur_step_num))])
    assert epochs == [3, 4]
    per_epoch = sink_size if sink else 3 if data is not _shuffled_pipeline else 4
    assert steps == [3 * per_epoch, 4 * per_epoch]
    got = {n: np.asarray(p._value) for n, p in resumed.train_network.parameters_and_names()}
    assert set(got) == set(want) and any("moment1" in n for n in got)
    for name in want:
        np.testing.assert_array_equal(got[name], want[name], err_msg=name)
    assert not os.listdir(backup)  # a completed run deletes its backup


def test_backup_and_restore_refuses_a_backup_of_another_network(tmp_path):
    backup = str(tmp_path / "backup")
    model, _, _ = make_model()
    with pytest.raises(_Crash):
        model.train(3, classification_batches(n_batches=2), callbacks=[BackupAndRestore(backup),
                                                                       _crash_after_epoch(1)])
    other, _, _ = make_model(BNNet())
    with pytest.raises(ValueError, match="For 'BackupAndRestore', the backup in .* does not fit this training "
                                         "network"):
        other.train(3, classification_batches(n_batches=2), callbacks=BackupAndRestore(backup))
