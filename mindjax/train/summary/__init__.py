"""MindSpore's ``mindspore.train.summary`` package: ``SummaryRecord`` (module ``summary_record``)."""
from mindjax.train.summary import summary_record
from mindjax.train.summary.summary_record import SummaryRecord

__all__ = ["SummaryRecord"]
