"""Text processing (``mindspore.dataset.text``): vocabularies, tokenizers and string transforms.

Everything here is pure Python and numpy. Not provided, because each needs
a library or data files MindSpore's C++ core brings: ``JiebaTokenizer``,
``SentencePieceTokenizer``/``SentencePieceVocab``, ``ToVectors`` with
``Vectors``/``FastText``/``GloVe``/``CharNGram``, ``UnicodeScriptTokenizer``
and ``FilterWikipediaXML``.

Example:
    >>> import numpy as np
    >>> from mindjax.dataset import text
    >>> text.WhitespaceTokenizer()(np.array("hello mindjax world")).tolist()
    ['hello', 'mindjax', 'world']
"""
from mindjax.dataset.text import transforms, utils
from mindjax.dataset.text.transforms import (AddToken, BasicTokenizer, BertTokenizer, CaseFold, Lookup, Ngram,
                                             NormalizeUTF8, PythonTokenizer, RegexReplace, RegexTokenizer,
                                             SlidingWindow, ToNumber, Truncate, TruncateSequencePair,
                                             UnicodeCharTokenizer, WhitespaceTokenizer, WordpieceTokenizer)
from mindjax.dataset.text.utils import NormalizeForm, Vocab, to_bytes, to_str

__all__ = ["transforms", "utils", "AddToken", "BasicTokenizer", "BertTokenizer", "CaseFold", "Lookup", "Ngram",
           "NormalizeUTF8", "PythonTokenizer", "RegexReplace", "RegexTokenizer", "SlidingWindow", "ToNumber",
           "Truncate", "TruncateSequencePair", "UnicodeCharTokenizer", "WhitespaceTokenizer", "WordpieceTokenizer",
           "NormalizeForm", "Vocab", "to_bytes", "to_str"]
