"""Fixtures of the training tests."""
import pytest

from mindjax.train import _step


@pytest.fixture
def scan_sink(monkeypatch):
    """Sink mode as on GPU and TPU (one ``lax.scan`` per sink), on whatever backend the tests run.

    On XLA:CPU ``Model`` trains sink mode step by step, as MindSpore's CPU backend does.
    """
    monkeypatch.setattr(_step, "sink_runs_on_device", lambda: True)
