"""``mindspore.common.dump``: ``set_dump`` (MindSpore's deprecated path of :func:`mindjax.tools.set_dump`)."""
from mindjax.tools import set_dump

__all__ = ["set_dump"]
