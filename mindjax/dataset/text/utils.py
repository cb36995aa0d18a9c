"""Text utilities (``mindspore.dataset.text.utils``): ``Vocab``, normalization forms, ``to_str``/``to_bytes``.

Not here: ``SentencePieceVocab``, ``Vectors``, ``FastText``, ``GloVe`` and
``CharNGram`` (they need the SentencePiece library or pretrained vector files
read by MindSpore's C++ core).
"""
from __future__ import annotations

import enum
import os
from collections import Counter
from typing import Any, Sequence

import numpy as np

__all__ = ["Vocab", "NormalizeForm", "to_str", "to_bytes"]


class NormalizeForm(enum.IntEnum):
    """Unicode normalization forms (``NONE`` leaves the text as it is)."""

    NONE = 0
    NFC = 1
    NFKC = 2
    NFD = 3
    NFKD = 4


def _str_list(value: Any, who: str, arg: str, allow_none: bool = True) -> list[str]:
    if value is None and allow_none:
        return []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError(f"For '{who}', '{arg}' must be a list of str, got {value!r}")
    if len(set(value)) != len(value):
        dup = next(v for v in value if value.count(v) > 1)
        raise ValueError(f"For '{who}', '{arg}' has duplicate token {dup!r}")
    return list(value)


def _check_bool(value: Any, who: str, arg: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{who}', '{arg}' must be a bool, got {value!r}")
    return value


class Vocab:
    """A map between tokens and their ids, built by one of the ``from_*`` class methods.

    Example:
        >>> from mindjax.dataset import text
        >>> vocab = text.Vocab.from_list(["home", "world"], special_tokens=["<pad>"])
        >>> vocab.vocab(), vocab.tokens_to_ids(["world", "?"]), vocab.ids_to_tokens(1)
        ({'<pad>': 0, 'home': 1, 'world': 2}, [2, -1], 'home')
    """

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        self._tokens: dict[int, str] = {}

    @classmethod
    def _from_tokens(cls, tokens: Sequence[str], special_tokens: list[str], special_first: bool) -> "Vocab":
        ordered = (special_tokens + [t for t in tokens if t not in special_tokens]) if special_first else (
            [t for t in tokens if t not in special_tokens] + special_tokens)
        return cls._from_mapping({t: i for i, t in enumerate(ordered)})

    @classmethod
    def _from_mapping(cls, mapping: dict[str, int]) -> "Vocab":
        vocab = cls()
        vocab._ids = dict(mapping)
        vocab._tokens = {i: t for t, i in mapping.items()}
        return vocab

    @classmethod
    def from_list(cls, word_list: list[str], special_tokens: list[str] | None = None,
                  special_first: bool = True) -> "Vocab":
        """Ids in list order, with ``special_tokens`` first (or last).

        Arguments:
            word_list: the tokens, without duplicates.
            special_tokens: tokens added before (``special_first``) or after the list.
            special_first: where the special tokens go.
        """
        words = _str_list(word_list, "Vocab.from_list", "word_list", allow_none=False)
        specials = _str_list(special_tokens, "Vocab.from_list", "special_tokens")
        _check_bool(special_first, "Vocab.from_list", "special_first")
        return cls._from_tokens(words, specials, special_first)

    @classmethod
    def from_dict(cls, word_dict: dict[str, int]) -> "Vocab":
        """The given token-to-id map (ids non-negative ints)."""
        if not isinstance(word_dict, dict):
            raise TypeError(f"For 'Vocab.from_dict', 'word_dict' must be a dict of str to int, got {word_dict!r}")
        for token, i in word_dict.items():
            if not isinstance(token, str) or not isinstance(i, int) or isinstance(i, bool):
                raise TypeError(f"For 'Vocab.from_dict', 'word_dict' must map str to int, got {token!r}: {i!r}")
            if i < 0:
                raise ValueError(f"For 'Vocab.from_dict', ids must be non-negative, got {token!r}: {i}")
        return cls._from_mapping(word_dict)

    @classmethod
    def from_file(cls, file_path: str, delimiter: str = "", vocab_size: int | None = None,
                  special_tokens: list[str] | None = None, special_first: bool = True) -> "Vocab":
        """One token per line (the text before ``delimiter``, or the whole line).

        Arguments:
            file_path: the file (utf-8).
            delimiter: what ends the token on a line ('' : the whole line).
            vocab_size: read at most this many tokens.
            special_tokens: tokens added before (``special_first``) or after the file's.
            special_first: where the special tokens go.
        """
        if not isinstance(file_path, str):
            raise TypeError(f"For 'Vocab.from_file', 'file_path' must be a str, got {file_path!r}")
        if not os.path.isfile(file_path):
            raise ValueError(f"For 'Vocab.from_file', '{file_path}' does not exist or is not a file")
        if not isinstance(delimiter, str):
            raise TypeError(f"For 'Vocab.from_file', 'delimiter' must be a str, got {delimiter!r}")
        if vocab_size is not None and (not isinstance(vocab_size, int) or vocab_size <= 0):
            raise ValueError(f"For 'Vocab.from_file', 'vocab_size' must be a positive int, got {vocab_size!r}")
        specials = _str_list(special_tokens, "Vocab.from_file", "special_tokens")
        _check_bool(special_first, "Vocab.from_file", "special_first")
        words: list[str] = []
        with open(file_path, encoding="utf-8") as f:
            for line_no, line in enumerate(f, start=1):
                line = line.rstrip("\r\n")
                token = line.split(delimiter, 1)[0] if delimiter else line
                if token in words:
                    raise ValueError(f"For 'Vocab.from_file', token {token!r} on line {line_no} of '{file_path}' "
                                     "is a duplicate")
                words.append(token)
                if vocab_size is not None and len(words) >= vocab_size:
                    break
        return cls._from_tokens(words, specials, special_first)

    @classmethod
    def from_dataset(cls, dataset: Any, columns: list[str] | str | None = None,
                     freq_range: tuple[int | None, int | None] | None = None, top_k: int | None = None,
                     special_tokens: list[str] | None = None, special_first: bool = True) -> "Vocab":
        """Every token of ``columns`` (string arrays) of one epoch, most frequent first (ties: alphabetical).

        Arguments:
            dataset: the dataset to read.
            columns: the columns with tokens (default: all).
            freq_range: (min, max) counts to keep, either may be ``None``.
            top_k: keep the ``top_k`` most frequent tokens after the range filter.
            special_tokens: tokens added before (``special_first``) or after.
            special_first: where the special tokens go.
        """
        names = [columns] if isinstance(columns, str) else columns
        if names is not None and (not isinstance(names, list) or not all(isinstance(c, str) for c in names)):
            raise TypeError(f"For 'Vocab.from_dataset', 'columns' must be a list of str, got {columns!r}")
        low, high = None, None
        if freq_range is not None:
            if not isinstance(freq_range, tuple) or len(freq_range) != 2 or not all(
                    f is None or (isinstance(f, int) and not isinstance(f, bool)) for f in freq_range):
                raise TypeError(f"For 'Vocab.from_dataset', 'freq_range' must be a tuple of two int (or None), "
                                f"got {freq_range!r}")
            low, high = freq_range
            if (low is not None and low < 0) or (high is not None and high < 0):
                raise ValueError(f"For 'Vocab.from_dataset', 'freq_range' values must be non-negative, "
                                 f"got {freq_range!r}")
        if top_k is not None and (not isinstance(top_k, int) or isinstance(top_k, bool)):
            raise TypeError(f"For 'Vocab.from_dataset', 'top_k' must be an int, got {top_k!r}")
        if top_k is not None and top_k <= 0:
            raise ValueError(f"For 'Vocab.from_dataset', 'top_k' must be positive, got {top_k}")
        specials = _str_list(special_tokens, "Vocab.from_dataset", "special_tokens")
        _check_bool(special_first, "Vocab.from_dataset", "special_first")
        all_names = dataset.get_col_names()
        picked = [all_names.index(c) for c in (names or all_names)]
        counts: Counter[str] = Counter()
        for row in dataset.create_tuple_iterator(output_numpy=True, num_epochs=1):
            for k in picked:
                values = np.asarray(row[k])
                if values.dtype.kind not in "US":
                    raise TypeError(f"For 'Vocab.from_dataset', column '{all_names[k]}' must hold strings, "
                                    f"got dtype {values.dtype}")
                counts.update(_as_text(v) for v in values.reshape(-1).tolist())
        kept = [(t, c) for t, c in counts.items() if (low is None or c >= low) and (high is None or c <= high)]
        kept.sort(key=lambda tc: (-tc[1], tc[0]))
        if top_k is not None:
            kept = kept[:top_k]
        return cls._from_tokens([t for t, _ in kept], specials, special_first)

    def vocab(self) -> dict[str, int]:
        """The token-to-id map."""
        return dict(self._ids)

    def tokens_to_ids(self, tokens: Any) -> Any:
        """The id of each token (-1 for an unknown one): an int for a str, else a list."""
        if isinstance(tokens, np.ndarray):
            tokens = tokens.tolist()
        if isinstance(tokens, str):
            return self._ids.get(tokens, -1)
        if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
            raise TypeError(f"For 'Vocab.tokens_to_ids', 'tokens' must be a str, list of str or numpy array, "
                            f"got {tokens!r}")
        return [self._ids.get(t, -1) for t in tokens]

    def ids_to_tokens(self, ids: Any) -> Any:
        """The token of each id ('' for an unknown one): a str for an int, else a list."""
        if isinstance(ids, np.ndarray):
            ids = ids.tolist()
        if isinstance(ids, int) and not isinstance(ids, bool):
            if ids < 0:
                raise ValueError(f"For 'Vocab.ids_to_tokens', ids must be non-negative, got {ids}")
            return self._tokens.get(ids, "")
        if not isinstance(ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in ids):
            raise TypeError(f"For 'Vocab.ids_to_tokens', 'ids' must be an int, list of int or numpy array, got {ids!r}")
        if any(i < 0 for i in ids):
            raise ValueError(f"For 'Vocab.ids_to_tokens', ids must be non-negative, got {ids}")
        return [self._tokens.get(i, "") for i in ids]

    def __len__(self) -> int:
        return len(self._ids)


def _as_text(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


def to_bytes(array: np.ndarray, encoding: str = "utf8") -> np.ndarray:
    """A numpy array of ``str`` as an array of ``bytes`` (each element encoded)."""
    if not isinstance(array, np.ndarray):
        raise ValueError("For 'to_bytes', the input should be a NumPy array.")
    return np.char.encode(array, encoding)


def to_str(array: np.ndarray, encoding: str = "utf8") -> np.ndarray:
    """A numpy array of ``bytes`` as an array of ``str`` (each element decoded)."""
    if not isinstance(array, np.ndarray):
        raise TypeError("For 'to_str', the input should be a NumPy array.")
    return np.char.decode(array, encoding)
