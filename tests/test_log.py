"""mindjax.log: MindSpore's logger API."""
import logging

from mindjax import log


def test_level_and_config_default_to_warning():
    assert log.get_level() in ("0", "1", "2", "3", "4")
    config = log.get_log_config()
    assert config["GLOG_v"] == log.get_level() and "GLOG_logtostderr" in config


def test_messages_reach_the_logger_with_the_callers_location(caplog):
    logger = logging.getLogger("mindjax")
    logger.addHandler(caplog.handler)
    try:
        log.error("bad %s", "value")
    finally:
        logger.removeHandler(caplog.handler)
    record = caplog.records[-1]
    assert record.getMessage() == "bad value" and record.levelname == "ERROR"
    assert record.filename == "test_log.py"
