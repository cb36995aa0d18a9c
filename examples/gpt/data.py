"""The corpus: characters of a fixed list of the Python standard library's own source files.

Every Python installation ships these files, so the example needs no
download. Characters outside printable ASCII become ``?``; the vocabulary is
the 128 ASCII codes (divisible by any power-of-two model-parallel split).
Training windows are drawn once with a fixed seed, so every parallel mode
trains on exactly the same batches.
"""
from __future__ import annotations

import sysconfig
from pathlib import Path
from typing import Any

import numpy as np

import mindjax.dataset as ds

__all__ = ["CORPUS_FILES", "VOCAB_SIZE", "load_corpus", "encode", "decode", "windows", "corpus_dataset"]

#: The standard-library modules read, in order (all pure Python, present since 3.8).
CORPUS_FILES = ("textwrap.py", "string.py", "heapq.py", "bisect.py", "functools.py", "abc.py",
                "contextlib.py", "fnmatch.py", "shlex.py", "colorsys.py")
VOCAB_SIZE = 128


def load_corpus(max_chars: int = 200_000, files: tuple[str, ...] = CORPUS_FILES) -> str:
    """The concatenated text of ``files`` from the standard library, cut at ``max_chars``.

    Raises:
        FileNotFoundError: none of the files exists in this installation.
    """
    root = Path(sysconfig.get_paths()["stdlib"])
    parts = [(root / name).read_text(encoding="utf-8") for name in files if (root / name).is_file()]
    if not parts:
        raise FileNotFoundError(f"For 'load_corpus', none of {files} is in the standard library at {root}")
    return "\n".join(parts)[:max_chars]


def encode(text: str) -> np.ndarray:
    """Characters to int32 ids in ``[0, 128)``; non-ASCII characters become ``?``."""
    codes = np.frombuffer(text.encode("ascii", errors="replace"), dtype=np.uint8)
    return codes.astype(np.int32)


def decode(ids: Any) -> str:
    """Ids back to text."""
    return bytes(int(i) for i in np.asarray(ids).reshape(-1)).decode("ascii", errors="replace")


def windows(ids: np.ndarray, count: int, seq_length: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``count`` random windows: inputs ``(count, seq)`` and next-character labels of the same shape.

    Raises:
        ValueError: the corpus is shorter than one window.
    """
    if len(ids) <= seq_length + 1:
        raise ValueError(f"For 'windows', the corpus has {len(ids)} characters; a window needs "
                         f"{seq_length + 2}")
    starts = np.random.default_rng(seed).integers(0, len(ids) - seq_length - 1, size=count)
    index = starts[:, None] + np.arange(seq_length)[None, :]
    return ids[index], ids[index + 1]


def corpus_dataset(batch_size: int, steps: int, seq_length: int, max_chars: int = 200_000,
                   seed: int = 0) -> Any:
    """``steps`` batches of ``(input_ids, labels)`` in a fixed order (no shuffle: identical in every mode)."""
    inputs, labels = windows(encode(load_corpus(max_chars)), batch_size * steps, seq_length, seed)
    data = ds.NumpySlicesDataset((inputs, labels), column_names=["input_ids", "labels"], shuffle=False)
    return data.batch(batch_size, drop_remainder=True)
