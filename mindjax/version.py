"""``mindspore.version``: the version of MindSpore whose API MindJAX gives (``__version__``)."""
__version__ = "2.10.0"
