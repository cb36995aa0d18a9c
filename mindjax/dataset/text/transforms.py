"""Text transforms on numpy string arrays (``mindspore.dataset.text.transforms``), in pure Python.

Strings are numpy ``str`` arrays (``bytes`` arrays are read as utf-8);
tokenizers turn a 0-d string into a 1-D array of tokens, and with
``with_offsets=True`` also return the utf-8 byte offsets where each token
starts and ends (uint32), as MindSpore does.

Not here: ``JiebaTokenizer`` (needs the jieba dictionaries MindSpore's C++
core reads), ``SentencePieceTokenizer`` (needs SentencePiece), ``ToVectors``
(needs pretrained vector files), ``UnicodeScriptTokenizer`` (needs ICU's
script property, which Python's ``unicodedata`` lacks) and ``FilterWikipediaXML``.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any, Callable

import numpy as np

from mindjax.dataset.text.utils import NormalizeForm, Vocab
from mindjax.dataset.transforms.base import Transform

__all__ = ["AddToken", "Lookup", "Ngram", "PythonTokenizer", "SlidingWindow", "ToNumber", "Truncate",
           "TruncateSequencePair", "UnicodeCharTokenizer", "WhitespaceTokenizer", "WordpieceTokenizer", "CaseFold",
           "NormalizeUTF8", "RegexReplace", "RegexTokenizer", "BasicTokenizer", "BertTokenizer"]


def _strings(x: Any, who: str) -> np.ndarray:
    """``x`` as a numpy ``str`` array (bytes decoded as utf-8)."""
    arr = np.asarray(x)
    if arr.dtype.kind == "S":
        return np.char.decode(arr, "utf-8")
    if arr.dtype.kind != "U":
        raise TypeError(f"For '{who}', the input must be a string array, got dtype {arr.dtype}")
    return arr


def _text(x: Any, who: str) -> str:
    arr = _strings(x, who)
    if arr.ndim != 0:
        raise ValueError(f"For '{who}', the input must be a 0-d string (one sentence), got shape {arr.shape}")
    return str(arr)


def _tokens_1d(x: Any, who: str) -> np.ndarray:
    arr = _strings(x, who)
    if arr.ndim != 1:
        raise ValueError(f"For '{who}', the input must be a 1-D array of strings, got shape {arr.shape}")
    return arr


def _check_bool(value: Any, who: str, arg: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"For '{who}', '{arg}' must be a bool, got {value!r}")
    return value


def _positive_int(value: Any, who: str, arg: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"For '{who}', '{arg}' must be an int, got {value!r}")
    if value <= 0:
        raise ValueError(f"For '{who}', '{arg}' must be a positive int, got {value}")
    return value


def _with_offsets(tokens: list[tuple[str, int, int]], with_offsets: bool) -> Any:
    """MindSpore's tokenizer output: the tokens, and with offsets (start, limit) in utf-8 bytes."""
    if not tokens:
        tokens = [("", 0, 0)]
    words = np.array([t for t, _, _ in tokens])
    if not with_offsets:
        return words
    return (words, np.array([s for _, s, _ in tokens], np.uint32), np.array([e for _, _, e in tokens], np.uint32))


def _byte_spans(text: str, spans: list[tuple[int, int]]) -> list[tuple[str, int, int]]:
    """Character spans of ``text`` as (token, byte start, byte limit)."""
    out = []
    for start, stop in spans:
        b0 = len(text[:start].encode("utf-8"))
        out.append((text[start:stop], b0, b0 + len(text[start:stop].encode("utf-8"))))
    return out


class _TextTransform(Transform):
    """Base of the text transforms."""


class AddToken(_TextTransform):
    """Add ``token`` at the start (``begin``) or end of a 1-D token array.

    Example:
        >>> import numpy as np
        >>> from mindjax.dataset import text
        >>> text.AddToken("TOKEN", begin=True)(np.array(["a", "b"])).tolist()
        ['TOKEN', 'a', 'b']
    """

    def __init__(self, token: str, begin: bool = True) -> None:
        if not isinstance(token, str):
            raise TypeError(f"For 'AddToken', 'token' must be a str, got {token!r}")
        self.token, self.begin = token, _check_bool(begin, "AddToken", "begin")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        tokens = _tokens_1d(x, "AddToken").tolist()
        return np.array([self.token, *tokens] if self.begin else [*tokens, self.token])


class Lookup(_TextTransform):
    """Tokens to their ids in ``vocab`` (``unknown_token``'s id for the others).

    Arguments:
        vocab: a :class:`~mindjax.dataset.text.Vocab`.
        unknown_token: the token whose id replaces out-of-vocabulary ones
            (default: none, and an unknown token is an error).
        data_type: the id dtype (default ``int32``).
    """

    def __init__(self, vocab: Vocab, unknown_token: str | None = None, data_type: Any = np.int32) -> None:
        if not isinstance(vocab, Vocab):
            raise TypeError(f"For 'Lookup', 'vocab' must be a text.Vocab, got {type(vocab).__name__}")
        if unknown_token is not None and not isinstance(unknown_token, str):
            raise TypeError(f"For 'Lookup', 'unknown_token' must be a str, got {unknown_token!r}")
        self.vocab, self.unknown_token = vocab, unknown_token
        self.data_type = data_type
        self._dtype = np.dtype(data_type)
        if self._dtype.kind not in "iuf":
            raise TypeError(f"For 'Lookup', 'data_type' must be numeric, got {data_type!r}")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        words = _strings(x, "Lookup")
        ids = self.vocab._ids
        unknown = None
        if self.unknown_token is not None:
            if self.unknown_token not in ids:
                raise RuntimeError(f"For 'Lookup', unknown_token {self.unknown_token!r} is not in the vocab")
            unknown = ids[self.unknown_token]
        out = []
        for w in words.reshape(-1).tolist():
            i = ids.get(w, unknown)
            if i is None:
                raise RuntimeError(f"For 'Lookup', token {w!r} is not in the vocab and no unknown_token is given")
            out.append(i)
        return np.asarray(out, dtype=self._dtype).reshape(words.shape)


class Ngram(_TextTransform):
    """The n-grams of a 1-D token array, each joined by ``separator``.

    Arguments:
        n: an int or a list of positive ints: all the ``n[0]``-grams, then ``n[1]``-grams, ...
            A sequence too short for an ``n`` gives one empty string for it.
        left_pad: (token, width) padded on the left (width capped at n - 1).
        right_pad: (token, width) padded on the right (width capped at n - 1).
        separator: what joins the tokens of an n-gram.
    """

    def __init__(self, n: Any, left_pad: tuple[str, int] = ("", 0), right_pad: tuple[str, int] = ("", 0),
                 separator: str = " ") -> None:
        ns = [n] if isinstance(n, int) and not isinstance(n, bool) else n
        if not isinstance(ns, list) or not ns or not all(isinstance(k, int) and not isinstance(k, bool) for k in ns):
            raise TypeError(f"For 'Ngram', 'n' must be an int or a list of int, got {n!r}")
        if any(k <= 0 for k in ns):
            raise ValueError(f"For 'Ngram', every n must be a positive int, got {n!r}")
        for arg, pad in (("left_pad", left_pad), ("right_pad", right_pad)):
            if not (isinstance(pad, tuple) and len(pad) == 2 and isinstance(pad[0], str)
                    and isinstance(pad[1], int) and not isinstance(pad[1], bool)):
                raise TypeError(f"For 'Ngram', '{arg}' must be a tuple (str, int), got {pad!r}")
            if pad[1] < 0:
                raise ValueError(f"For 'Ngram', the width in '{arg}' must be non-negative, got {pad[1]}")
        if not isinstance(separator, str):
            raise TypeError(f"For 'Ngram', 'separator' must be a str, got {separator!r}")
        self.n, self.left_pad, self.right_pad, self.separator = ns, left_pad, right_pad, separator

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        tokens = _tokens_1d(x, "Ngram").tolist()
        out: list[str] = []
        for k in self.n:
            seq = ([self.left_pad[0]] * min(self.left_pad[1], k - 1) + tokens
                   + [self.right_pad[0]] * min(self.right_pad[1], k - 1))
            if len(seq) < k:
                out.append("")
                continue
            out.extend(self.separator.join(seq[i:i + k]) for i in range(len(seq) - k + 1))
        return np.array(out)


class PythonTokenizer:
    """Tokenize with a Python function ``str -> list of str`` (a 0-d string to a 1-D token array)."""

    def __init__(self, tokenizer: Callable[[str], list[str]]) -> None:
        if not callable(tokenizer):
            raise TypeError(f"For 'PythonTokenizer', 'tokenizer' must be callable, got {type(tokenizer).__name__}")
        self.tokenizer = tokenizer

    def __call__(self, in_array: Any) -> np.ndarray:
        tokens = self.tokenizer(_text(in_array, "PythonTokenizer"))
        return np.array(tokens, dtype=str) if len(tokens) else np.array([""])


class SlidingWindow(_TextTransform):
    """Windows of ``width`` consecutive elements along ``axis`` (a 1-D input of n gives (n - width + 1, width))."""

    def __init__(self, width: int, axis: int = 0) -> None:
        self.width = _positive_int(width, "SlidingWindow", "width")
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError(f"For 'SlidingWindow', 'axis' must be an int, got {axis!r}")
        self.axis = axis

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = np.asarray(x)
        if arr.ndim == 0:
            raise ValueError("For 'SlidingWindow', the input must have at least one dimension")
        axis = self.axis % arr.ndim
        if arr.shape[axis] < self.width:
            shape = list(arr.shape)
            shape[axis:axis + 1] = [0, self.width]
            return np.zeros(shape, arr.dtype)
        windows = np.lib.stride_tricks.sliding_window_view(arr, self.width, axis=axis)
        return np.ascontiguousarray(np.moveaxis(windows, -1, axis + 1))


class ToNumber(_TextTransform):
    """Strings of numbers to a numeric array of ``data_type``; an unparsable or out-of-range string is an error."""

    def __init__(self, data_type: Any) -> None:
        self.data_type = data_type
        self._dtype = np.dtype(data_type)
        if self._dtype.kind not in "iuf":
            raise TypeError(f"For 'ToNumber', 'data_type' must be a numeric type, got {data_type!r}")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        words = _strings(x, "ToNumber")
        out = []
        for w in words.reshape(-1).tolist():
            try:
                value = int(w) if self._dtype.kind in "iu" else float(w)
            except ValueError:
                raise RuntimeError(f"For 'ToNumber', string {w!r} is not a valid {self._dtype.name}") from None
            if self._dtype.kind in "iu":
                info = np.iinfo(self._dtype)
                if not info.min <= value <= info.max:
                    raise RuntimeError(f"For 'ToNumber', string {w!r} is out of bounds for {self._dtype.name}")
            elif np.isfinite(value) and not np.isfinite(np.asarray(value, dtype=self._dtype)):
                raise RuntimeError(f"For 'ToNumber', string {w!r} is out of bounds for {self._dtype.name}")
            out.append(value)
        return np.asarray(out, dtype=self._dtype).reshape(words.shape)


class Truncate(_TextTransform):
    """Keep the first ``max_seq_len`` elements of a 1-D array (of each row of a 2-D one)."""

    def __init__(self, max_seq_len: int) -> None:
        self.max_seq_len = _positive_int(max_seq_len, "Truncate", "max_seq_len")

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        arr = np.asarray(x)
        if arr.ndim not in (1, 2):
            raise ValueError(f"For 'Truncate', the input must be 1-D or 2-D, got shape {arr.shape}")
        return arr[..., :self.max_seq_len].copy()


class TruncateSequencePair(_TextTransform):
    """Shorten the longer of two 1-D arrays, one element at a time, until they hold ``max_length`` together."""

    def __init__(self, max_length: int) -> None:
        self.max_length = _positive_int(max_length, "TruncateSequencePair", "max_length")

    def _apply(self, first: Any, second: Any, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
        a, b = np.asarray(first), np.asarray(second)
        if a.ndim != 1 or b.ndim != 1:
            raise ValueError(f"For 'TruncateSequencePair', both inputs must be 1-D, got {a.shape} and {b.shape}")
        n, m = len(a), len(b)
        while n + m > self.max_length:
            if n > m:
                n -= 1
            else:
                m -= 1
        return a[:n].copy(), b[:m].copy()


class UnicodeCharTokenizer(_TextTransform):
    """A sentence to its characters."""

    def __init__(self, with_offsets: bool = False) -> None:
        self.with_offsets = _check_bool(with_offsets, "UnicodeCharTokenizer", "with_offsets")

    def _apply(self, x: Any, rng: Any = None) -> Any:
        text = _text(x, "UnicodeCharTokenizer")
        return _with_offsets(_byte_spans(text, [(i, i + 1) for i in range(len(text))]), self.with_offsets)


class WhitespaceTokenizer(_TextTransform):
    """Split a sentence on whitespace."""

    def __init__(self, with_offsets: bool = False) -> None:
        self.with_offsets = _check_bool(with_offsets, "WhitespaceTokenizer", "with_offsets")

    def _apply(self, x: Any, rng: Any = None) -> Any:
        text = _text(x, "WhitespaceTokenizer")
        spans = [m.span() for m in re.finditer(r"\S+", text)]
        return _with_offsets(_byte_spans(text, spans), self.with_offsets)


class RegexTokenizer(_TextTransform):
    """Split a sentence where ``delim_pattern`` matches; delimiters matching ``keep_delim_pattern`` become tokens.

    Patterns are Python ``re`` patterns (MindSpore uses ICU's, which agree on common syntax).
    """

    def __init__(self, delim_pattern: str, keep_delim_pattern: str = "", with_offsets: bool = False) -> None:
        for arg, value in (("delim_pattern", delim_pattern), ("keep_delim_pattern", keep_delim_pattern)):
            if not isinstance(value, str):
                raise TypeError(f"For 'RegexTokenizer', '{arg}' must be a str, got {value!r}")
        self.delim_pattern, self.keep_delim_pattern = delim_pattern, keep_delim_pattern
        self.with_offsets = _check_bool(with_offsets, "RegexTokenizer", "with_offsets")
        self._delim = re.compile(delim_pattern)
        self._keep = re.compile(keep_delim_pattern) if keep_delim_pattern else None

    def _apply(self, x: Any, rng: Any = None) -> Any:
        text = _text(x, "RegexTokenizer")
        spans, pos = [], 0
        for m in self._delim.finditer(text):
            if m.start() == m.end():
                continue
            if m.start() > pos:
                spans.append((pos, m.start()))
            if self._keep is not None and self._keep.fullmatch(m.group()):
                spans.append(m.span())
            pos = m.end()
        if pos < len(text):
            spans.append((pos, len(text)))
        return _with_offsets(_byte_spans(text, spans), self.with_offsets)


class CaseFold(_TextTransform):
    """Unicode case folding (a stronger ``lower``) of every string."""

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        words = _strings(x, "CaseFold")
        return np.array([w.casefold() for w in words.reshape(-1).tolist()]).reshape(words.shape)


def _normalize(text: str, form: NormalizeForm) -> str:
    return text if form == NormalizeForm.NONE else unicodedata.normalize(NormalizeForm(form).name, text)


class NormalizeUTF8(_TextTransform):
    """Unicode-normalize every string (``NormalizeForm.NFKC`` by default)."""

    def __init__(self, normalize_form: NormalizeForm = NormalizeForm.NFKC) -> None:
        if not isinstance(normalize_form, NormalizeForm):
            raise TypeError(f"For 'NormalizeUTF8', 'normalize_form' must be a text.NormalizeForm, "
                            f"got {normalize_form!r}")
        self.normalize_form = normalize_form

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        words = _strings(x, "NormalizeUTF8")
        return np.array([_normalize(w, self.normalize_form) for w in words.reshape(-1).tolist()]).reshape(words.shape)


class RegexReplace(_TextTransform):
    """Replace the matches of ``pattern`` by ``replace`` (all, or only the first)."""

    def __init__(self, pattern: str, replace: str, replace_all: bool = True) -> None:
        if not isinstance(pattern, str) or not isinstance(replace, str):
            raise TypeError(f"For 'RegexReplace', 'pattern' and 'replace' must be str, got {pattern!r}, {replace!r}")
        self.pattern, self.replace = pattern, replace
        self.replace_all = _check_bool(replace_all, "RegexReplace", "replace_all")
        self._re = re.compile(pattern)

    def _apply(self, x: Any, rng: Any = None) -> np.ndarray:
        words = _strings(x, "RegexReplace")
        count = 0 if self.replace_all else 1
        # ICU's replacement text uses $1 for groups; Python's uses \1.
        replacement = re.sub(r"\$(\d+)", r"\\\1", self.replace)
        return np.array([self._re.sub(replacement, w, count=count)
                         for w in words.reshape(-1).tolist()]).reshape(words.shape)


class WordpieceTokenizer(_TextTransform):
    """Split each token of a 1-D array into the longest sub-tokens found in ``vocab`` (BERT's WordPiece).

    Arguments:
        vocab: the :class:`~mindjax.dataset.text.Vocab` of sub-tokens.
        suffix_indicator: the prefix of a sub-token that continues a word.
        max_bytes_per_token: longer tokens (in utf-8 bytes) are not split: they become ``unknown_token``.
        unknown_token: the output for a token that cannot be split ('' : the token itself).
        with_offsets: also return each sub-token's byte offsets within its token.
    """

    def __init__(self, vocab: Vocab, suffix_indicator: str = "##", max_bytes_per_token: int = 100,
                 unknown_token: str = "[UNK]", with_offsets: bool = False) -> None:
        if not isinstance(vocab, Vocab):
            raise TypeError(f"For 'WordpieceTokenizer', 'vocab' must be a text.Vocab, got {type(vocab).__name__}")
        if not isinstance(suffix_indicator, str) or not isinstance(unknown_token, str):
            raise TypeError("For 'WordpieceTokenizer', 'suffix_indicator' and 'unknown_token' must be str")
        self.vocab, self.suffix_indicator, self.unknown_token = vocab, suffix_indicator, unknown_token
        self.max_bytes_per_token = _positive_int(max_bytes_per_token, "WordpieceTokenizer", "max_bytes_per_token")
        self.with_offsets = _check_bool(with_offsets, "WordpieceTokenizer", "with_offsets")

    def _split(self, word: str) -> list[tuple[str, int, int]]:
        unknown = [(self.unknown_token or word, 0, len(word.encode("utf-8")))]
        if len(word.encode("utf-8")) > self.max_bytes_per_token:
            return unknown
        pieces, start = [], 0
        while start < len(word):
            stop, found = len(word), None
            while stop > start:
                piece = word[start:stop] if start == 0 else self.suffix_indicator + word[start:stop]
                if piece in self.vocab._ids:
                    found = piece
                    break
                stop -= 1
            if found is None:
                return unknown
            b0 = len(word[:start].encode("utf-8"))
            pieces.append((found, b0, b0 + len(word[start:stop].encode("utf-8"))))
            start = stop
        return pieces

    def _apply(self, x: Any, rng: Any = None) -> Any:
        words = _strings(x, "WordpieceTokenizer").reshape(-1).tolist()
        out = [p for w in words for p in self._split(w)]
        return _with_offsets(out, self.with_offsets)


_UNUSED = re.compile(r"\[(CLS|SEP|UNK|PAD|MASK|unused\d+)\]")


def _is_punctuation(ch: str) -> bool:
    code = ord(ch)
    if 33 <= code <= 47 or 58 <= code <= 64 or 91 <= code <= 96 or 123 <= code <= 126:
        return True
    return unicodedata.category(ch).startswith("P")


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return any(lo <= code <= hi for lo, hi in ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF),
                                               (0x2A700, 0x2B73F), (0x2B740, 0x2B81F), (0x2B820, 0x2CEAF),
                                               (0xF900, 0xFAFF), (0x2F800, 0x2FA1F)))


class BasicTokenizer(_TextTransform):
    """BERT's basic tokenization: whitespace, punctuation and CJK characters split a sentence.

    Arguments:
        lower_case: case-fold, NFD-normalize and drop accents first.
        keep_whitespace: keep whitespace runs as tokens.
        normalization_form: normalization when not ``lower_case``.
        preserve_unused_token: keep ``[CLS]``, ``[SEP]``, ``[UNK]``, ``[PAD]``, ``[MASK]``
            and ``[unusedN]`` whole.
        with_offsets: also return byte offsets (in the processed text).
    """

    def __init__(self, lower_case: bool = False, keep_whitespace: bool = False,
                 normalization_form: NormalizeForm = NormalizeForm.NONE, preserve_unused_token: bool = True,
                 with_offsets: bool = False) -> None:
        if not isinstance(normalization_form, NormalizeForm):
            raise TypeError("Wrong input type for normalization_form, should be enum of 'NormalizeForm'.")
        self.lower_case = _check_bool(lower_case, "BasicTokenizer", "lower_case")
        self.keep_whitespace = _check_bool(keep_whitespace, "BasicTokenizer", "keep_whitespace")
        self.normalization_form = normalization_form
        self.preserve_unused_token = _check_bool(preserve_unused_token, "BasicTokenizer", "preserve_unused_token")
        self.with_offsets = _check_bool(with_offsets, "BasicTokenizer", "with_offsets")

    def _prepare(self, text: str) -> str:
        if self.lower_case:
            text = unicodedata.normalize("NFD", text.casefold())
            return "".join(ch for ch in text if unicodedata.category(ch) != "Mn")
        return _normalize(text, self.normalization_form)

    def _spans(self, text: str, keep: list[tuple[int, int]]) -> list[tuple[int, int]]:
        spans: list[tuple[int, int]] = []
        i, start = 0, None

        def flush(end: int) -> None:
            nonlocal start
            if start is not None and end > start:
                spans.append((start, end))
            start = None

        while i < len(text):
            whole = next((s for s in keep if s[0] == i), None)
            if whole is not None:
                flush(i)
                spans.append(whole)
                i = whole[1]
                continue
            ch = text[i]
            if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\t\n\r":
                flush(i)
                j = i
                while j < len(text) and text[j].isspace():
                    j += 1
                if self.keep_whitespace and j > i:
                    spans.append((i, j))
                i = max(j, i + 1)
                continue
            if _is_punctuation(ch) or _is_cjk(ch):
                flush(i)
                spans.append((i, i + 1))
            elif start is None:
                start = i
            i += 1
        flush(len(text))
        return spans

    def _tokens(self, x: Any, who: str) -> list[tuple[str, int, int]]:
        raw = _text(x, who)
        # Special tokens are found before lower-casing, and kept exactly as written.
        pieces = _UNUSED.split(raw) if self.preserve_unused_token else [raw]
        text, keep = "", []
        for k, piece in enumerate(pieces):
            if self.preserve_unused_token and k % 2 == 1:
                piece = f"[{piece}]"
                keep.append((len(text), len(text) + len(piece)))
                text += piece
            else:
                text += self._prepare(piece)
        return _byte_spans(text, self._spans(text, keep))

    def _apply(self, x: Any, rng: Any = None) -> Any:
        return _with_offsets(self._tokens(x, "BasicTokenizer"), self.with_offsets)


class BertTokenizer(_TextTransform):
    """:class:`BasicTokenizer`, then :class:`WordpieceTokenizer` on each of its tokens.

    Arguments: those of both (``vocab`` first).
    """

    def __init__(self, vocab: Vocab, suffix_indicator: str = "##", max_bytes_per_token: int = 100,
                 unknown_token: str = "[UNK]", lower_case: bool = False, keep_whitespace: bool = False,
                 normalization_form: NormalizeForm = NormalizeForm.NONE, preserve_unused_token: bool = True,
                 with_offsets: bool = False) -> None:
        self._basic = BasicTokenizer(lower_case, keep_whitespace, normalization_form, preserve_unused_token,
                                     with_offsets)
        self._wordpiece = WordpieceTokenizer(vocab, suffix_indicator, max_bytes_per_token, unknown_token,
                                             with_offsets)
        self.vocab, self.with_offsets = vocab, with_offsets

    def _apply(self, x: Any, rng: Any = None) -> Any:
        out = []
        for word, start, _ in self._basic._tokens(x, "BertTokenizer"):
            out.extend((p, start + s, start + e) for p, s, e in self._wordpiece._split(word))
        return _with_offsets(out, self.with_offsets)
