"""Shared pieces of :mod:`mindjax.mindrecord` (MindSpore's ``mindspore.mindrecord.common``)."""
