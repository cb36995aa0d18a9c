"""``mindspore.dataset.engine.iterators``: the iterators over a pipeline."""
from mindjax.dataset.iterators import DeviceIterator, TupleIterator

DictIterator = TupleIterator  # MindSpore's dict iterator is create_dict_iterator's TupleIterator here

__all__ = ["TupleIterator", "DictIterator", "DeviceIterator"]
